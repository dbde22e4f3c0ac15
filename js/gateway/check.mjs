// `holaryn gateway --check`: what a client would be served — servers and
// their state, tool counts per server, and the tool-definition bytes a client
// loads at start without the gateway (every tool) and with it.

/** A plain-text report of a started gateway. */
export async function checkReport(gateway) {
  const { runtime, downstream } = gateway;
  const tools = runtime.tools();
  const perServer = new Map();
  for (const t of tools) perServer.set(t.provider.id, (perServer.get(t.provider.id) ?? 0) + 1);
  // Without the gateway a client lists every tool of every server.
  const everything = runtime.createSession({ dynamicDiscovery: false });
  const without = everything.exportTools("mcp");
  everything.close();
  const u = gateway.upstream();
  const withGateway = u.session.exportTools("mcp");
  await u.close();
  const lines = [`config: ${gateway.config.file}`, "servers:"];
  for (const s of downstream.status()) {
    const n = perServer.get(s.id) ?? 0;
    lines.push(
      `  ${s.name.padEnd(24)} ${s.kind.padEnd(5)} ${s.state.padEnd(12)} ${String(n).padStart(5)} tools${s.error ? `  (${s.error})` : ""}`,
    );
  }
  const ratio = withGateway.bytes ? (without.bytes / withGateway.bytes).toFixed(1) : "—";
  lines.push(
    `tools: ${tools.length} in all`,
    `initial tools/list without the gateway: ${without.tools.length} tools, ${without.bytes} bytes`,
    `initial tools/list with the gateway:    ${withGateway.tools.length} tools, ${withGateway.bytes} bytes (${ratio}x smaller)`,
    "",
  );
  return lines.join("\n");
}
