// Size of the shipped wasm, raw and gzipped (level 9). Budget: 900 KiB gzipped.
// Run after `npm run build`:  npm run bench:size
// Measures only: prints OVER BUDGET but always exits 0 (tests assert, benchmarks measure).
// Writes benchmarks/results/wasm-size.json.
import { readFileSync, mkdirSync, writeFileSync, existsSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const BUDGET = 900 * 1024;
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;

const files = [
  ["web", "dist/web/holaryn_wasm_bg.wasm", true],
  ["node", "dist/node/holaryn_wasm_bg.wasm", true],
  // For comparison: rustc's output before wasm-bindgen and wasm-opt (not shipped).
  ["cargo (unshipped)", "target/wasm32-unknown-unknown/release/holaryn_wasm.wasm", false],
];
const rows = [];
for (const [build, rel, shipped] of files) {
  const file = join(root, rel);
  if (!existsSync(file)) {
    if (shipped) {
      console.error(`missing ${rel}: run npm run build first`);
      process.exit(2);
    }
    continue;
  }
  const bytes = readFileSync(file);
  const gzip = gzipSync(bytes, { level: 9 }).length;
  const overBudget = shipped && gzip > BUDGET;
  rows.push({ build, file: rel, shipped, raw: bytes.length, gzip, budget: BUDGET, overBudget });
  console.log(
    `${build.padEnd(18)} raw ${kib(bytes.length).padStart(11)}  gzip -9 ${kib(gzip).padStart(11)}` +
      (overBudget ? `  OVER BUDGET (${kib(BUDGET)} gzipped)` : ""),
  );
}
mkdirSync(join(root, "benchmarks/results"), { recursive: true });
const out = { measuredAt: new Date().toISOString(), budgetGzipBytes: BUDGET, rows };
writeFileSync(join(root, "benchmarks/results/wasm-size.json"), `${JSON.stringify(out, null, 2)}\n`);
console.log("wrote benchmarks/results/wasm-size.json");
