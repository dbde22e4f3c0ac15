// `holaryn rank` over catalogs a benchmark brings: a tool named like one of the
// runtime's own tools is ranked under its file's namespace (and said so on
// stderr) instead of refusing the catalog; a query the search refuses is one
// error line and the run goes on. `holaryn search` says when nothing fits (the hint).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { root } from "./helpers.mjs";

const bin = join(root, "bin/holaryn.mjs");
const holaryn = (...args) => spawnSync(process.execPath, [bin, ...args], { encoding: "utf8" });
const tool = (name, description) => ({
  name,
  description,
  inputSchema: { type: "object", properties: { q: { type: "string" } } },
});

function workspace() {
  const dir = mkdtempSync(join(tmpdir(), "rank-"));
  const catalog = join(dir, "bench-tools.json");
  writeFileSync(
    catalog,
    JSON.stringify({
      tools: [
        tool("tool_search", "Search the vendor's own tool index for a capability."),
        tool("send_invoice", "Send an invoice to a customer for an amount of money."),
        tool("rename_file", "Rename or move a file."),
      ],
    }),
  );
  const queries = join(dir, "queries.jsonl");
  writeFileSync(
    queries,
    `${[
      { id: "q1", query: "bill the customer $40" },
      { id: "q2", query: "x".repeat(513) },
      { id: 3, query: "" },
      { id: "q4", query: "search the vendor tool index" },
    ]
      .map((q) => JSON.stringify(q))
      .join("\n")}\n`,
  );
  return { dir, catalog, queries };
}

const lines = (stdout) =>
  stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));

test("a catalog with a tool named tool_search is ranked, the tool under its file's namespace", () => {
  const { catalog, queries } = workspace();
  const r = holaryn("rank", "--catalog", catalog, "--queries", queries);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /bench-tools\.json: .*tool_search.* reserved.*; ranked as `bench-tools\/tool_search`/);
  const out = lines(r.stdout);
  assert.deepEqual(out.find((l) => l.id === "q4").ranked[0], "bench-tools/tool_search");
  assert.ok(out.find((l) => l.id === "q1").ranked.includes("send_invoice"), "the other tools keep their names");
});

test("the namespace is the file's provider: its server field when it has one", () => {
  const { dir, queries } = workspace();
  const file = join(dir, "tools-list.json");
  writeFileSync(
    file,
    JSON.stringify({ server: "vendor", tools: [tool("tool_search", "Search the vendor tool index.")] }),
  );
  const r = holaryn("rank", "--catalog", file, "--queries", queries);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /tools-list\.json: .*; ranked as `vendor\/tool_search`/);
  assert.equal(lines(r.stdout).find((l) => l.id === "q4").ranked[0], "vendor/tool_search");
});

test("in a catalog directory the qualified names are kept and nothing is renamed", () => {
  const { dir, queries } = workspace();
  const sub = join(dir, "catalogs");
  mkdirSync(sub);
  writeFileSync(
    join(sub, "vendor.json"),
    JSON.stringify({ tools: [tool("tool_search", "Search the vendor's own tool index.")] }),
  );
  writeFileSync(join(sub, "other.json"), JSON.stringify({ tools: [tool("tool_list", "List the vendor's tools.")] }));
  const r = holaryn("rank", "--catalog", sub, "--queries", queries);
  assert.equal(r.status, 0, r.stderr);
  const ranked = lines(r.stdout).find((l) => l.id === "q4").ranked;
  assert.ok(ranked.includes("vendor/tool_search"), JSON.stringify(ranked));
  assert.doesNotMatch(r.stderr, /is reserved/);
});

