// A downstream server on the legacy HTTP+SSE transport (`"type": "sse"`):
// server-everything's `sse` mode, reached with the MCP SDK's SSEClientTransport.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createServer } from "node:net";
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
      await until(
        async () => {
          try {
            const res = await fetch(`http://127.0.0.1:${port}/message`, { method: "POST" });
            await res.body?.cancel();
            return true;
          } catch {
            return false;
          }
        },
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
