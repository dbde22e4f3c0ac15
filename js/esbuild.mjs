// holaryn/esbuild: an esbuild plugin that makes the browser build's default
// `init()` work in a bundle. The wasm-bindgen loader finds its wasm at
// `new URL("holaryn_wasm_bg.wasm", import.meta.url)`; esbuild leaves that URL
// alone and copies nothing, so the page gets a 404. The plugin copies the two
// wasm files (the runtime, and the bounded-code compiler fetched on demand)
// next to the bundle when the bundle includes holaryn's browser build.
// One line: `plugins: [holarynWasm()]`.

import { copyFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const WEB = fileURLToPath(new URL("../dist/web/", import.meta.url));
const FILES = ["holaryn_wasm_bg.wasm", "holaryn_code_bg.wasm"];

/** The esbuild plugin: after each successful build that bundled holaryn, copy its wasm next to the output. */
export function holarynWasm() {
  return {
    name: "holaryn-wasm",
    setup(build) {
      let bundled = false;
      // Observes the load of holaryn's wasm-bindgen loaders; returning nothing leaves the loading to esbuild.
      build.onLoad({ filter: /[\\/]dist[\\/]web[\\/]holaryn_(wasm|code)\.js$/ }, () => {
        bundled = true;
        return undefined;
      });
      build.onEnd((result) => {
        const { outdir, outfile, write, absWorkingDir } = build.initialOptions;
        const dir = outdir ?? (outfile ? path.dirname(outfile) : undefined);
        if (result.errors.length || !bundled || !dir || write === false) return;
        const target = path.resolve(absWorkingDir ?? process.cwd(), dir);
        mkdirSync(target, { recursive: true });
        for (const f of FILES) copyFileSync(path.join(WEB, f), path.join(target, f));
      });
    },
  };
}
