// `holaryn gateway`: dynamic discovery and the gate in front of the MCP
// servers of an `mcpServers` config, served to any MCP client over stdio or
// Streamable HTTP. This file wires the pieces: the config, the runtime and
// its activity file, the downstream servers, the upstream server(s).

import { appendFileSync, readFileSync } from "node:fs";
import { HolarynRuntime } from "../node.mjs";
import { GatewayConfigError, loadGatewayConfig } from "./config.mjs";
import { superviseServers } from "./downstream.mjs";
import { createRelay } from "./proxy.mjs";
import { openState, restoreRuntime, saveSnapshot, serversKey } from "./state.mjs";
import { operatorDesk, savePolicyFile } from "./ui.mjs";
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
        config.positions?.["/holaryn/policyFile"],
      );
    }
    opts.projectPolicy = { path: h.policyFile, text };
  }
  return opts;
}

/** How often a registry changed mid-run is saved to the state directory again (ms). */
export const SNAPSHOT_MS = 5_000;

/** Where the project policy is reported when the config names no `policyFile` (kept in memory). */
export const IN_MEMORY_POLICY = "tool-policy.json (in memory: set holaryn.policyFile to keep it)";

/**
 * Start a gateway: check everything first (a bad config or policy starts nothing), then connect the servers.
 * @param {{config: string | object, log?: (line: string) => void, timers?: object, ui?: boolean, stateDir?: string, snapshotMs?: number}} options
 *   `stateDir`: where the working set of recently inspected tools and the registry's snapshot are kept
 *   across processes (`--state DIR`; see js/gateway/state.mjs). `snapshotMs`: how often a registry
 *   changed since the last save (a server's list_changed, a reconnect) is saved again (5 s).
 */
export async function startGateway({
  config,
  log = () => {},
  timers,
  ui = false,
  stateDir,
  snapshotMs = SNAPSHOT_MS,
} = {}) {
  const cfg = typeof config === "string" ? await loadGatewayConfig(config) : config;
  const base = sessionOptionsOf(cfg);
  // The registry kept in the state directory for these servers, else a new one (servers register below).
  const key = serversKey(cfg);
  const restored = restoreRuntime(HolarynRuntime, stateDir, key, log);
  const runtime = restored ?? new HolarynRuntime({});
  let kept = restored ? runtime.version : null;
  if (restored) log(`registry restored from ${stateDir} (${runtime.size} tools)`);
  // Create (and drop) one session now so a malformed policy or rule fails at start.
  runtime.createSession({ ...base, dynamicDiscovery: true }).close();
  let policy = base.projectPolicy ?? null;
  const sessionOptions = () => ({ ...base, ...(policy ? { projectPolicy: policy } : {}) });
  if (cfg.holaryn.activityFile) {
    const file = cfg.holaryn.activityFile;
    try {
      appendFileSync(file, "");
    } catch (e) {
      throw new GatewayConfigError(
        cfg.file,
        "/holaryn/activityFile",
        `cannot write ${file} (${e.code ?? e.message})`,
        cfg.positions?.["/holaryn/activityFile"],
      );
    }
    runtime.addEventListener((ev) => {
      if (ev.type === "activity") {
        const { type: _type, ...record } = ev;
        appendFileSync(file, `${JSON.stringify(record)}\n`);
      }
    });
  }
  const state = openState(runtime, stateDir, log);
  // Resources, prompts, completions, logging, progress, sampling and elicitation (proxy.mjs).
  const relay = createRelay({
    clients: () => downstream.clients(),
    execute: (req) => downstream.execute(req),
    runtime,
    log,
  });
  const downstream = superviseServers(runtime, cfg.servers, {
    qualifyNames: cfg.holaryn.qualifyNames ?? true,
    log,
    timers,
    relay,
  });
  await downstream.ready;
  kept = saveSnapshot(runtime, stateDir, key, kept, log);
  // A server's list_changed or a reconnect changes the registry mid-run: save it again once it
  // has (saveSnapshot writes only when the version moved), so a restart restores what was last listed.
  const clock = timers ?? globalThis;
  const resave = stateDir
    ? clock.setInterval(() => {
        kept = saveSnapshot(runtime, stateDir, key, kept, log);
      }, snapshotMs)
    : null;
  resave?.unref?.();
  const upstreams = new Set();
  const gateway = {
    runtime,
    downstream,
    config: cfg,
    /** Approvals waiting for the operator (`--ui`), else null. */
    desk: null,
    /** The options every new session gets (the policy as last saved). */
    sessionOptions,
    /** The project policy in force: `{path, text, saved}` (`saved`: written to `policyFile` on change). */
    policy: () => ({
      path: policy?.path ?? cfg.holaryn.policyFile ?? IN_MEMORY_POLICY,
      text: policy?.text ?? "",
      saved: Boolean(cfg.holaryn.policyFile),
    }),
    /** Check a new policy text with the core; on success apply it to every live session (and save it). */
    setPolicy(text) {
      const next = text.trim() ? { path: cfg.holaryn.policyFile ?? IN_MEMORY_POLICY, text } : null;
      try {
        runtime.createSession({ ...base, projectPolicy: next ?? undefined, dynamicDiscovery: true }).close();
      } catch (e) {
        const { message, code, file, pointer, line, column } = e;
        return { ok: false, error: { message, code, file, pointer, line, column } };
      }
      policy = next;
      for (const u of upstreams) u.session.setProjectPolicy(policy);
      if (cfg.holaryn.policyFile) savePolicyFile(cfg.holaryn.policyFile, text);
      return { ok: true };
    },
    /** How many upstream sessions are open (one per connected client). */
    upstreamCount: () => upstreams.size,
    /** A new upstream MCP server (one session) for one client connection. */
    upstream() {
      const u = createUpstream({
        runtime,
        sessionOptions: sessionOptions(),
        execute: (req, call) => relay.execute(req, call),
        approvalFallback: cfg.holaryn.approvalFallback,
        operator: gateway.desk,
        version: VERSION,
        log,
        afterCall: () => state.save(),
      });
      const unbind = relay.bind(u);
      upstreams.add(u);
      const close = u.close;
      u.close = async () => {
        upstreams.delete(u);
        await unbind();
        await close();
      };
      return u;
    },
    /** Stop serving and shut every downstream server down. */
    async close() {
      await Promise.all([...upstreams].map((u) => u.close()));
      if (resave) clock.clearInterval(resave);
      state.save();
      kept = saveSnapshot(runtime, stateDir, key, kept, log);
      await downstream.close();
    },
  };
  if (ui) gateway.desk = operatorDesk(gateway);
  return gateway;
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
