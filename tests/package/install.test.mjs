// The packed tarball installed into a fresh project: what it ships, ESM
// import and require(), the README's Node examples verbatim, the optional MCP
// SDK's clear error, and the CLI as a user drives it (good and bad input,
// exit codes, no stack traces).
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { codeFences } from "../../scripts/readme-examples.mjs";
import { packedProject, root } from "./project.mjs";

const p = packedProject();
const node = (code, ...flags) => p.run(process.execPath, [...flags, "-e", code]);
const holaryn = (...args) => p.run(p.bin("holaryn"), args);
const noStack = (r) => assert.doesNotMatch(r.stderr, /\n\s+at /, `a stack trace:\n${r.stderr}`);

test("the tarball ships what users run: entries, builds, types, schemas; no tests, fixtures or benchmarks", () => {
  for (const f of [
    "package.json",
    "README.md",
    "bin/holaryn.mjs",
    "js/node.mjs",
    "js/browser.mjs",
    "js/mcp.mjs",
    "js/index.d.ts",
    "js/mcp.d.ts",
  ]) {
    assert.ok(p.files.includes(f), `${f} is shipped`);
  }
  assert.ok(
    p.files.some((f) => /^dist\/.*\.wasm$/.test(f)),
    "a wasm build is shipped",
  );
  const stray = p.files.filter((f) =>
    /^(tests|benchmarks|fuzz|core|wasm|scripts|js-demo)\/|fixture|\.test\.|bench/.test(f),
  );
  assert.deepEqual(stray, []);
});

test("ESM import and require() both load the Node build (engines: ^20.19 || >=22.12)", () => {
  const esm = node(
    `import { HolarynRuntime, HolarynError, init } from "holaryn";
     await init();
     const rt = new HolarynRuntime();
     rt.registerTools([{ name: "read_file", description: "Read a file", source: "native", provider: { id: "host" } }]);
     try { rt.registerTools([{ name: "bad name", source: "native", provider: { id: "host" } }]); } catch (e) { console.log(e instanceof HolarynError, e.code); }
     console.log(rt.size);`,
    "--input-type=module",
  );
  assert.equal(esm.status, 0, esm.stderr);
  assert.equal(esm.stdout, "true descriptor.invalid_name\n1\n");
  const cjs = node(
    `const { HolarynRuntime } = require("holaryn"); console.log(new HolarynRuntime().size, typeof require("holaryn/mcp").connectMcpProvider);`,
  );
  assert.equal(cjs.status, 0, cjs.stderr);
  assert.equal(cjs.stdout, "0 function\n");
});

test("holaryn/mcp without the optional @modelcontextprotocol/sdk: a ConfigError that says what to install", () => {
  const r = node(
    `import { HolarynRuntime, ConfigError } from "holaryn";
     import { connectMcpProvider } from "holaryn/mcp";
     try { await connectMcpProvider(new HolarynRuntime(), {}, { providerId: "x" }); }
     catch (e) { console.log(e instanceof ConfigError, e.code, e.nextAction); }`,
    "--input-type=module",
  );
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, "true config.invalid npm install @modelcontextprotocol/sdk\n");
});

// Free names the README's Node examples leave to the reader.
const PRELUDE = {
  "Use from Node": `const githubToolsListJson = JSON.stringify({ tools: [{ name: "create_issue", description: "Open an issue in a GitHub repository",
  inputSchema: { type: "object", properties: { owner: { type: "string" }, repo: { type: "string" }, title: { type: "string" } }, required: ["owner", "repo", "title"] } }] });
const executed = [];
const callTheTool = async (tool, args) => (executed.push(tool), { number: 1, title: args.title });
const askTheUser = async () => true;
`,
  "An optional host embedder (search by meaning)": `import { HolarynRuntime } from "holaryn";
const rt = new HolarynRuntime();
rt.registerTools([{ name: "rename_file", description: "Rename a file", source: "native", provider: { id: "host" } }]);
const session = rt.createSession({ dynamicDiscovery: true });
const vectors = [];
`,
};
const CHECK = {
  "Use from Node": `if (outcome.status !== "ok" || executed.join() !== "create_issue") throw new Error(JSON.stringify(outcome));\nconsole.log("ok");\n`,
  "An optional host embedder (search by meaning)": `console.log("ok");\n`,
};

for (const f of codeFences(["js"]).filter((f) => PRELUDE[f.heading])) {
  test(`README example runs as written: ${f.heading} (README.md:${f.start})`, () => {
    const file = join(p.dir, `readme-${f.start}.mjs`);
    writeFileSync(file, PRELUDE[f.heading] + f.code + CHECK[f.heading]);
    const r = p.run(process.execPath, [file]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /ok\n$/);
  });
}

test("the README's CLI examples run as written in the installed project", () => {
  const [fence] = codeFences(["sh"]).filter((f) => f.code.includes("npx holaryn search"));
  const r = p.run("bash", ["-euo", "pipefail", "-c", fence.code]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /1\. create_issue/);
  assert.match(r.stderr, /holaryn rank: 1 queries/);
});