test("a query the search refuses is one error line with the core's code, and the run goes on", () => {
  const { catalog, queries } = workspace();
  const r = holaryn("rank", "--catalog", catalog, "--queries", queries);
  assert.equal(r.status, 0, r.stderr);
  const out = lines(r.stdout);
  assert.deepEqual(
    out.map((l) => l.id),
    ["q1", "q2", 3, "q4"],
    "one line per query, in order",
  );
  for (const id of ["q2", 3]) {
    const l = out.find((x) => x.id === id);
    assert.equal(l.ranked, undefined);
    assert.equal(typeof l.error.code, "string");
    assert.ok(l.error.code.length > 0 && l.error.message.length > 0, JSON.stringify(l));
  }
  assert.match(out.find((l) => l.id === "q2").error.message, /512/);
  assert.ok(Array.isArray(out.find((l) => l.id === "q1").ranked));
  assert.match(r.stderr, /4 queries, 2 refused/);
});

test("search over a single file with a reserved name works too, and a real naming error still refuses", () => {
  const { dir, catalog } = workspace();
  const r = holaryn("search", "--catalog", catalog, "vendor tool index");
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /bench-tools\/tool_search/);
  const bad = join(dir, "bad.json");
  writeFileSync(bad, JSON.stringify({ tools: [tool("has space", "A name the core refuses.")] }));
  const b = holaryn("search", "--catalog", bad, "anything");
  assert.equal(b.status, 2);
  assert.match(b.stderr, /descriptor\.invalid_name/);
});

test("search prints the hint when nothing fits, and no such line when a tool fits", () => {
  const { catalog } = workspace();
  const none = holaryn("search", "--catalog", catalog, "qwzx vbnm plokij");
  assert.equal(none.status, 0, none.stderr);
  assert.match(none.stdout, /^nothing fits: .*tool_list/m);
  const fits = holaryn("search", "--catalog", catalog, "rename a file");
  assert.equal(fits.status, 0, fits.stderr);
  assert.doesNotMatch(fits.stdout, /nothing fits/);
  assert.match(fits.stdout, /1\. rename_file/);
});

// Issue 33: the nothing-fits flag is scored like the ranking, so each line carries it (and the hint when set).
test("rank reports nothingFits per query, with the hint only when it is set", () => {
  const { dir, catalog } = workspace();
  const queries = join(dir, "nothing.jsonl");
  writeFileSync(
    queries,
    `${[
      { id: "none", query: "qwzx vbnm plokij" },
      { id: "fits", query: "rename a file" },
    ]
      .map((q) => JSON.stringify(q))
      .join("\n")}\n`,
  );
  const r = holaryn("rank", "--catalog", catalog, "--queries", queries);
  assert.equal(r.status, 0, r.stderr);
  const out = lines(r.stdout);
  const none = out.find((l) => l.id === "none");
  assert.equal(none.nothingFits, true);
  assert.match(none.hint, /tool_list/);
  const fits = out.find((l) => l.id === "fits");
  assert.equal(fits.nothingFits, false);
  assert.equal(fits.hint, undefined);
  assert.equal(fits.ranked[0], "rename_file");
  assert.equal(typeof fits.us, "number");
});

