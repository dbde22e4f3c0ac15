// A downstream server on the legacy HTTP+SSE transport (`"type": "sse"`):
// server-everything's `sse` mode, reached with the MCP SDK's SSEClientTransport.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { connect, createServer } from "node:net";
import { join } from "node:path";
import { describe, it } from "node:test";
import { connectGateway, makeConfig, ROOT, until } from "./helpers.mjs";

/** A free loopback port (bound, then released). */
async function freePort() {
  const s = createServer();
  await new Promise((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}

describe('gateway with a legacy SSE downstream server ("type": "sse", issue 31)', () => {
  it("lists, inspects and calls its tools", async () => {
    const port = await freePort();
    const everything = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    const server = spawn(process.execPath, [everything, "sse"], {
      env: { ...process.env, PORT: String(port) },
      stdio: "ignore",
    });
    const setup = makeConfig({ servers: [] });
    writeFileSync(
      setup.file,
      JSON.stringify({ mcpServers: { old: { type: "sse", url: `http://127.0.0.1:${port}/sse` } } }),
    );
    let gw;
    try {
      // Listening once a TCP connection is accepted (its /sse stream would stay open).
      await until(
        () =>
          new Promise((resolve) => {
            const socket = connect(port, "127.0.0.1", () => {
              socket.destroy();
              resolve(true);
            });
            socket.on("error", () => resolve(false));
          }),
        15_000,
        "server-everything on SSE",
      );
      gw = await connectGateway(setup.file);
      const found = await gw.call("tool_search", { query: "echo a message back" });
      assert.ok(
        found.json.results.some((r) => r.name === "old/echo"),
        found.text,
      );
      await gw.call("tool_inspect", { name: "old/echo" });
      const r = await gw.call("old/echo", { message: "over legacy sse" });
      assert.equal(r.isError, false, r.text);
      assert.match(r.text, /over legacy sse/);
    } finally {
      await gw?.client.close();
      server.kill("SIGKILL");
    }
  });
});