test("CLI: --version, -v and --help per command", () => {
  const { version } = JSON.parse(
    p.run(process.execPath, ["-p", "JSON.stringify(require('holaryn/package.json'))"]).stdout,
  );
  for (const flag of ["--version", "-v", "version"]) assert.equal(holaryn(flag).stdout, `holaryn ${version}\n`);
  const help = holaryn("--help");
  assert.equal(help.status, 0);
  assert.doesNotMatch(help.stdout, /bench/, "bench is not offered in the installed package");
  const rank = holaryn("rank", "--help");
  assert.equal(rank.status, 0);
  assert.match(rank.stdout, /"id"/, "rank documents its input");
  assert.match(holaryn("search", "-h").stdout, /--top N/);
});

test("CLI user errors: exit 2, one line naming the flag, file or tool, never a stack trace", () => {
  writeFileSync(join(p.dir, "bad.json"), JSON.stringify({ tools: [{ name: "ok" }, { name: "has space" }] }));
  writeFileSync(join(p.dir, "q.jsonl"), '{"id": 1, "query": "x"}\n');
  const cases = [
    [["search", "--catalog", "github.json", "--top", "abc", "x"], /--top must be an integer from 1 to 8, got "abc"/],
    [["search", "--catalog", "github.json", "--colour", "x"], /Unknown option '--colour'/],
    [["rank", "--catalog", "github.json", "--queries", "q.jsonl", "--top"], /Option '--top <value>' argument missing/],
    [["search", "--catalog", "missing.json", "x"], /missing\.json/],
    // Without --strict the good tool registers and the bad one is one skip line (exit 0, issue 30).
    [["search", "--catalog", "bad.json", "--strict", "x"], /bad\.json: tool `has space`.*descriptor\.invalid_name/],
    [["rank", "--catalog", "github.json", "--queries", "nope.jsonl"], /--queries nope\.jsonl: cannot read/],
    [
      ["rank", "--catalog", "github.json", "--queries", "q.jsonl", "--out", "no-such-dir/out.jsonl"],
      /--out no-such-dir\/out\.jsonl: cannot write/,
    ],
    [["bench", "run", "--suite", "tool-discovery"], /checkout of the holaryn repository/],
    [["frobnicate"], /unknown command `frobnicate`/],
  ];
  for (const [args, message] of cases) {
    const r = holaryn(...args);
    assert.equal(r.status, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, message, args.join(" "));
    assert.equal(r.stderr.trim().split("\n").length, 1, `one line: ${r.stderr}`);
    noStack(r);
  }
});

test("CLI: a refused tool is skipped with one line and the others still register (exit 0)", () => {
  writeFileSync(join(p.dir, "bad.json"), JSON.stringify({ tools: [{ name: "ok" }, { name: "has space" }] }));
  const r = holaryn("search", "--catalog", "bad.json", "x");
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /^holaryn: skipping bad\.json: tool `has space` \(name\).*descriptor\.invalid_name/);
  assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
  assert.match(r.stdout, /^1 tools from 1 file/);
  noStack(r);
});

test("CLI: a search with no match says so and suggests filters", () => {
  const r = holaryn("search", "--catalog", "github.json", "zzqx qqzx");
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /No tool matches\..*--provider ID \(github\).*--source/s);
});

test("CLI rank (issue 18): a reserved name is namespaced with a note, a refused query is one line and the run goes on, --embeddings", () => {
  const tool = (name, description) => ({ name, description, inputSchema: { type: "object" } });
  writeFileSync(
    join(p.dir, "bench-tools.json"),
    JSON.stringify({
      tools: [
        tool("tool_search", "Search the vendor's own tool index for a capability."),
        tool("send_invoice", "Send an invoice to a customer for an amount of money."),
      ],
    }),
  );
  const queries = [
    { id: "q1", query: "search the vendor tool index" },
    { id: "q2", query: "x".repeat(513) },
    { id: "q3", query: "bill the customer $40" },
  ];
  writeFileSync(join(p.dir, "rank.jsonl"), `${queries.map((q) => JSON.stringify(q)).join("\n")}\n`);
  const r = holaryn("rank", "--catalog", "bench-tools.json", "--queries", "rank.jsonl");
  assert.equal(r.status, 0, r.stderr);
  noStack(r);
  assert.match(r.stderr, /bench-tools\.json: .*tool_search.* reserved.*; ranked as `bench-tools\/tool_search`/);
  assert.match(r.stderr, /3 queries, 1 refused/);
  const out = r.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    out.map((l) => l.id),
    ["q1", "q2", "q3"],
  );
  assert.equal(out[0].ranked[0], "bench-tools/tool_search");
  assert.equal(out[1].ranked, undefined);
  assert.match(out[1].error.message, /512/);
  assert.ok(out[2].ranked.includes("send_invoice"));

  // Precomputed vectors (the checkout's fixture catalogs and vectors; the installed CLI ranks).
  writeFileSync(
    join(p.dir, "meaning.jsonl"),
    '{"id": 1, "query": "can you put a thumbs-up on that message in slack"}\n{"id": 2, "query": "no vector for this one"}\n',
  );
  const fixtures = join(root, "tests/fixtures");
  const e = holaryn(
    "rank",
    "--catalog",
    join(fixtures, "mcp"),
    "--queries",
    "meaning.jsonl",
    "--embeddings",
    join(fixtures, "embeddings/minilm-l6-v2.json"),
  );
  assert.equal(e.status, 0, e.stderr);
  assert.match(e.stderr, /vectors imported, 1 queries lacked a query or tool vector/);
  assert.equal(e.stdout.trim().split("\n").length, 2);
});
