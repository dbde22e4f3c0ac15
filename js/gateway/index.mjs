// `holaryn gateway`: dynamic discovery and the gate in front of the MCP
// servers of an `mcpServers` config, served to any MCP client over stdio or
// Streamable HTTP. This file wires the pieces: the config, the runtime and
// its activity file, the downstream servers, the upstream server(s).

import { appendFileSync, readFileSync } from "node:fs";
import { HolarynRuntime } from "../node.mjs";
import { GatewayConfigError, loadGatewayConfig } from "./config.mjs";
import { superviseServers } from "./downstream.mjs";
import { createUpstream } from "./upstream.mjs";

export { GatewayConfigError, loadGatewayConfig, parseGatewayConfig } from "./config.mjs";

const VERSION = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")).version;

/** Session options from the `"holaryn"` settings (the project policy file is read here, checked by the core). */
export function sessionOptionsOf(config) {
  const h = config.holaryn;
  const opts = {};
  if (h.boundedCodeMode !== undefined) opts.boundedCodeMode = h.boundedCodeMode;
  if (h.rules) opts.rules = h.rules;
  if (h.profileAllowedTools) opts.profileAllowedTools = h.profileAllowedTools;
  if (h.hiddenProviders) opts.hiddenProviders = h.hiddenProviders;
  if (h.callTimeoutMs) opts.defaultTimeoutMs = h.callTimeoutMs;
  if (h.callbackTimeoutMs) opts.callbackTimeoutMs = h.callbackTimeoutMs;
  if (h.policyFile) {
    let text;
    try {
      text = readFileSync(h.policyFile, "utf8");
    } catch (e) {
      throw new GatewayConfigError(
        config.file,
        "/holaryn/policyFile",
        `cannot read ${h.policyFile} (${e.code ?? e.message})`,
      );
    }
    opts.projectPolicy = { path: h.policyFile, text };
  }
  return opts;
}

/**
 * Start a gateway: check everything first (a bad config or policy starts nothing), then connect the servers.
 * @param {{config: string | object, log?: (line: string) => void, timers?: object}} options
 */
export async function startGateway({ config, log = () => {}, timers } = {}) {
  const cfg = typeof config === "string" ? await loadGatewayConfig(config) : config;
  const sessionOptions = sessionOptionsOf(cfg);
  const runtime = new HolarynRuntime({});
  // Create (and drop) one session now so a malformed policy or rule fails at start.
  runtime.createSession({ ...sessionOptions, dynamicDiscovery: true }).close();
  if (cfg.holaryn.activityFile) {
    const file = cfg.holaryn.activityFile;
    appendFileSync(file, "");
    runtime.addEventListener((ev) => {
      if (ev.type === "activity") {
        const { type: _type, ...record } = ev;
        appendFileSync(file, `${JSON.stringify(record)}\n`);
      }
    });
  }
  const downstream = superviseServers(runtime, cfg.servers, {
    qualifyNames: cfg.holaryn.qualifyNames ?? true,
    log,
    timers,
  });
  await downstream.ready;
  const upstreams = new Set();
  return {
    runtime,
    downstream,
    config: cfg,
    /** A new upstream MCP server (one session) for one client connection. */
    upstream() {
      const u = createUpstream({
        runtime,
        sessionOptions,
        execute: (req) => downstream.execute(req),
        approvalFallback: cfg.holaryn.approvalFallback,
        version: VERSION,
        log,
      });
      upstreams.add(u);
      const close = u.close;
      u.close = async () => {
        upstreams.delete(u);
        await close();
      };
      return u;
    },
    /** Stop serving and shut every downstream server down. */
    async close() {
      await Promise.all([...upstreams].map((u) => u.close()));
      await downstream.close();
    },
  };
}

/** Serve one client over stdio until stdin closes or a signal arrives; then shut down. */
export async function serveStdio(gateway) {
  const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
  const u = gateway.upstream();
  const transport = new StdioServerTransport();
  let done;
  const finished = new Promise((resolve) => {
    done = resolve;
  });
  const stop = async () => {
    await gateway.close();
    done();
  };
  transport.onclose = stop;
  process.stdin.on("end", stop);
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  await u.server.connect(transport);
  return finished;
}
