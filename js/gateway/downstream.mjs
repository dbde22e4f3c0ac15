// The gateway's downstream MCP servers: connect each at start (stdio spawn or
// Streamable HTTP), register its tools as one provider, keep them in sync on
// list_changed, and when a server dies mark its tools unavailable and
// reconnect with backoff. One broken server never stops the others; close()
// shuts every child down.

import { connectMcpProvider } from "../mcp.mjs";

/** Backoff before reconnect attempt `n` (0-based): 250 ms doubling to 10 s. */
export const backoffMs = (n) => Math.min(10_000, 250 * 2 ** n);

/**
 * Keep the servers of a config connected to `runtime`.
 * @param {object} runtime a HolarynRuntime
 * @param {object[]} servers the checked `servers` of a gateway config
 * @param {{qualifyNames?: boolean, log?: (line: string) => void, timers?: object, healthMs?: number}} options
 *   `timers`: `{setTimeout, clearTimeout, setInterval, clearInterval}` (tests may inject them);
 *   `healthMs`: how often an HTTP server is pinged (a dead stdio server closes its pipe instead).
 */
export function superviseServers(
  runtime,
  servers,
  { qualifyNames = true, log = () => {}, timers = globalThis, healthMs = 10_000 } = {},
) {
  const links = new Map();
  let closing = false;

  async function open(server) {
    const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
    const client = new Client({ name: "holaryn-gateway", version: "0.1.0" });
    let transport;
    if (server.kind === "stdio") {
      const { StdioClientTransport, getDefaultEnvironment } = await import("@modelcontextprotocol/sdk/client/stdio.js");
      transport = new StdioClientTransport({
        command: server.command,
        args: server.args,
        env: { ...getDefaultEnvironment(), ...server.env },
        cwd: server.cwd,
        stderr: "pipe",
      });
      transport.stderr?.on("data", (d) => log(`[${server.name}] ${String(d).trimEnd()}`));
    } else {
      const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
      transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: server.headers } });
    }
    await client.connect(transport);
    return client;
  }

  async function connect(link) {
    const { server } = link;
    try {
      const client = await open(server);
      if (closing) {
        await client.close();
        return;
      }
      link.client = client;
      link.adapter = await connectMcpProvider(runtime, client, { providerId: server.name, qualifyNames });
      runtime.setProviderStatus(server.name, "connected");
      link.attempts = 0;
      link.state = "connected";
      link.error = undefined;
      log(`[${server.name}] connected: ${link.adapter.initial?.added?.length ?? 0} tools`);
      // The adapter marks the provider disconnected on close; we also reconnect.
      const previous = client.onclose;
      client.onclose = () => {
        previous?.();
        if (link.client === client) lost(link, "the server closed the connection");
      };
      // An HTTP server that goes away closes nothing: ping it now and then.
      if (server.kind === "http") link.health = timers.setInterval(() => check(link, client), healthMs);
    } catch (e) {
      lost(link, e?.message ?? String(e));
    }
  }

  /** Ping a server; a server that does not answer is lost. */
  async function check(link, client) {
    try {
      await client.ping({ timeout: Math.min(5_000, healthMs) });
    } catch (e) {
      if (link.client === client) lost(link, `the server stopped answering (${e?.message ?? e})`);
    }
  }

  function lost(link, why) {
    const old = link.client;
    if (link.health) timers.clearInterval(link.health);
    link.health = undefined;
    link.client = undefined;
    link.adapter = undefined;
    link.state = closing ? "closed" : "reconnecting";
    link.error = why;
    old?.close().catch(() => {});
    if (closing) return;
    try {
      runtime.setProviderStatus(link.server.name, "disconnected");
    } catch {
      // A provider that never registered has no status to set.
    }
    const wait = backoffMs(link.attempts++);
    log(`[${link.server.name}] unavailable (${why}); retrying in ${wait} ms`);
    link.timer = timers.setTimeout(() => {
      link.timer = undefined;
      if (!closing) connect(link);
    }, wait);
  }

  const ready = Promise.all(
    servers
      .filter((s) => !s.disabled)
      .map((server) => {
        const link = { server, attempts: 0, state: "connecting" };
        links.set(server.name, link);
        return connect(link);
      }),
  );

  return {
    /** Resolves once every server connected or failed its first attempt. */
    ready,
    /** Host `execute`: routes a gated call to the server owning its provider. */
    execute(req) {
      const link = links.get(req.providerId);
      if (!link?.adapter)
        throw new Error(`server "${req.providerId}" is not connected (${link?.error ?? "unknown server"})`);
      const client = link.client;
      return link.adapter.execute(req).catch((e) => {
        // A failed call may mean a dead server: check at once rather than at the next ping.
        if (link.server.kind === "http" && link.client === client) check(link, client);
        throw e;
      });
    },
    /** One row per server: name, state, last error. */
    status() {
      return [...links.values()].map((l) => ({
        name: l.server.name,
        kind: l.server.kind,
        state: l.state,
        ...(l.error ? { error: l.error } : {}),
      }));
    },
    /** Close every connection and stop every child process. */
    async close() {
      closing = true;
      await Promise.all(
        [...links.values()].map(async (l) => {
          if (l.timer) timers.clearTimeout(l.timer);
          if (l.health) timers.clearInterval(l.health);
          const c = l.client;
          l.client = undefined;
          l.state = "closed";
          await c?.close().catch(() => {});
        }),
      );
    },
  };
}
