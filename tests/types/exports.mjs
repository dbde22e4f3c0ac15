// Every runtime export of each package entry, once: tests/node/exports.test.mjs
// checks the built modules export exactly these, tests/types/exports.ts that
// the .d.ts declares exactly these.
export const HOLARYN = /** @type {const} */ ([
  "HolarynRuntime",
  "HolarynSession",
  "HolarynError",
  "DescriptorError",
  "CatalogError",
  "ToolError",
  "HandleError",
  "SessionError",
  "PolicyError",
  "InputError",
  "ConfigError",
  "CodeError",
  "SnapshotError",
  "typed",
  "expose",
  "init",
  "initCode",
]);
export const HOLARYN_MCP = /** @type {const} */ (["listAllTools", "connectMcpProvider", "mcpExecute"]);
export const HOLARYN_AI = /** @type {const} */ (["holarynTools", "HolarynToolError"]);
export const HOLARYN_OTEL = /** @type {const} */ (["instrumentActivity", "spanAttributes", "spanName"]);
export const HOLARYN_ESBUILD = /** @type {const} */ (["holarynWasm"]);
