// holaryn/esbuild's plugin is an esbuild `Plugin` as esbuild's own types say (no cast).
import type { Plugin } from "esbuild";
import { holarynWasm } from "holaryn/esbuild";

export const plugin: Plugin = holarynWasm();
