// The .d.ts of each entry declares exactly the runtime exports listed in exports.mjs.
import type * as holaryn from "holaryn";
import type * as ai from "holaryn/ai";
import type * as mcp from "holaryn/mcp";
import type * as esbuild from "holaryn/esbuild";
import type * as otel from "holaryn/otel";
import type { HOLARYN, HOLARYN_AI, HOLARYN_ESBUILD, HOLARYN_MCP, HOLARYN_OTEL } from "./exports.mjs";

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const holarynExports: Same<keyof typeof holaryn, (typeof HOLARYN)[number]> = true;
export const mcpExports: Same<keyof typeof mcp, (typeof HOLARYN_MCP)[number]> = true;
export const aiExports: Same<keyof typeof ai, (typeof HOLARYN_AI)[number]> = true;
export const otelExports: Same<keyof typeof otel, (typeof HOLARYN_OTEL)[number]> = true;
export const esbuildExports: Same<keyof typeof esbuild, (typeof HOLARYN_ESBUILD)[number]> = true;
