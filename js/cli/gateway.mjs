// `holaryn gateway --config FILE [--http PORT] [--ui PORT] [--state DIR] [--check]`. In stdio mode
// stdout is the MCP channel: everything else goes to stderr.

import { CliError } from "./catalog.mjs";

export const GATEWAY_USAGE = `usage:
  holaryn gateway --config FILE            serve MCP over stdio (for a client's "command")
  holaryn gateway --config FILE --http PORT
                                           serve Streamable HTTP on http://127.0.0.1:PORT/mcp
                                           (loopback Host and Origin only; with HOLARYN_GATEWAY_TOKEN
                                           set, every request needs "Authorization: Bearer TOKEN")
  holaryn gateway --check --config FILE    print what would be served, then exit
  --ui PORT                                also serve the Capability Center on http://127.0.0.1:PORT/
                                           (catalog states, pending approvals, servers, the policy editor)
  --state DIR                              keep the gateway's state in DIR (created if missing): the
                                           working set of recently inspected tools, listed to every new
                                           session, also of later gateway processes (one per command),
                                           and the registry's snapshot, restored by a later gateway for
                                           the same servers instead of registering their tools again

FILE is an MCP client config: {"mcpServers": {"name": {"command", "args", "env"} |
{"url", "headers"}}}, with holaryn's settings beside it under "holaryn":
boundedCodeMode, policyFile, rules, profileAllowedTools, hiddenProviders,
approvalFallback ("deny" | "allow"), activityFile, qualifyNames, callTimeoutMs,
callbackTimeoutMs, allowedOrigins (--http: browser origins besides loopback),
httpTokenEnv (--http: the variable holding the bearer token, default
HOLARYN_GATEWAY_TOKEN). A server's "type" may be "stdio", "http",
"streamable-http" or "sse" (legacy HTTP+SSE). Exit codes: 0 ok, 2 a bad config or flag.`;

/** A `--flag PORT` value, or a CliError naming the flag. */
function portOf(flag, value) {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new CliError(`--${flag} needs a port number 0-65535, not ${JSON.stringify(value)}`);
  }
  return port;
}

/**
 * `--http`'s bearer token: the variable the config names (`httpTokenEnv`, which must then be set),
 * else HOLARYN_GATEWAY_TOKEN when set, else none.
 */
function httpToken(config, GatewayConfigError) {
  const name = config.holaryn.httpTokenEnv;
  if (name === undefined) return process.env.HOLARYN_GATEWAY_TOKEN || undefined;
  const value = process.env[name];
  if (!value) {
    const at = config.positions?.["/holaryn/httpTokenEnv"];
    throw new GatewayConfigError(
      config.file,
      "/holaryn/httpTokenEnv",
      `the environment variable ${name} is not set`,
      at,
    );
  }
  return value;
}

/** Run the gateway command (its flags parsed by bin/holaryn.mjs, --help answered there); resolves to the exit code. */
export async function gatewayCommand(opts) {
  if (typeof opts.config !== "string") throw new CliError("gateway needs --config FILE");
  if (opts.state !== undefined && (typeof opts.state !== "string" || opts.state === "")) {
    throw new CliError("--state needs a directory");
  }
  const port = opts.http === undefined ? undefined : portOf("http", opts.http);
  const uiPort = opts.ui === undefined ? undefined : portOf("ui", opts.ui);
  const { startGateway, serveStdio, GatewayConfigError, loadGatewayConfig } = await import("../gateway/index.mjs");
  const log = opts.quiet ? () => {} : (line) => process.stderr.write(`holaryn gateway: ${line}\n`);
  let gateway;
  let token;
  try {
    const config = await loadGatewayConfig(opts.config);
    if (port !== undefined) token = httpToken(config, GatewayConfigError);
    gateway = await startGateway({ config, log, ui: uiPort !== undefined, stateDir: opts.state });
  } catch (e) {
    if (e instanceof GatewayConfigError || e?.code?.startsWith?.("policy.") || e?.code?.startsWith?.("session.")) {
      throw new CliError(e.message);
    }
    throw e;
  }
  if (opts.check) {
    const { checkReport } = await import("../gateway/check.mjs");
    process.stdout.write(await checkReport(gateway));
    const down = gateway.downstream.status().some((s) => s.state !== "connected");
    await gateway.close();
    return down ? 1 : 0;
  }
  let ui;
  if (uiPort !== undefined) {
    const { serveUi } = await import("../gateway/ui.mjs");
    ui = await serveUi(gateway, gateway.desk, { port: uiPort });
    process.stderr.write(`holaryn gateway: Capability Center on ${ui.url}\n`);
  }
  if (port !== undefined) {
    const { serveHttp } = await import("../gateway/http.mjs");
    const http = await serveHttp(gateway, { port, token, allowedOrigins: gateway.config.holaryn.allowedOrigins ?? [] });
    // Always said, even with --quiet: with --http 0 it is the only way to learn the port.
    process.stderr.write(`holaryn gateway: serving Streamable HTTP on ${http.url}\n`);
    await http.closed;
    await ui?.close();
    return 0;
  }
  log(`serving MCP over stdio (${gateway.downstream.status().length} servers)`);
  await serveStdio(gateway);
  await ui?.close();
  return 0;
}
