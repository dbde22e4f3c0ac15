// The gateway over Streamable HTTP, on loopback only: POST/GET/DELETE /mcp,
// one MCP session (and one holaryn session) per client, DNS-rebinding
// protection on (only 127.0.0.1/localhost Host headers are served).

import { randomUUID } from "node:crypto";
import { createServer } from "node:http";

/**
 * Serve `gateway` on http://127.0.0.1:PORT/mcp until SIGINT/SIGTERM or `close()`.
 * @returns {Promise<{url: string, port: number, close: () => Promise<void>, closed: Promise<void>}>}
 */
export async function serveHttp(gateway, { port = 0, host = "127.0.0.1" } = {}) {
  const { StreamableHTTPServerTransport } = await import("@modelcontextprotocol/sdk/server/streamableHttp.js");
  const sessions = new Map();

  async function newSession(req, res, body) {
    const u = gateway.upstream();
    let transport;
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => sessions.set(id, { transport, upstream: u }),
      enableDnsRebindingProtection: true,
      allowedHosts: [`127.0.0.1:${server.address().port}`, `localhost:${server.address().port}`],
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      u.close();
    };
    await u.server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      if (url.pathname !== "/mcp") {
        res.writeHead(404, { "content-type": "text/plain" }).end("the MCP endpoint is /mcp\n");
        return;
      }
      const body = req.method === "POST" ? await readJson(req) : undefined;
      const id = req.headers["mcp-session-id"];
      const known = typeof id === "string" ? sessions.get(id) : undefined;
      if (known) return await known.transport.handleRequest(req, res, body);
      if (req.method === "POST" && !id && isInitialize(body)) return await newSession(req, res, body);
      res.writeHead(id ? 404 : 400, { "content-type": "application/json" }).end(
        JSON.stringify({
          jsonrpc: "2.0",
          error: {
            code: -32000,
            message: id ? "unknown or expired MCP session; initialize again" : "no MCP session: send initialize first",
          },
          id: null,
        }),
      );
    } catch (e) {
      if (!res.headersSent) {
        const status = e instanceof SyntaxError ? 400 : 500;
        res.writeHead(status, { "content-type": "application/json" }).end(
          JSON.stringify({
            jsonrpc: "2.0",
            error: { code: status === 400 ? -32700 : -32603, message: e.message },
            id: null,
          }),
        );
      }
    }
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  const actual = server.address().port;
  let finish;
  const closed = new Promise((resolve) => {
    finish = resolve;
  });
  let closing;
  const close = () => {
    closing ??= (async () => {
      await Promise.all([...sessions.values()].map((s) => s.transport.close().catch(() => {})));
      server.closeAllConnections?.();
      await new Promise((resolve) => server.close(() => resolve()));
      await gateway.close();
      finish();
    })();
    return closing;
  };
  process.once("SIGINT", close);
  process.once("SIGTERM", close);
  return { url: `http://${host}:${actual}/mcp`, port: actual, close, closed };
}

function isInitialize(body) {
  const msgs = Array.isArray(body) ? body : [body];
  return msgs.some((m) => m && m.method === "initialize");
}

async function readJson(req) {
  const chunks = [];
  let size = 0;
  for await (const c of req) {
    size += c.length;
    if (size > 4 * 1024 * 1024) throw new SyntaxError("request body over 4 MiB");
    chunks.push(c);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? JSON.parse(text) : undefined;
}
