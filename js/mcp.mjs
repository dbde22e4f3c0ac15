// MCP servers as providers: register a connected @modelcontextprotocol/sdk
// Client's tools, keep them in sync on notifications/tools/list_changed, mark
// them unavailable on disconnect, and execute calls via callTool with the
// gate's AbortSignal.

function toSpec(tool, provider, qualify) {
  return {
    name: qualify ? `${provider.id}/${tool.name}` : tool.name,
    localName: tool.name,
    title: tool.title ?? tool.annotations?.title,
    description: tool.description ?? "",
    source: "mcp",
    provider,
    trust: "untrusted",
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    annotations: {
      ...(typeof tool.annotations?.readOnlyHint === "boolean" ? { readOnlyHint: tool.annotations.readOnlyHint } : {}),
      // MCP defaults destructiveHint to true for non-read-only tools; we keep
      // only what the server says, and destructive tools ask first.
      ...(typeof tool.annotations?.destructiveHint === "boolean"
        ? { destructiveHint: tool.annotations.destructiveHint }
        : {}),
      ...(typeof tool.annotations?.idempotentHint === "boolean"
        ? { idempotentHint: tool.annotations.idempotentHint }
        : {}),
      ...(typeof tool.annotations?.openWorldHint === "boolean"
        ? { openWorldHint: tool.annotations.openWorldHint }
        : {}),
    },
  };
}

/** Every tool of a server, following `nextCursor`. */
export async function listAllTools(client) {
  const tools = [];
  let cursor;
  do {
    const page = await client.listTools(cursor ? { cursor } : {});
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

/**
 * Register a connected MCP client as a provider of `runtime`.
 * @param {import("./index.d.ts").HolarynRuntime} runtime
 * @param {object} client a connected `Client` from @modelcontextprotocol/sdk
 * @param {{providerId: string, qualifyNames?: boolean, origin?: string}} options
 */
export async function connectMcpProvider(runtime, client, { providerId, qualifyNames = true, origin } = {}) {
  if (!providerId) throw new TypeError("connectMcpProvider needs a stable providerId");
  const info = client.getServerVersion?.() ?? {};
  const provider = {
    id: providerId,
    kind: "mcp",
    displayName: info.title ?? info.name ?? providerId,
    ...(info.version ? { version: String(info.version) } : {}),
    ...(origin ? { origin } : {}),
  };
  let connected = true;
  const sync = async () =>
    runtime.syncProvider(
      providerId,
      (await listAllTools(client)).map((t) => toSpec(t, provider, qualifyNames)),
    );
  const { ToolListChangedNotificationSchema } = await import("@modelcontextprotocol/sdk/types.js");
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    if (connected) await sync();
  });
  const previousOnClose = client.onclose;
  client.onclose = () => {
    connected = false;
    runtime.setProviderStatus(providerId, "disconnected");
    previousOnClose?.();
  };
  const initial = await sync();
  return {
    providerId,
    provider,
    initial,
    /** Re-list now (also runs on list_changed). */
    sync,
    /** Mark reconnected and re-list. */
    async reconnected() {
      connected = true;
      runtime.setProviderStatus(providerId, "connected");
      return sync();
    },
    /** True when this adapter owns the call. */
    owns: (req) => req.providerId === providerId,
    /** Execute a gated call via tools/call; MCP errors become tool failures. */
    async execute(req) {
      const result = await client.callTool({ name: req.localName, arguments: req.args ?? {} }, undefined, {
        signal: req.signal,
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
