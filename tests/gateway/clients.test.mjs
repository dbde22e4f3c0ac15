// Issue 31: the gateway as real clients use it. A strict client that refuses
// any tool name a model API would reject; the MCP Inspector CLI with one
// process per command (search, inspect, list, call), over stdio (a fresh
// gateway per command, sharing --state) and over HTTP (a fresh session per
// command); a downstream server killed and restarted with the same tools; a
// deny saved in the Capability Center's policy editor, also while a call
// waits for approval.

import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { BIN, connectGateway, makeConfig, pidsOf, ROOT, until } from "./helpers.mjs";

/** What model APIs accept as a tool name. */
const MODEL_API_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const INSPECTOR = join(ROOT, "node_modules/.bin/mcp-inspector-cli");

/** tools/list as a strict client reads it: one name a model API would refuse fails the whole list. */
async function strictList(client) {
  const { tools } = await client.listTools();
  const bad = tools.map((t) => t.name).filter((n) => !MODEL_API_NAME.test(n));
  if (bad.length) throw new Error(`the model API refuses the tool list (HTTP 400): ${bad.join(", ")}`);
  return tools.map((t) => t.name);
}

const textOf = (r) => r.content?.find((c) => c.type === "text")?.text ?? "";

describe("a strict client (tool names as model APIs accept them)", () => {
  let gw;
  before(async () => {
    gw = await connectGateway(makeConfig({ servers: ["memory", "dyn"] }).file);
  });
  after(async () => {
    await gw?.client.close();
  });

  it("gets only provider-safe names, and search and inspect show the name it calls", async () => {
    assert.deepEqual((await strictList(gw.client)).sort(), ["tool_inspect", "tool_list", "tool_search"]);
    const found = await gw.call("tool_search", { query: "remember a fact about a person" });
    const hit = found.json.results.find((r) => r.name === "memory/create_entities");
    assert.ok(hit, found.text);
    assert.equal(hit.callName, "memory__create_entities", "search shows the name to call");
    const seen = gw.changes.count;
    const inspected = await gw.call("tool_inspect", { name: hit.name });
    assert.equal(inspected.json.callName, "memory__create_entities");
    await gw.listChanged(seen);
    const names = await strictList(gw.client);
    assert.ok(names.includes("memory__create_entities"), names.join(", "));
    const r = await gw.call("memory__create_entities", {
      entities: [{ name: "Ada", entityType: "person", observations: ["first program"] }],
    });
    assert.equal(r.isError, false, r.text);
    // The canonical name still works for clients and caches that hold it.
    const again = await gw.call("memory/read_graph", {});
    assert.equal(again.isError, false, again.text);
    assert.ok((await strictList(gw.client)).includes("memory__read_graph"));
  });
});

/** Run the Inspector CLI once against `target` (a command, or a URL and --transport); the JSON it prints. */
function inspector(target, ...args) {
  const r = spawnSync(INSPECTOR, ["--cli", ...target, ...args], {
    cwd: join(ROOT, "tests"), // inspector-cli 1.0.3 reads ../package.json
    encoding: "utf8",
    timeout: 90_000,
  });
  assert.equal(r.status, 0, `${args.join(" ")}: ${r.stderr}${r.stdout}`);
  return JSON.parse(r.stdout.slice(r.stdout.indexOf("{")));
}

const callArgs = (name, pairs) => [
  "--method",
  "tools/call",
  "--tool-name",
  name,
  ...pairs.flatMap((p) => ["--tool-arg", p]),
];

/** search → inspect → list → call, one Inspector CLI process per command. */
function searchInspectCall(target, log) {
  const found = JSON.parse(textOf(inspector(target, ...callArgs("tool_search", ["query=echo a piece of text back"]))));
  const hit = found.results.find((r) => r.name === "dyn/echo_text");
  assert.ok(hit, JSON.stringify(found));
  const name = hit.callName;
  assert.equal(name, "dyn__echo_text");
  const inspected = JSON.parse(textOf(inspector(target, ...callArgs("tool_inspect", [`name=${name}`]))));
  assert.equal(inspected.loaded, true);
  const listed = inspector(target, "--method", "tools/list").tools.map((t) => t.name);
  assert.ok(listed.includes(name), `a fresh session lists the inspected tool: ${listed}`);
  const marker = `one process per command ${Math.random()}`;
  const r = inspector(target, ...callArgs(name, [`text=${marker}`]));
  assert.equal(r.isError, false, JSON.stringify(r));
  assert.match(textOf(r), new RegExp(marker.replace(/\./g, "\\.")));
  assert.match(readFileSync(log, "utf8"), /call echo_text/);
}

describe("the MCP Inspector CLI, one process per command", () => {
  it("over stdio: a fresh gateway per command shares the working set through --state", () => {
    const setup = makeConfig({ servers: ["dyn"] });
    const state = join(setup.dir, "state");
    // The Inspector CLI takes --config for itself: the gateway's flags go in a script.
    const script = join(setup.dir, "gateway.sh");
    const argv = [process.execPath, BIN, "gateway", "--config", setup.file, "--state", state, "--quiet"];
    writeFileSync(script, `exec ${argv.map((a) => `'${a}'`).join(" ")}\n`);
    searchInspectCall(["/bin/sh", script], setup.files.log);
    const kept = JSON.parse(readFileSync(join(state, "working-set.json"), "utf8"));
    assert.deepEqual(kept.tools, ["dyn/echo_text"], "canonical names on disk");
  });

  it("over HTTP: a fresh session per command", async () => {
    const setup = makeConfig({ servers: ["dyn"] });
    const child = spawn(process.execPath, [BIN, "gateway", "--config", setup.file, "--http", "0", "--quiet"], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (d) => {
      err += d;
    });
    try {
      const url = await until(() => /serving Streamable HTTP on (\S+)/.exec(err)?.[1], 30_000, "the gateway's URL");
      searchInspectCall([url, "--transport", "http"], setup.files.log);
      assert.ok(!existsSync(join(setup.dir, "state")), "no --state: nothing written");
    } finally {
      child.kill("SIGKILL");
    }
  });
});

