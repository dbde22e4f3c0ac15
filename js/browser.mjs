// Browser entry (ES modules, extensions, workers): call `await init()` once
// before using the classes (MV3 service workers forbid top-level await).
import wasmInit, * as bindings from "../dist/web/holaryn_wasm.js";
import { expose } from "./core.mjs";

const api = expose(bindings);
let ready;

export const { HolarynRuntime, HolarynSession } = api;
export * from "./core.mjs";

/** Load the wasm (default: dist/web/holaryn_wasm_bg.wasm next to this build). */
export function init(input) {
  ready ??= wasmInit(input === undefined ? undefined : { module_or_path: input }).catch((e) => {
    ready = undefined; // a failed load may be retried
    throw e;
  });
  return ready.then(() => undefined);
}
