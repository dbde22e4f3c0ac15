// What users download and install, and the budgets it must stay within: one
// definition for `npm run bench:size` (which prints and breaks it down) and
// tests/node/size-budget.test.mjs (which asserts the budgets).
// Needs a built package (`npm run build`).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..");
export const KiB = 1024;
/** Default download ≤ 600 KiB gz, with code mode ≤ 900 KiB gz, tarball ≤ 1,000,000 B packed. */
export const BUDGET = { default: 600 * KiB, withCode: 900 * KiB, packed: 1_000_000 };

// The browser entry statically imports both glue files; the code wasm is fetched on demand.
export const DEFAULT_FILES = [
  "dist/web/holaryn_wasm_bg.wasm",
  "dist/web/holaryn_wasm.js",
  "dist/web/holaryn_code.js",
  "js/browser.mjs",
  "js/core.mjs",
  "js/wire.mjs",
  "js/wire-fields.mjs",
];
export const CODE_FILES = ["dist/web/holaryn_code_bg.wasm"];
// The gateway's config check: its own module, loaded only by the Node gateway (never downloaded by a browser).
export const GATEWAY_FILES = ["dist/web/holaryn_gateway_bg.wasm", "dist/web/holaryn_gateway.js"];

/** One built file's bytes; throws when it is not built. */
function bytesOf(rel) {
  const file = join(root, rel);
  if (!existsSync(file)) throw new Error(`missing ${rel}: run npm run build first`);
  return readFileSync(file);
}

/** gzip -9 size of one built file (what the budgets count). */
export const gzipSize = (rel) => gzipSync(bytesOf(rel), { level: 9 }).length;

/** raw, gzip -9 and brotli (quality 11) sizes of one built file. */
export function sizes(rel) {
  const bytes = bytesOf(rel);
  const br = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  return { file: rel, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, brotli: br };
}

/** The sum of several files' sizes. */
export const sum = (rows) =>
  rows.reduce((t, r) => ({ raw: t.raw + r.raw, gzip: t.gzip + r.gzip, brotli: t.brotli + r.brotli }), {
    raw: 0,
    gzip: 0,
    brotli: 0,
  });

/** What `npm pack` would write: packed and unpacked bytes, entry count, the wasm files. */
export function tarball() {
  const [packed] = JSON.parse(
    execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: root, encoding: "utf8" }),
  );
  const wasm = packed.files.filter((f) => f.path.endsWith(".wasm"));
  return { packed: packed.size, unpacked: packed.unpackedSize, files: packed.entryCount, wasm };
}
