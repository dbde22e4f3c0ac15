// What users download and install, raw / gzip -9 / brotli (max quality):
// - the default browser download (runtime wasm + its JS: discovery, policy, gate, validation),
// - the bounded-code add-on (the compiler module, fetched only for code mode),
// - the total with code mode, and the npm tarball (packed / unpacked, one copy per file);
// then the largest crates of each module (code bytes from cargo's named output,
// before wasm-bindgen and wasm-opt: read them as shares; with the generic std
// code instantiated for each crate's types) and its 20 largest functions.
// Budgets: default ≤ 600 KiB gz, with code mode ≤ 900 KiB gz, tarball ≤ 1 MB packed.
// Run after `npm run build`:  npm run bench:size   (`--top N` crates per module, default 12)
// Measures only: prints OVER BUDGET but always exits 0 (tests assert, benchmarks measure).
// Writes benchmarks/results/wasm-size.json.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  BUDGET,
  CODE_FILES,
  DEFAULT_FILES,
  GATEWAY_FILES,
  KiB,
  root,
  sizes as measure,
  sum,
  tarball as pack,
} from "./sizes.mjs";
import { codeByCrate, functionsByOrigin } from "./wasm-crates.mjs";

const topArg = process.argv.indexOf("--top");
const TOP = topArg > 0 ? Number(process.argv[topArg + 1]) : 12;
const TOP_FUNCTIONS = 20;
const kib = (n) => `${(n / KiB).toFixed(1)} KiB`;

/** A file's sizes, or exit 2 with what to do when it is not built. */
function sizes(rel) {
  try {
    return measure(rel);
  } catch (e) {
    console.error(e.message);
    process.exit(2);
  }
}
const line = (label, s, budget) =>
  console.log(
    `${label.padEnd(44)} raw ${kib(s.raw).padStart(11)}  gz ${kib(s.gzip).padStart(10)}  br ${kib(s.brotli).padStart(10)}` +
      (budget && s.gzip > budget ? `  OVER BUDGET (${kib(budget)} gz)` : budget ? `  within ${kib(budget)} gz` : ""),
  );

const defaultFiles = DEFAULT_FILES.map(sizes);
const codeFiles = CODE_FILES.map(sizes);
const gatewayFiles = GATEWAY_FILES.map(sizes);
console.log("files");
for (const r of [...defaultFiles, ...codeFiles, ...gatewayFiles]) line(`  ${r.file}`, r);
const parts = {
  default: sum(defaultFiles),
  codeAddOn: sum(codeFiles),
  withCode: sum([...defaultFiles, ...codeFiles]),
};
console.log("downloads");
line("  default (no bounded code mode)", parts.default, BUDGET.default);
line("  bounded-code add-on (fetched on demand)", parts.codeAddOn);
line("  total with bounded code mode", parts.withCode, BUDGET.withCode);
line("  gateway config module (Node gateway only)", sum(gatewayFiles));

const tarball = pack();
const wasmFiles = tarball.wasm;
console.log(
  `tarball (npm pack)  packed ${kib(tarball.packed)}  unpacked ${kib(tarball.unpacked)}  ${tarball.files} files, ` +
    `wasm: ${wasmFiles.map((f) => `${f.path} (${kib(f.size)})`).join(", ")}` +
    (tarball.packed > BUDGET.packed ? `  OVER BUDGET (${BUDGET.packed} bytes packed)` : "  within 1 MB packed"),
);

const crates = {};
const functions = {};
for (const [module, name] of [
  ["runtime (holaryn_wasm)", "holaryn_wasm"],
  ["bounded-code compiler (holaryn_code)", "holaryn_code_wasm"],
]) {
  const file = join(root, "target/wasm32-unknown-unknown/release", `${name}.wasm`);
  const bytes = existsSync(file) ? readFileSync(file) : null;
  const rows = bytes ? codeByCrate(bytes) : null;
  if (!rows) {
    console.log(`crates of ${module}: no named cargo output at ${file}`);
    continue;
  }
  // Generic std/hashbrown/serde code instantiated for a crate's types, counted for that crate too.
  const funcs = functionsByOrigin(bytes);
  const byOrigin = new Map();
  for (const f of funcs) byOrigin.set(f.origin, (byOrigin.get(f.origin) ?? 0) + f.bytes);
  const total = rows.reduce((n, r) => n + r.bytes, 0);
  crates[module] = rows.slice(0, TOP).map((r) => ({ ...r, withGenerics: byOrigin.get(r.crate) ?? r.bytes }));
  console.log(`largest crates of ${module} (cargo output, code bytes; ${kib(total)} in all)`);
  console.log(`  ${"".padEnd(50)}incl. generic code for its types`);
  for (const r of crates[module]) {
    console.log(
      `  ${r.crate.padEnd(28)} ${kib(r.bytes).padStart(11)}  ${((100 * r.bytes) / total).toFixed(1).padStart(5)} %` +
        `  ${kib(r.withGenerics).padStart(11)}`,
    );
  }
  functions[module] = funcs.slice(0, TOP_FUNCTIONS).map(({ name, origin, bytes }) => ({ name, origin, bytes }));
  console.log(`largest functions of ${module} (code bytes, crate its code is for)`);
  for (const f of functions[module]) {
    console.log(
      `  ${String(f.bytes).padStart(7)}  ${f.origin.padEnd(16)} ${f.name.length > 110 ? `${f.name.slice(0, 109)}…` : f.name}`,
    );
  }
}

mkdirSync(join(root, "benchmarks/results"), { recursive: true });
const out = {
  measuredAt: new Date().toISOString(),
  budgets: BUDGET,
  files: [...defaultFiles, ...codeFiles],
  parts,
  tarball,
  crates,
  functions,
};
writeFileSync(join(root, "benchmarks/results/wasm-size.json"), `${JSON.stringify(out, null, 2)}\n`);
console.log("wrote benchmarks/results/wasm-size.json");
