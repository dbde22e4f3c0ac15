// Node entry: the CommonJS wasm build, loaded synchronously.
import { createRequire } from "node:module";
import { expose } from "./core.mjs";

const require = createRequire(import.meta.url);
const api = expose(require("../dist/node/holaryn_wasm.js"));

export const { HolarynRuntime, HolarynSession } = api;
export * from "./core.mjs";
/** Node needs no initialisation; kept for symmetry with the browser entry. */
export async function init() {}
