// The gateway's downstream MCP servers: connect each at start (stdio spawn,
// Streamable HTTP or legacy HTTP+SSE) as one provider through `connectMcpProvider` with a client
// factory, which keeps its tools in sync on list_changed and, when the server
// dies, marks them unavailable and reconnects with backoff. This file adds
// what the adapter cannot know: a server that is down at start is retried
// (with the same backoff), an HTTP server is pinged (a dead one closes
// nothing), stderr goes to the log, and close() stops every child. One broken
// server never stops the others.

import { connectMcpProvider } from "../mcp.mjs";

/** Reconnect backoff: 250 ms doubling to 10 s (the adapter's and the start retry's). */
export const BACKOFF = { initialDelayMs: 250, maxDelayMs: 10_000 };
const backoffMs = (n) => Math.min(BACKOFF.maxDelayMs, BACKOFF.initialDelayMs * 2 ** n);

/**
 * Keep the servers of a config connected to `runtime`.
 * @param {object} runtime a HolarynRuntime
 * @param {object[]} servers the checked `servers` of a gateway config
 * @param {{qualifyNames?: boolean, log?: (line: string) => void, timers?: object, healthMs?: number, relay?: object}} options
 *   `timers`: `{setTimeout, clearTimeout, setInterval, clearInterval}` (tests may inject them);
 *   `healthMs`: how often an HTTP server is pinged (a dead stdio server closes its pipe instead);
 *   `relay`: the resources/prompts/sampling relay (proxy.mjs): its `capabilities` are declared and
 *   `attach(name, client)` is called on every (re)connect.
 */
export function superviseServers(
  runtime,
  servers,
  { qualifyNames = true, log = () => {}, timers = globalThis, healthMs = 10_000, relay } = {},
) {
  const links = new Map();
  let closing = false;

  /** A connected SDK client for `link` (the adapter's factory); remembered so it can be pinged and closed. */
  async function open(link) {
    const { server } = link;
    const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
    const client = new Client(
      { name: "holaryn-gateway", version: "0.1.0" },
      { capabilities: relay?.capabilities ?? {} },
    );
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
    } else if (server.kind === "sse") {
      // `"type": "sse"`: the legacy HTTP+SSE transport (MCP 2024-11-05), headers on the stream and every POST.
      const { SSEClientTransport } = await import("@modelcontextprotocol/sdk/client/sse.js");
      transport = new SSEClientTransport(new URL(server.url), { requestInit: { headers: server.headers } });
    } else {
      const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
      transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: server.headers } });
    }
    await client.connect(transport);
    if (closing) {
      await client.close();
      throw new Error("the gateway is shutting down");
    }
    link.client = client;
    link.error = undefined;
    relay?.attach(server.id, client);
    return client;
  }

  /** Connect `link` once; on failure retry with backoff until it connects or the gateway closes. */
  async function start(link) {
    const { server } = link;
    try {
      link.adapter = await connectMcpProvider(runtime, () => open(link), {
        providerId: server.id,
        qualifyNames,
        reconnect: { ...BACKOFF, setTimeout: timers.setTimeout, clearTimeout: timers.clearTimeout },
        onWarning: (w) => {
          if (w.type !== "mcp_tool_skipped") link.error = w.message;
          log(
            `[${server.name}] ${w.type}: ${w.tool ? `${w.tool}: ` : ""}${w.message}${w.nextAction ? ` (${w.nextAction})` : ""}`,
          );
        },
        onReconnect: () => log(`[${server.name}] reconnected`),
      });
      runtime.setProviderStatus(server.id, "connected");
      log(`[${server.name}] connected: ${link.adapter.initial?.added?.length ?? 0} tools`);
      if (server.kind !== "stdio") link.health = timers.setInterval(() => check(link), healthMs);
    } catch (e) {
      link.error = e?.message ?? String(e);
      if (closing) return;
      const wait = backoffMs(link.attempts++);
      log(`[${server.name}] unreachable (${link.error}); retrying in ${wait} ms`);
      link.timer = timers.setTimeout(() => {
        link.timer = undefined;
        if (!closing) start(link);
      }, wait);
    }
  }

  /** Ping an HTTP server; one that does not answer is closed, so the adapter marks it and reconnects. */
  async function check(link) {
    const client = link.client;
    if (!client || !link.adapter?.connected) return;
    try {
      await client.ping({ timeout: Math.min(5_000, healthMs) });
    } catch (e) {
      if (link.client !== client) return;
      link.error = `the server stopped answering (${e?.message ?? e})`;
      log(`[${link.server.name}] ${link.error}`);
      await client.close().catch(() => {});
    }
  }

  const ready = Promise.all(
    servers
      .filter((s) => !s.disabled)
      .map((server) => {
        const link = { server, attempts: 0 };
        links.set(server.id, link);
        return start(link);
      }),
  );

  return {
    /** Resolves once every server connected or failed its first attempt. */
    ready,
    /** Host `execute`: routes a gated call to the server owning its provider. */
    execute(req) {
      const link = links.get(req.providerId);
      if (!link?.adapter?.connected) {
        throw new Error(`server "${req.providerId}" is not connected (${link?.error ?? "unknown server"})`);
      }
      return link.adapter.execute(req).catch((e) => {
        // A failed call may mean a dead HTTP server: check at once rather than at the next ping.
        if (link.server.kind !== "stdio") check(link);
        throw e;
      });
    },
    /** The connected servers' clients, in config order (the relay's downstream side), each named by its provider id. */
    clients() {
      return [...links.values()]
        .filter((l) => l.client && l.adapter?.connected)
        .map((l) => ({ name: l.server.id, client: l.client }));
    },
    /** One row per server: name (the config key), provider id, transport, state (`connected`, `reconnecting`, `unreachable`, `closed`), last error. */
    status() {
      return [...links.values()].map((l) => {
        const state = closing
          ? "closed"
          : !l.adapter
            ? "unreachable"
            : l.adapter.connected
              ? "connected"
              : "reconnecting";
        return {
          name: l.server.name,
          id: l.server.id,
          kind: l.server.kind,
          state,
          ...(l.error && state !== "connected" ? { error: l.error } : {}),
        };
      });
    },
    /** Close every connection and stop every child process. */
    async close() {
      closing = true;
      await Promise.all(
        [...links.values()].map(async (l) => {
          if (l.timer) timers.clearTimeout(l.timer);
          if (l.health) timers.clearInterval(l.health);
          await l.adapter?.close().catch(() => {});
          await l.client?.close().catch(() => {});
        }),
      );
    },
  };
}