// Issue 30: one bad tool never costs the others. A directory whose file (and so provider) is named with a
// space, a tool in draft-04's form without `$schema`, a tool no dialect reads and a file that is no JSON:
// every good tool registers, each refusal is one line, the draft-04 tool carries a dialect note; --strict
// makes it all-or-nothing.
test("a catalog directory with a spaced server name, a draft-04 schema and bad entries ranks every good tool", () => {
  const dir = mkdtempSync(join(tmpdir(), "wild-"));
  const cat = join(dir, "catalog");
  mkdirSync(cat);
  const draft4 = {
    name: "forecast",
    description: "Weather forecast for a number of days ahead.",
    inputSchema: {
      type: "object",
      properties: { days: { type: "integer", minimum: 0, exclusiveMinimum: true } },
      required: ["days"],
    },
  };
  const broken = {
    name: "broken",
    description: "No dialect reads it.",
    inputSchema: { type: "object", minProperties: -1 },
  };
  writeFileSync(
    join(cat, "My Weather Server.json"),
    JSON.stringify({ tools: [draft4, tool("alerts", "Weather alerts."), broken] }),
  );
  writeFileSync(join(cat, "files.json"), JSON.stringify({ tools: [tool("rename_file", "Rename or move a file.")] }));
  writeFileSync(join(cat, "garbage.json"), "{ not json");
  const queries = join(dir, "q.jsonl");
  writeFileSync(queries, `${JSON.stringify({ id: 1, query: "weather forecast for days" })}\n`);
  const r = holaryn("rank", "--catalog", cat, "--queries", queries);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /over 3 tools/);
  assert.match(
    r.stderr,
    /My Weather Server\.json: tool `My-Weather-Server\/broken` \(inputSchema at \/minProperties\): .*\(descriptor\.invalid_schema\)/,
  );
  assert.match(r.stderr, /garbage\.json.*catalog\.malformed/);
  assert.match(r.stderr, /tool `My-Weather-Server\/forecast`: input schema read as draft-04 \(.*exclusiveMinimum/);
  assert.deepEqual(JSON.parse(r.stdout.trim()).ranked[0], "My-Weather-Server/forecast");
  const strict = holaryn("rank", "--catalog", cat, "--queries", queries, "--strict");
  assert.equal(strict.status, 2);
  assert.match(strict.stderr, /--strict|catalog\.malformed/);
});

test("CLI edges (issue 31): load + register time, flags checked before the load, unknown provider, the hint once", () => {
  const { dir, catalog, queries } = workspace();
  const fits = holaryn("search", "--catalog", catalog, "rename a file");
  assert.equal(fits.status, 0, fits.stderr);
  assert.match(fits.stdout, /^3 tools from 1 file\(s\) loaded and registered in \d+ ms, index built in [\d.]+ ms; /);

  // A bad --source is refused before anything is read: the catalog does not even exist here.
  for (const cmd of [
    ["search", "--catalog", join(dir, "missing.json"), "--source", "nope", "anything"],
    ["rank", "--catalog", join(dir, "missing.json"), "--queries", queries, "--source", "nope"],
  ]) {
    const r = holaryn(...cmd);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /^holaryn: --source "nope": unknown source `nope`; expected one of native, mcp, /);
    assert.doesNotMatch(r.stderr, /catalog not found|unknown variant/);
    assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
  }

  // So are a missing --embeddings file and an --out that cannot be written.
  for (const [cmd, message] of [
    [
      ["search", "--catalog", join(dir, "missing.json"), "--embeddings", join(dir, "nope.json"), "x"],
      /^holaryn: --embeddings .*nope\.json: cannot read: ENOENT\n$/,
    ],
    [
      [
        "rank",
        "--catalog",
        join(dir, "missing.json"),
        "--queries",
        queries,
        "--out",
        join(dir, "no/such/dir/out.jsonl"),
      ],
      /^holaryn: --out .*out\.jsonl: cannot write: ENOENT\n$/,
    ],
  ]) {
    const r = holaryn(...cmd);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, message);
  }

  // An unknown --provider: exit 2 with the providers the catalog has.
  for (const cmd of [
    ["search", "--catalog", catalog, "--provider", "nope", "rename a file"],
    ["rank", "--catalog", catalog, "--queries", queries, "--provider", "nope"],
  ]) {
    const r = holaryn(...cmd);
    assert.equal(r.status, 2, r.stderr);
    // (after the note on the reserved name tool_search, which the load prints)
    assert.match(r.stderr, /\nholaryn: --provider "nope": no such provider in this catalog \(known: bench-tools\)\n$/);
  }

  // Nothing fits: the core's hint is printed once.
  const none = holaryn("search", "--catalog", catalog, "qwzx vbnm plokij");
  assert.equal(none.status, 0, none.stderr);
  const hint = /^nothing fits: (.*)$/m.exec(none.stdout)?.[1];
  assert.ok(hint, none.stdout);
  assert.equal(none.stdout.split(hint).length - 1, 1, `the hint once:\n${none.stdout}`);
});
