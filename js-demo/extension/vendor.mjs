// Vendor step of the demo extension: copies the npm package's browser entry
// and the web wasm build into js-demo/extension/vendor/holaryn/, keeping the
// package layout (vendor/holaryn/js/browser.mjs imports
// ../dist/web/holaryn_wasm.js). Extensions may not load remote code, so the
// runtime ships inside the extension. Usage: `node js-demo/extension/vendor.mjs`
// (after `npm run build`). Also importable: `import { vendor } from ...`.
import { copyFileSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "../..");

/** Files copied, relative to the package root (same relative path under vendor/holaryn/). */
export const FILES = [
  "js/browser.mjs",
  "js/core.mjs",
  "js/wire.mjs",
  "js/wire-fields.mjs",
  "dist/web/holaryn_build.js",
  "dist/web/holaryn_wasm.js",
  "dist/web/holaryn_wasm_bg.wasm",
  "dist/web/holaryn_code.js",
  "dist/web/holaryn_code_bg.wasm",
];
/** Type declarations, copied when present (editor support for sw.js's JSDoc). */
export const TYPE_FILES = ["js/index.d.ts", "dist/web/holaryn_wasm.d.ts", "dist/web/holaryn_wasm.api.d.ts"];

/** Raised when the wasm build (or a package file) is missing. */
export class VendorError extends Error {
  constructor(message) {
    super(message);
    this.name = "VendorError";
    this.code = "vendor.missing_build";
  }
}

/** Copy FILES into `<extension>/vendor/holaryn/`; returns the absolute destination paths. */
export function vendor({ from = root, to = join(here, "vendor/holaryn") } = {}) {
  const missing = FILES.filter((f) => !existsSync(join(from, f)));
  if (missing.length > 0) {
    throw new VendorError(
      `missing ${missing.join(", ")} under ${from}: build the package first (\`npm run build\`, ` +
        "which writes dist/web/), then run `node js-demo/extension/vendor.mjs` again",
    );
  }
  rmSync(to, { recursive: true, force: true });
  const present = TYPE_FILES.filter((f) => existsSync(join(from, f)));
  return [...FILES, ...present].map((f) => {
    const dest = join(to, f);
    mkdirSync(dirname(dest), { recursive: true });
    copyFileSync(join(from, f), dest);
    return dest;
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    for (const dest of vendor()) console.log(`vendored ${relative(process.cwd(), dest)}`);
  } catch (e) {
    console.error(`vendor.mjs: ${e.message}`);
    process.exit(1);
  }
}
