// The gateway's config file: the `{"mcpServers": {...}}` shape MCP clients
// already use, plus holaryn's own settings under a "holaryn" key. The core
// checks it (core/src/gateway_config.rs, through its own wasm module
// dist/web/holaryn_gateway, gateway-wasm/, loaded on first use so the
// browser download carries none of it): every problem
// is reported with the file, a JSON pointer, the line:column (UTF-16,
// 1-based) of the value it names, and what is wrong; nothing starts until the
// whole file is valid. Here: reading the file and resolving its paths
// against the file's directory.

import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import * as gateway from "../../dist/web/holaryn_gateway.js";
import { ConfigError, HolarynError } from "../core.mjs";

let loaded = false;
/** The core's check: `{config}` or `{error}` (a typed core error). */
function check(file, text) {
  if (!loaded) {
    gateway.initSync({ module: readFileSync(new URL("../../dist/web/holaryn_gateway_bg.wasm", import.meta.url)) });
    loaded = true;
  }
  return JSON.parse(gateway.parseGatewayConfig(file, text));
}

/** One problem in a config file. */
export class GatewayConfigError extends ConfigError {
  constructor(file, pointer, message, position) {
    const at = position ? `:${position.line}:${position.column}` : "";
    super(`${file}${at}: ${pointer || "(root)"}: ${message}`, "config.invalid");
    this.file = file;
    this.pointer = pointer;
    this.line = position?.line;
    this.column = position?.column;
    this.detail = message;
  }
}

/** Read and check a config file; throws `GatewayConfigError` naming the first problem. */
export async function loadGatewayConfig(file) {
  let text;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    throw new GatewayConfigError(file, "", `cannot read the file (${e.code ?? e.message})`);
  }
  return parseGatewayConfig(text, file);
}

/** The core's check of config text: the config with paths as written; throws `GatewayConfigError`. */
export function checkGatewayConfig(text, file = "<config>") {
  const { config, error: e } = check(file, text);
  if (!e) return config;
  if (e.code !== "config.invalid") throw new HolarynError(e.message, e.code);
  const position = e.line === undefined ? undefined : { line: e.line, column: e.column };
  throw new GatewayConfigError(e.file ?? file, e.pointer ?? "", e.message, position);
}

/** Check config text; `file` names it in errors and anchors relative paths. */
export function parseGatewayConfig(text, file = "<config>") {
  const config = checkGatewayConfig(text, file);
  const base = path.dirname(path.resolve(file));
  const resolve = (p) => (p === undefined ? undefined : path.resolve(base, p));
  const { holaryn } = config;
  return {
    file,
    servers: config.servers.map((s) => (s.kind === "stdio" ? { ...s, cwd: resolve(s.cwd) } : s)),
    holaryn: { ...holaryn, policyFile: resolve(holaryn.policyFile), activityFile: resolve(holaryn.activityFile) },
    positions: config.positions,
  };
}
