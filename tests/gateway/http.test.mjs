// `holaryn gateway --http`: Streamable HTTP on loopback, driven by the MCP
// SDK client, the MCP Inspector CLI and the MCP conformance suite.

import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { request } from "node:http";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { alive, BIN, makeConfig, pidsOf, ROOT, until } from "./helpers.mjs";

const BINS = join(ROOT, "node_modules/.bin");

describe("gateway over Streamable HTTP", () => {
  let setup;
  let child;
  let url;
  before(async () => {
    setup = makeConfig({ servers: ["memory", "dyn", "reference"] });
    child = spawn(process.execPath, [BIN, "gateway", "--config", setup.file, "--http", "0", "--quiet"], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (d) => {
      err += d;
    });
    url = await until(() => /serving Streamable HTTP on (\S+)/.exec(err)?.[1], 30_000, "the gateway's URL");
  });
  after(() => {
    if (child.exitCode === null) child.kill("SIGKILL");
  });

  it("serves search → inspect → list_changed → call to an SDK client", async () => {
    const client = new Client({ name: "http-test", version: "1.0.0" });
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed++;
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      assert.deepEqual((await client.listTools()).tools.map((t) => t.name).sort(), [
        "tool_inspect",
        "tool_list",
        "tool_search",
      ]);
      const found = await client.callTool({ name: "tool_search", arguments: { query: "echo a piece of text back" } });
      assert.match(found.content[0].text, /dyn\/echo_text/);
      await client.callTool({ name: "tool_inspect", arguments: { name: "dyn/echo_text" } });
      await until(() => changed > 0, 10_000, "list_changed over HTTP");
      assert.ok((await client.listTools()).tools.some((t) => t.name === "dyn__echo_text"));
      const r = await client.callTool({ name: "dyn__echo_text", arguments: { text: "over http" } });
      assert.equal(r.isError, false);
      assert.match(JSON.stringify(r.content), /over http/);
    } finally {
      await client.close();
    }
  });

  it("lists and calls tools for the MCP Inspector CLI", () => {
    // inspector-cli 1.0.3 looks for ../package.json relative to the working directory.
    const inspector = (...args) =>
      spawnSync(join(BINS, "mcp-inspector-cli"), ["--cli", url, "--transport", "http", ...args], {
        cwd: join(ROOT, "tests"),
        encoding: "utf8",
        timeout: 60_000,
      });
    const list = inspector("--method", "tools/list");
    assert.equal(list.status, 0, list.stderr);
    // A new session lists the working set too: the tool the SDK client inspected above.
    assert.deepEqual(
      JSON.parse(list.stdout.slice(list.stdout.indexOf("{")))
        .tools.map((t) => t.name)
        .sort(),
      ["dyn__echo_text", "tool_inspect", "tool_list", "tool_search"],
    );
    const call = inspector(
      "--method",
      "tools/call",
      "--tool-name",
      "tool_search",
      "--tool-arg",
      "query=remember a fact about a person",
    );
    assert.equal(call.status, 0, call.stderr);
    assert.match(call.stdout, /memory\/(create_entities|add_observations)/);
  });

  it("passes the MCP conformance server scenarios that apply to a gateway", () => {
    const r = spawnSync(
      join(BINS, "conformance"),
      [
        "server",
        "--url",
        url,
        "--expected-failures",
        join(ROOT, "tests/gateway/conformance-expected-failures.yml"),
        "-o",
        join(setup.dir, "conformance"),
      ],
      { cwd: setup.dir, encoding: "utf8", timeout: 300_000 },
    );
    assert.equal(r.status, 0, `${r.stdout.slice(-3000)}\n${r.stderr.slice(-2000)}`);
    assert.match(r.stdout, /Baseline check passed/);
  });

  it("refuses Host headers other than loopback (DNS rebinding)", async () => {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } },
    });
    const status = await new Promise((resolve, reject) => {
      const req = request(
        url,
        {
          method: "POST",
          headers: {
            host: "evil.example",
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode);
        },
      );
      req.on("error", reject);
      req.end(body);
    });
    assert.equal(status, 403);
  });

  it("shuts down on SIGTERM with no child left", async () => {
    const pids = pidsOf(setup.files.pids);
    assert.ok(pids.length > 0);
    child.kill("SIGTERM");
    await until(() => child.exitCode !== null && pids.every((p) => !alive(p)), 15_000, "gateway and children gone");
    assert.equal(child.exitCode, 0);
  });
});

/** A free loopback port (bound, then released). */
async function freePort() {
  const { createServer } = await import("node:net");
  const s = createServer();
  await new Promise((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}

describe("gateway with a Streamable HTTP downstream server", () => {
  it("serves its tools, marks them unavailable when it dies, and reconnects when it is back", async () => {
    const port = await freePort();
    const everything = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    const startServer = () =>
      spawn(process.execPath, [everything, "streamableHttp"], {
        env: { ...process.env, PORT: String(port) },
        stdio: "ignore",
      });
    let server = startServer();
    const setup = makeConfig({ servers: [] });
    const { writeFileSync } = await import("node:fs");
    writeFileSync(setup.file, JSON.stringify({ mcpServers: { web: { url: `http://127.0.0.1:${port}/mcp` } } }));
    await until(
      async () => {
        try {
          await fetch(`http://127.0.0.1:${port}/mcp`);
          return true;
        } catch {
          return false;
        }
      },
      15_000,
      "server-everything on HTTP",
    );
    const { connectGateway } = await import("./helpers.mjs");
    const gw = await connectGateway(setup.file);
    try {
      const found = await gw.call("tool_search", { query: "echo a message back" });
      assert.ok(
        found.json.results.some((r) => r.name === "web/echo"),
        found.text,
      );
      await gw.call("tool_inspect", { name: "web/echo" });
      assert.equal((await gw.call("web/echo", { message: "over http" })).isError, false);
      server.kill("SIGKILL");
      await until(() => server.exitCode !== null || server.signalCode !== null, 5_000, "server gone");
      const failed = await gw.call("web/echo", { message: "anyone?" });
      assert.equal(failed.isError, true);
      await until(
        async () => (await gw.call("tool_list", { provider: "web", state: "unavailable" })).json.tools.length > 0,
        15_000,
        "web unavailable",
      );
      server = startServer();
      await until(
        async () => (await gw.call("tool_list", { provider: "web", state: "unavailable" })).json.tools.length === 0,
        30_000,
        "web back",
      );
      await gw.call("tool_inspect", { name: "web/echo" });
      const r = await gw.call("web/echo", { message: "back again" });
      assert.equal(r.isError, false, r.text);
    } finally {
      await gw.client.close();
      server.kill("SIGKILL");
    }
  });
});
