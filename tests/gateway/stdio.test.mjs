// `holaryn gateway` over stdio, driven by an MCP SDK client, in front of
// server-memory, server-filesystem, server-everything and the test server.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { alive, connectGateway, makeConfig, pidsOf, until } from "./helpers.mjs";

describe("gateway over stdio", () => {
  let setup;
  let gw;
  const answers = ["accept", "decline"];
  before(async () => {
    setup = makeConfig({
      holaryn: { rules: { deny: ["dyn/fail"] }, boundedCodeMode: true, activityFile: "activity.jsonl" },
    });
    gw = await connectGateway(setup.file, { elicit: () => answers.shift() ?? "decline" });
  });
  after(async () => {
    await gw?.client.close();
  });

  it("lists only the discovery tools (and run_tool_code) at start", async () => {
    const { tools } = await gw.client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ["run_tool_code", "tool_inspect", "tool_list", "tool_search"]);
  });

  it("search → inspect → list_changed → tools/list has the tool → the call runs (every server)", async () => {
    const cases = [
      [
        "remember a fact about a person",
        "memory/create_entities",
        { entities: [{ name: "Ada", entityType: "person", observations: ["wrote the first program"] }] },
      ],
      ["read the text of a file", "filesystem/read_text_file", { path: `${setup.dir}/notes.txt` }],
      ["echo a message back", "everything/echo", { message: "hi" }],
      ["echo a piece of text back", "dyn/echo_text", { text: "hello" }],
    ];
    for (const [query, name, args] of cases) {
      const found = await gw.call("tool_search", { query });
      assert.ok(
        found.json.results.some((r) => r.name === name),
        `${query}: ${name} in ${found.json.results.map((r) => r.name)}`,
      );
      const seen = gw.changes.count;
      const inspected = await gw.call("tool_inspect", { name });
      assert.equal(inspected.isError, false, name);
      assert.ok(inspected.json.schema, `${name} schema loaded`);
      await gw.listChanged(seen);
      const { tools } = await gw.client.listTools();
      // Listed (and called) by the name inspect gives: `server__tool`, as model APIs accept.
      const callName = inspected.json.callName;
      assert.equal(callName, name.replace("/", "__"));
      const listed = tools.find((t) => t.name === callName);
      assert.ok(listed, `${callName} is listed after inspect`);
      assert.deepEqual(listed.inputSchema, inspected.json.schema, "the exact schema the inspect showed");
      const r = await gw.call(callName, args);
      assert.equal(r.isError, false, `${name}: ${r.text}`);
    }
    assert.match(readFileSync(setup.files.log, "utf8"), /call echo_text/);
  });

  it("refuses a denied tool on every path and never runs it", async () => {
    const found = await gw.call("tool_search", { query: "always report a tool error" });
    const row = found.json.results.find((r) => r.name === "dyn/fail");
    if (row) assert.equal(row.state, "denied");
    const inspected = await gw.call("tool_inspect", { name: "dyn/fail" });
    assert.equal(inspected.json?.schema, undefined, "no schema for a denied tool");
    assert.equal(inspected.json?.handle, undefined, "no handle for a denied tool");
    const direct = await gw.call("dyn/fail", {});
    assert.equal(direct.isError, true);
    const code = await gw.call("run_tool_code", {
      code: 'r = call("hol_0000000000000000000000000000000000000000000000000000000000", {})',
    });
    assert.equal(code.isError, true);
    const { tools } = await gw.client.listTools();
    assert.ok(!tools.some((t) => t.name === "dyn/fail" || t.name === "dyn__fail"));
    assert.doesNotMatch(readFileSync(setup.files.log, "utf8"), /call fail\b/);
  });

  it("asks the user through elicitation for a destructive call: accepted once, declined once", async () => {
    await gw.call("tool_inspect", { name: "dyn/wipe_everything" });
    const yes = await gw.call("dyn/wipe_everything", {});
    assert.equal(yes.isError, false, yes.text);
    const no = await gw.call("dyn/wipe_everything", {});
    assert.equal(no.isError, true);
    assert.match(no.text, /approval\.denied/);
    assert.equal(gw.asked.length, 2);
    assert.match(gw.asked[0], /dyn\/wipe_everything/);
    assert.equal(readFileSync(setup.files.log, "utf8").match(/call wipe_everything/g)?.length, 1);
  });

  it("follows a server's list_changed: a tool added at runtime is found and callable", async () => {
    await gw.call("tool_inspect", { name: "dyn/grow" });
    const grown = await gw.call("dyn/grow", { name: "fresh_tool" });
    assert.equal(grown.isError, false, grown.text);
    await until(
      async () => (await gw.call("tool_list", { provider: "dyn" })).json.tools.some((t) => t.name === "dyn/fresh_tool"),
      10_000,
      "fresh_tool listed",
    );
    const inspected = await gw.call("tool_inspect", { name: "dyn/fresh_tool" });
    assert.equal(inspected.isError, false);
    assert.equal((await gw.call("dyn/fresh_tool", {})).isError, false);
    await gw.call("tool_inspect", { name: "dyn/shrink" });
    await gw.call("dyn/shrink", { name: "fresh_tool" });
    await until(
      async () =>
        !(await gw.call("tool_list", { provider: "dyn" })).json.tools.some((t) => t.name === "dyn/fresh_tool"),
      10_000,
      "fresh_tool gone",
    );
  });

  it("cancels the downstream call when the client cancels", async () => {
    await gw.call("tool_inspect", { name: "dyn/sleep" });
    const ac = new AbortController();
    const pending = gw.client.callTool({ name: "dyn/sleep", arguments: { ms: 20_000 } }, undefined, {
      signal: ac.signal,
    });
    await until(() => readFileSync(setup.files.log, "utf8").includes("call sleep"), 10_000, "sleep started");
    ac.abort();
    await assert.rejects(pending);
    await until(
      () => readFileSync(setup.files.log, "utf8").includes("sleep cancelled"),
      10_000,
      "the server saw the cancel",
    );
  });

  it("shows a crashed server's tools unavailable, then brings them back", async () => {
    const before = pidsOf(setup.files.pids);
    await gw.call("tool_inspect", { name: "dyn/crash" });
    await gw.call("dyn/crash", {});
    await until(
      async () => {
        const l = await gw.call("tool_list", { provider: "dyn", state: "unavailable" });
        return l.json.tools.length > 0;
      },
      10_000,
      "dyn unavailable",
    );
    await until(async () => pidsOf(setup.files.pids).length > before.length, 15_000, "dyn restarted");
    await until(
      async () => (await gw.call("tool_list", { provider: "dyn", state: "unavailable" })).json.tools.length === 0,
      15_000,
      "dyn back",
    );
    await gw.call("tool_inspect", { name: "dyn/echo_text" });
    const r = await gw.call("dyn/echo_text", { text: "back" });
    assert.equal(r.isError, false, r.text);
  });

  it("writes activity records without payloads", () => {
    const lines = readFileSync(`${setup.dir}/activity.jsonl`, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    assert.ok(lines.some((r) => r.kind === "invocation" && r.tool === "dyn/echo_text"));
    const text = JSON.stringify(lines);
    assert.doesNotMatch(text, /wrote the first program|hello from the filesystem/);
  });

  it("exits cleanly when the client goes away, leaving no child process", async () => {
    const pids = pidsOf(setup.files.pids);
    const gatewayPid = gw.transport.pid;
    await gw.client.close();
    gw = undefined;
    await until(() => !alive(gatewayPid) && pids.every((p) => !alive(p)), 10_000, "gateway and children gone");
  });
});
