// The gateway's config file: the `{"mcpServers": {...}}` shape MCP clients
// already use, plus holaryn's own settings under a "holaryn" key. The core
// checks it (`parseGatewayConfig`, core/src/gateway_config.rs): every problem
// is reported with the file, a JSON pointer, the line:column (UTF-16,
// 1-based) of the value it names, and what is wrong; nothing starts until the
// whole file is valid. Here: reading the file and resolving its paths
// against the file's directory.

import { readFile } from "node:fs/promises";
import path from "node:path";
import { ConfigError } from "../core.mjs";
import { HolarynRuntime } from "../node.mjs";

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

/** Check config text; `file` names it in errors and anchors relative paths. */
export function parseGatewayConfig(text, file = "<config>") {
  let config;
  try {
    config = HolarynRuntime.parseGatewayConfig(file, text);
  } catch (e) {
    if (e?.code !== "config.invalid") throw e;
    const position = e.line === undefined ? undefined : { line: e.line, column: e.column };
    throw new GatewayConfigError(e.file ?? file, e.pointer ?? "", e.detail ?? e.message, position);
  }
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
