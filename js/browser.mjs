// Browser entry (ES modules, extensions, workers): call `await init()` once
// before using the classes (MV3 service workers forbid top-level await).
import { BUILD } from "../dist/web/holaryn_build.js";
import wasmInit, * as bindings from "../dist/web/holaryn_wasm.js";
import codeInit, * as code from "../dist/web/holaryn_code.js";
import { expose } from "./core.mjs";

let codeInput;
// The bounded-code compiler is a second wasm, fetched only when a session
// with bounded code mode first calls (or on `initCode()`).
const api = expose(bindings, () =>
  codeInit(codeInput === undefined ? undefined : { module_or_path: codeInput }).then(() => code.compile),
);
let ready;

export const { HolarynRuntime, HolarynSession } = api;
export * from "./core.mjs";

/** Load the wasm (default: dist/web/holaryn_wasm_bg.wasm next to this build). */
export function init(input) {
  ready ??= wasmInit(input === undefined ? undefined : { module_or_path: input }).then(
    () => bindings.setBuild(BUILD),
    (e) => {
      ready = undefined; // a failed load may be retried
      throw e;
    },
  );
  return ready.then(() => undefined);
}

/**
 * Load the bounded-code compiler now (default: dist/web/holaryn_code_bg.wasm
 * next to this build). Optional: a session with bounded code mode loads it
 * before its first call; pass `input` where the default URL does not resolve.
 */
export function initCode(input) {
  if (input !== undefined) codeInput = input;
  return api.loadCode();
}
