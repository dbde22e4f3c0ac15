// Node entry: the one web build (dist/web, ES modules) instantiated
// synchronously from its files, so the package ships each .wasm once.
// The bounded-code compiler (holaryn_code) loads, synchronously too, when
// the first session with bounded code mode is created.
import { readFileSync } from "node:fs";
import { BUILD } from "../dist/web/holaryn_build.js";
import * as bindings from "../dist/web/holaryn_wasm.js";
import * as code from "../dist/web/holaryn_code.js";
import { expose } from "./core.mjs";

const file = (name) => readFileSync(new URL(`../dist/web/${name}`, import.meta.url));
bindings.initSync({ module: file("holaryn_wasm_bg.wasm") });
bindings.setBuild(BUILD);

const api = expose(bindings, () => {
  code.initSync({ module: file("holaryn_code_bg.wasm") });
  return code.compile;
});

export const { HolarynRuntime, HolarynSession } = api;
export * from "./core.mjs";
/** Node needs no initialisation; kept for symmetry with the browser entry. */
export async function init() {}
/** Load the bounded-code compiler now (sessions with bounded code mode do so themselves). */
export function initCode() {
  api.loadCode();
}
