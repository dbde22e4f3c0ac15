// `holaryn gateway --ui PORT`: the Capability Center for a live gateway, on
// loopback only. The page (ui-page.html) polls /api/state and posts the
// operator's answers; every POST must carry the per-start token the page was
// served with, and only loopback Host headers are answered, so other web
// pages cannot drive it.
//
//   GET  /                      the page
//   GET  /api/state             providers, the effective catalog (states, reasons), pending approvals, policy
//   POST /api/approvals/:callId {"approve": true|false}
//   POST /api/policy            {"text": "..."}  checked by the core; saved to policyFile when one is configured

import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";

const PAGE = new URL("./ui-page.html", import.meta.url);

/** Approvals that wait for the operator, and the policy every session shares. */
export function operatorDesk(gateway) {
  const pending = new Map();
  return {
    pending,
    /** Ask the operator; resolves when answered, or denies when the call is cancelled. */
    ask(req, signal) {
      return new Promise((resolve) => {
        pending.set(req.callId, { req, resolve, since: Date.now() });
        signal?.addEventListener(
          "abort",
          () => {
            if (pending.delete(req.callId)) resolve({ decision: "deny", reason: "the call was cancelled" });
          },
          { once: true },
        );
      });
    },
    answer(callId, approve) {
      const p = pending.get(callId);
      if (!p) return false;
      pending.delete(callId);
      p.resolve(
        approve
          ? { decision: "approve" }
          : { decision: "deny", reason: "the operator denied it in the Capability Center" },
      );
      return true;
    },
    state() {
      const { runtime, downstream } = gateway;
      const session = runtime.createSession({ ...gateway.sessionOptions(), dynamicDiscovery: true });
      try {
        const rows = session.capabilityTable();
        const counts = new Map();
        for (const r of rows) counts.set(r.provider, (counts.get(r.provider) ?? 0) + 1);
        return {
          providers: downstream.status().map((s) => ({ ...s, tools: counts.get(s.id) ?? 0 })),
          catalog: rows,
          // The header's count: what a client can find (hidden rows, e.g. run_tool_code with bounded code mode off, are not).
          findable: rows.filter((r) => r.availability.state !== "hidden").length,
          warnings: session.policyWarnings(),
          pending: [...pending.values()].map(({ req, since }) => ({
            callId: req.callId,
            tool: req.tool,
            title: req.title,
            reason: req.reason,
            description: req.description,
            args: req.args,
            since,
          })),
          policy: gateway.policy(),
        };
      } finally {
        session.close();
      }
    },
  };
}

/** Serve the Capability Center for `gateway` on http://127.0.0.1:PORT/. */
export async function serveUi(gateway, desk, { port = 0, host = "127.0.0.1" } = {}) {
  const token = randomBytes(16).toString("hex");
  const page = readFileSync(PAGE, "utf8").replace("__HOLARYN_TOKEN__", token);
  const server = createServer(async (req, res) => {
    const send = (status, body, type = "application/json") => {
      res.writeHead(status, { "content-type": type, "cache-control": "no-store", "x-content-type-options": "nosniff" });
      res.end(type === "application/json" ? JSON.stringify(body) : body);
    };
    const actual = server.address().port;
    if (req.headers.host !== `127.0.0.1:${actual}` && req.headers.host !== `localhost:${actual}`)
      return send(403, { error: "loopback only" });
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    try {
      if (req.method === "GET" && url.pathname === "/") return send(200, page, "text/html; charset=utf-8");
      if (req.method === "GET" && url.pathname === "/api/state") return send(200, desk.state());
      if (req.method !== "POST") return send(404, { error: "not found" });
      if (req.headers["x-holaryn-token"] !== token) return send(403, { error: "missing or wrong x-holaryn-token" });
      const body = await readBody(req);
      const approval = /^\/api\/approvals\/([^/]+)$/.exec(url.pathname);
      if (approval) {
        if (typeof body.approve !== "boolean") return send(400, { error: '"approve" must be true or false' });
        return desk.answer(decodeURIComponent(approval[1]), body.approve)
          ? send(200, { ok: true })
          : send(404, { error: "no such pending approval" });
      }
      if (url.pathname === "/api/policy") {
        if (typeof body.text !== "string") return send(400, { error: '"text" must be a string' });
        return send(200, gateway.setPolicy(body.text));
      }
      return send(404, { error: "not found" });
    } catch (e) {
      return send(400, { error: e.message });
    }
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  return {
    url: `http://${host}:${server.address().port}/`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

async function readBody(req) {
  const chunks = [];
  let size = 0;
  for await (const c of req) {
    size += c.length;
    if (size > 1024 * 1024) throw new Error("request body over 1 MiB");
    chunks.push(c);
  }
  return JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
}

/** Write the policy text to its file (the editor's Save). */
export function savePolicyFile(path, text) {
  writeFileSync(path, text.endsWith("\n") ? text : `${text}\n`);
}
