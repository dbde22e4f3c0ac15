// The .d.ts of each entry declares exactly the runtime exports listed in exports.mjs.
import type * as holaryn from "holaryn";
import type * as mcp from "holaryn/mcp";
import type { HOLARYN, HOLARYN_MCP } from "./exports.mjs";

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const holarynExports: Same<keyof typeof holaryn, (typeof HOLARYN)[number]> = true;
export const mcpExports: Same<keyof typeof mcp, (typeof HOLARYN_MCP)[number]> = true;
