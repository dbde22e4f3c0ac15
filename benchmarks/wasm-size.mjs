// Size of the shipped wasm, raw and gzipped (level 9). Budget: 900 KiB gzipped.
// Run after `npm run build`: npm run bench:size   (measures; never fails on size)
import { readFileSync, mkdirSync, writeFileSync, existsSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const BUDGET = 900 * 1024;
const rows = [];
for (const build of ["web", "node"]) {
  const file = join(root, "dist", build, "holaryn_wasm_bg.wasm");
  if (!existsSync(file)) {
    console.error(`missing ${file}: run npm run build first`);
    process.exit(2);
  }
  const bytes = readFileSync(file);
  const gz = gzipSync(bytes, { level: 9 }).length;
  rows.push({ build, raw: bytes.length, gzip: gz, budget: BUDGET, overBudget: gz > BUDGET });
  console.log(`${build.padEnd(4)} raw ${(bytes.length / 1024).toFixed(1)} KiB, gzip ${(gz / 1024).toFixed(1)} KiB${gz > BUDGET ? "  OVER BUDGET (900 KiB)" : ""}`);
}
mkdirSync(join(root, "benchmarks/results"), { recursive: true });
writeFileSync(join(root, "benchmarks/results/wasm-size.json"), JSON.stringify(rows, null, 2) + "\n");