describe("a downstream server killed and restarted with the same tools", () => {
  it("keeps the inspected tool listed and callable without a new inspect", async () => {
    const setup = makeConfig({ servers: ["dyn"] });
    const gw = await connectGateway(setup.file);
    try {
      await gw.call("tool_inspect", { name: "dyn/echo_text" });
      assert.equal((await gw.call("dyn__echo_text", { text: "before" })).isError, false);
      const pids = pidsOf(setup.files.pids);
      await gw.call("dyn__crash", {});
      await until(() => pidsOf(setup.files.pids).length > pids.length, 20_000, "dyn restarted");
      await until(
        async () => (await gw.call("tool_list", { provider: "dyn", state: "unavailable" })).json.tools.length === 0,
        20_000,
        "dyn connected again",
      );
      assert.ok((await strictList(gw.client)).includes("dyn__echo_text"), "still listed");
      const r = await gw.call("dyn__echo_text", { text: "after the restart" });
      assert.equal(r.isError, false, r.text);
    } finally {
      await gw.client.close();
    }
  });
});

describe("a deny saved in the Capability Center's policy editor", () => {
  let setup;
  let client;
  let ui;
  let token;
  before(async () => {
    setup = makeConfig({ servers: ["dyn"], holaryn: { policyFile: "tool-policy.json" } });
    writeFileSync(join(setup.dir, "tool-policy.json"), "{}\n");
    client = new Client({ name: "deny-test", version: "1.0.0" }); // no elicitation: the operator approves
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "gateway", "--config", setup.file, "--ui", "0", "--quiet"],
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr.on("data", (d) => {
      stderr += d;
    });
    await client.connect(transport);
    ui = await until(() => /Capability Center on (\S+)/.exec(stderr)?.[1], 20_000, "the UI URL");
    token = /const TOKEN = "([0-9a-f]+)"/.exec(await (await fetch(ui)).text())[1];
  });
  after(async () => {
    await client?.close();
  });

  const call = (name, args = {}) => client.callTool({ name, arguments: args });
  const post = (path, body) =>
    fetch(new URL(path, ui), {
      method: "POST",
      headers: { "x-holaryn-token": token, "content-type": "application/json" },
      body: JSON.stringify(body),
    }).then((r) => r.json());
  const pending = () =>
    until(
      async () => {
        const s = await (await fetch(new URL("/api/state", ui))).json();
        return s.pending.length === 1 && s.pending[0];
      },
      10_000,
      "a pending approval",
    );

  it("a change elsewhere leaves a pending approval alone", async () => {
    const waiting = call("dyn__wipe_everything");
    const p = await pending();
    const grown = await call("dyn__grow", { name: "unrelated_tool" });
    assert.equal(grown.isError, false, textOf(grown));
    await until(
      async () =>
        JSON.parse(textOf(await call("tool_list", { provider: "dyn" }))).tools.some(
          (t) => t.name === "dyn/unrelated_tool",
        ),
      10_000,
      "the registry changed",
    );
    await post(`/api/approvals/${p.callId}`, { approve: true });
    const r = await waiting;
    assert.equal(r.isError, false, textOf(r));
  });

  it("a call to an inspected tool then says denied, with the rule and its scope", async () => {
    await call("tool_inspect", { name: "dyn/echo_text" });
    assert.equal((await call("dyn__echo_text", { text: "allowed" })).isError, false);
    assert.equal((await post("/api/policy", { text: '{"deny": ["dyn/echo_text"]}' })).ok, true);
    const r = await call("dyn__echo_text", { text: "denied?" });
    assert.equal(r.isError, true);
    const said = textOf(r);
    assert.match(said, /policy\.denied/);
    assert.match(said, /denied by the project policy file \(deny: dyn\/echo_text\)/);
    assert.doesNotMatch(said, /changed since/);
    assert.equal(
      readFileSync(setup.files.log, "utf8").match(/call echo_text/g)?.length,
      1,
      "the denied call never ran",
    );
  });

  it("a deny that lands while the call waits for approval ends it as denied", async () => {
    const waiting = call("dyn__wipe_everything");
    await pending();
    assert.equal((await post("/api/policy", { text: '{"deny": ["dyn/echo_text", "dyn/wipe_everything"]}' })).ok, true);
    const r = await waiting;
    assert.equal(r.isError, true);
    assert.match(textOf(r), /policy\.denied/);
    assert.match(textOf(r), /deny: dyn\/wipe_everything/);
    const s = await (await fetch(new URL("/api/state", ui))).json();
    assert.equal(s.pending.length, 0, "nothing left waiting for the operator");
    assert.equal(readFileSync(setup.files.log, "utf8").match(/call wipe_everything/g)?.length, 1, "ran once, before");
  });
});
