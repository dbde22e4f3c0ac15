// MCP servers as providers: register a connected @modelcontextprotocol/sdk
// Client's tools, keep them in sync on notifications/tools/list_changed, mark
// them unavailable on disconnect, reconnect through a client factory with
// backoff, and execute calls via callTool with the gate's AbortSignal.
// Turning MCP tools into specs and deciding which are refused is the core's
// (`syncCatalog`: catalog.rs, registry.rs, skipped.rs): a tool it refuses is
// skipped — a warning here, a Capability Center row and an activity record
// there — and the rest register.
import { ConfigError } from "./core.mjs";

const SDK_TYPES = "@modelcontextprotocol/sdk/types.js";

/** The SDK's notification schemas; a clear ConfigError when the optional peer dependency is missing. */
async function sdkTypes() {
  try {
    return await import(SDK_TYPES);
  } catch (e) {
    if (e?.code !== "ERR_MODULE_NOT_FOUND" && !/Cannot find|Failed to resolve|not found/i.test(String(e?.message)))
      throw e;
    const err = new ConfigError(
      "holaryn/mcp needs @modelcontextprotocol/sdk, an optional peer dependency of holaryn that is not installed here",
      "config.invalid",
    );
    err.nextAction = "npm install @modelcontextprotocol/sdk";
    err.cause = e;
    throw err;
  }
}

