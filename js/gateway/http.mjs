// The gateway over Streamable HTTP, on loopback only: POST/GET/DELETE /mcp,
// one MCP session (and one holaryn session) per client. Every request is
// checked before anything is allocated for it: the Host header (loopback
// only: DNS-rebinding protection), the Origin header (none, a loopback
// origin, or one of `allowedOrigins`), the bearer token when one is set, and
// for a POST the JSON content type and the Accept header MCP requires. A
// refused request gets its status and a JSON-RPC error, and no session.

import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";

/** The environment variable read for `--http`'s bearer token when the config names none. */
export const TOKEN_ENV = "HOLARYN_GATEWAY_TOKEN";

/**
 * Serve `gateway` on http://127.0.0.1:PORT/mcp until SIGINT/SIGTERM or `close()`.
 * `allowedOrigins`: browser origins served besides loopback ones; `token`: the bearer token every
 * request must carry (`Authorization: Bearer TOKEN`), or none.
 * @param {{port?: number, host?: string, allowedOrigins?: string[], token?: string}} [options]
 * @returns {Promise<{url: string, port: number, close: () => Promise<void>, closed: Promise<void>}>}
 */
export async function serveHttp(gateway, { port = 0, host = "127.0.0.1", allowedOrigins = [], token } = {}) {
  const { StreamableHTTPServerTransport } = await import("@modelcontextprotocol/sdk/server/streamableHttp.js");
  const sessions = new Map();
  const origins = new Set(allowedOrigins.map((o) => o.toLowerCase()));
  const digest = (t) => createHash("sha256").update(t).digest();
  const want = token ? digest(token) : undefined;

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
    try {
      await transport.handleRequest(req, res, body);
    } finally {
      // The transport refused the initialize (or it failed): nothing stays allocated for it.
      if (!transport.sessionId || !sessions.has(transport.sessionId)) await transport.close().catch(() => {});
    }
  }

  /** Why a request is refused before anything is allocated for it: `[status, message, headers?]`, or null. */
  function refusal(req) {
    const at = server.address().port;
    const hostHeader = String(req.headers.host ?? "").toLowerCase();
    if (hostHeader !== `127.0.0.1:${at}` && hostHeader !== `localhost:${at}`) {
      return [403, `Host ${JSON.stringify(req.headers.host ?? "")} is not served (loopback only)`];
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !isLoopbackOrigin(origin) && !origins.has(String(origin).toLowerCase())) {
      return [
        403,
        `Origin ${JSON.stringify(origin)} is not allowed (loopback origins are; add others to "allowedOrigins" under "holaryn")`,
      ];
    }
    if (want) {
      const m = /^Bearer\s+(\S+)\s*$/i.exec(String(req.headers.authorization ?? ""));
      if (!m || !timingSafeEqual(digest(m[1]), want)) {
        return [401, "missing or wrong bearer token (Authorization: Bearer TOKEN)", { "www-authenticate": "Bearer" }];
      }
    }
    if (req.method === "POST") {
      if (!String(req.headers["content-type"] ?? "").includes("application/json")) {
        return [415, "Content-Type must be application/json"];
      }
      const accept = String(req.headers.accept ?? "");
      if (!accept.includes("application/json") || !accept.includes("text/event-stream")) {
        return [406, "Accept must list both application/json and text/event-stream"];
      }
    }
    return null;
  }

  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      if (url.pathname !== "/mcp") {
        res.writeHead(404, { "content-type": "text/plain" }).end("the MCP endpoint is /mcp\n");
        return;
      }
      const refused = refusal(req);
      if (refused) {
        const [status, message, headers = {}] = refused;
        req.resume();
        res
          .writeHead(status, { "content-type": "application/json", ...headers })
          .end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
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

/** An Origin a page served from this machine sends (`http(s)://localhost|127.0.0.1|[::1][:port]`). */
function isLoopbackOrigin(origin) {
  return /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/i.test(String(origin));
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