/** Every tool of a server, following `nextCursor`. */
export async function listAllTools(client) {
  // A server with only resources or prompts has no tools to list (tools/list would be refused).
  const caps = client.getServerCapabilities?.();
  if (caps && !caps.tools) return [];
  const tools = [];
  let cursor;
  do {
    const page = await client.listTools(cursor ? { cursor } : {});
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

/** The tools the core skipped (`syncCatalog`'s `skipped`) as the adapter's warnings. */
const warningsOf = (providerId, skipped) =>
  skipped.map((s) => ({
    type: "mcp_tool_skipped",
    providerId,
    tool: s.name,
    code: s.code,
    message: s.message,
    nextAction: s.nextAction,
  }));

/**
 * Register an MCP server as a provider of `runtime`. `client` is a connected
 * `Client` from @modelcontextprotocol/sdk, or a factory `() => Promise<Client>`
 * that connects a new one: with a factory, a closed connection (a crashed stdio
 * server) marks the tools unavailable and is replaced with backoff, and the
 * tools come back as a registry change; the same adapter (and `mcpExecute`)
 * keeps working.
 */
export async function connectMcpProvider(runtime, client, options = {}) {
  const { providerId, qualifyNames = true, origin, onWarning, onReconnect, reconnect = {} } = options;
  if (!providerId) throw new TypeError("connectMcpProvider needs a stable providerId");
  const factory = typeof client === "function" ? client : undefined;
  const { ToolListChangedNotificationSchema } = await sdkTypes();
  const backoff = {
    initialMs: reconnect.initialDelayMs ?? 500,
    maxMs: reconnect.maxDelayMs ?? 30_000,
    maxAttempts: reconnect.maxAttempts ?? Number.POSITIVE_INFINITY,
    setTimeout: reconnect.setTimeout ?? ((fn, ms) => setTimeout(fn, ms)),
    clearTimeout: reconnect.clearTimeout ?? ((t) => clearTimeout(t)),
  };
  let current; // the live client
  let connected = false;
  let closed = false;
  let timer;
  let attempts = 0;
  let warnings = [];

  const serverInfo = () => current?.getServerVersion?.() ?? {};
  // The catalog meta the core reads: serverInfo for the display name and version, `package` for the origin.
  // `instructions` (the initialize result's) describes the server: the provider's description when
  // serverInfo has none, searched with its name.
  const instructions = () => current?.getInstructions?.();
  const meta = () => ({
    serverInfo: serverInfo(),
    ...(instructions() ? { instructions: instructions() } : {}),
    ...(origin ? { package: origin } : {}),
  });
  const parseOpts = { providerId, qualifyNames, trust: "untrusted" };

  async function sync() {
    const c = current;
    const tools = await listAllTools(c);
    if (c !== current) return null; // replaced meanwhile
    // The core registers what it accepts and keeps the rest as skipped (Capability Center rows, activity).
    const r = runtime.syncCatalog(providerId, JSON.stringify({ ...meta(), tools }), parseOpts);
    warnings = warningsOf(providerId, r.skipped);
    for (const w of warnings) onWarning?.(w);
    return r.change;
  }

  function scheduleReconnect() {
    if (!factory || closed || timer !== undefined) return;
    if (attempts >= backoff.maxAttempts) {
      onWarning?.({
        type: "mcp_reconnect_gave_up",
        providerId,
        code: "provider.disconnected",
        message: `gave up after ${attempts} attempts`,
      });
      return;
    }
    const delay = Math.min(backoff.maxMs, backoff.initialMs * 2 ** attempts);
    attempts += 1;
    timer = backoff.setTimeout(async () => {
      timer = undefined;
      if (closed) return;
      let fresh;
      try {
        fresh = await factory();
        if (closed) return void (await fresh?.close?.());
        attach(fresh);
        const change = await sync();
        attempts = 0;
        runtime.setProviderStatus(providerId, "connected");
        onReconnect?.(change);
      } catch (e) {
        connected = false;
        onWarning?.({
          type: "mcp_reconnect_failed",
          providerId,
          code: "provider.disconnected",
          message: String(e?.message ?? e),
          attempt: attempts,
        });
        scheduleReconnect();
        // A client that connected but could not list its tools is not kept open.
        if (fresh) Promise.resolve(fresh.close?.()).catch(() => {});
      }
    }, delay);
  }

  function attach(c) {
    current = c;
    connected = true;
    c.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      if (c === current && connected) await sync();
    });
    const previousOnClose = c.onclose;
    c.onclose = () => {
      previousOnClose?.();
      if (c !== current) return; // an old client closing late
      connected = false;
      runtime.setProviderStatus(providerId, "disconnected");
      scheduleReconnect();
    };
  }

  attach(factory ? await factory() : client);
  const initial = await sync();
  return {
    providerId,
    /** The provider as registered (from the server's initialize answer). */
    get provider() {
      const i = serverInfo();
      return {
        id: providerId,
        kind: "mcp",
        displayName: i.title ?? i.name ?? providerId,
        ...(i.version ? { version: String(i.version) } : {}),
        ...(origin ? { origin } : {}),
        ...((i.description ?? instructions()) ? { description: String(i.description ?? instructions()) } : {}),
      };
    },
    initial,
    /** Tools of the last sync that the core refused (skipped), with the reason. */
    get warnings() {
      return warnings;
    },
    /** True while the current client is connected. */
    get connected() {
      return connected;
    },
    /** Re-list now (also runs on list_changed). */
    sync,
    /** Use `newClient` (or the current client, reconnected by the caller), mark connected and re-list. */
    async reconnected(newClient) {
      if (newClient) attach(newClient);
      connected = true;
      runtime.setProviderStatus(providerId, "connected");
      return sync();
    },
    /** Stop reconnecting and close the current client. */
    async close() {
      closed = true;
      if (timer !== undefined) backoff.clearTimeout(timer);
      timer = undefined;
      await current?.close?.();
    },
    /** True when this adapter owns the call. */
    owns: (req) => req.providerId === providerId,
    /** Execute a gated call via tools/call on the current client; MCP errors become tool failures. */
    async execute(req) {
      // `onprogress` (a host that relays progress, e.g. the gateway): the server's progress goes there.
      const progress = req.onprogress ? { onprogress: req.onprogress, resetTimeoutOnProgress: true } : {};
      const result = await current.callTool({ name: req.localName, arguments: req.args ?? {} }, undefined, {
        signal: req.signal,
        ...progress,
      });
      const text = (result.content ?? [])
        .filter((c) => c.type === "text")
        .map((c) => c.text)
        .join("\n");
      if (result.isError) throw new Error(text || "the MCP tool reported an error");
      // The CallToolResult as the server sent it: the core puts its blocks in each format's shape once.
      const out = { content: result.content ?? [] };
      if (result.structuredContent !== undefined) out.structuredContent = result.structuredContent;
      return out;
    },
  };
}

/** A host `execute` that routes calls to the MCP adapter owning the provider, else to `fallback`. */
export function mcpExecute(adapters, fallback) {
  return (req) => {
    const a = adapters.find((x) => x.owns(req));
    if (a) return a.execute(req);
    if (fallback) return fallback(req);
    throw new Error(`no executor for provider ${req.providerId}`);
  };
}
