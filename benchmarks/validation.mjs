// The milliseconds one call's argument check takes through the built
// package (wasm), per class of costly schema + arguments (issue 30): fan-out
// through `$ref`s, `uniqueItems`, runaway patterns, a large `const`, and a
// real tool's arguments as the control. Each row: the median of 3 calls and
// the call's code (`ok`, `args.invalid`, `args.budget_exceeded` when the
// step budget refused it, or `args.too_large` when the arguments' text is over
// the session's `maxArgumentBytes`, 1 MiB by default: measured, not parsed).
// Rows marked "cap raised" run in a session with an 8 MiB cap, so the 3.5 MB
// `const` is checked, beside the same 3.5 MB arguments against `{}`: what
// moving the arguments into the wasm and to the host costs with no check. `--native` also runs the same classes natively
// (`cargo run --release -p holaryn-jsonschema --example validation_timing`).
// Run: npm run bench:validation   (a benchmark: it measures, it never fails)
import { execFileSync } from "node:child_process";
import { HolarynRuntime } from "holaryn";
import { refChain } from "../tests/fixtures/costly-schemas.mjs";

/** A `$ref` chain (`refChain`) as one schema: its `$defs` and a `$ref` to the first level. */
const chain = (kw, depth) => ({ $defs: refChain(kw, depth), $ref: "#/$defs/d0" });

const key = `${"a".repeat(30)}b`;
const evil = "^(a+)+$";
const big = Array.from({ length: 100_000 }, (_, i) => ({ n: i, s: "x".repeat(16) }));
const CLASSES = [
  ["allOf of two $refs, 22 levels (valid)", chain("allOf", 22), 1],
  ["allOf of two $refs, 22 levels (invalid)", chain("allOf", 22), "x"],
  ["anyOf of two $refs, 22 levels", chain("anyOf", 22), "x"],
  ["oneOf of two $refs, 22 levels", chain("oneOf", 22), 1],
  ["uniqueItems, 10k objects", { uniqueItems: true }, Array.from({ length: 10_000 }, (_, i) => ({ id: i, k: "v" }))],
  ["uniqueItems, 100k strings", { uniqueItems: true }, Array.from({ length: 100_000 }, (_, i) => `s${i}`)],
  [
    "patternProperties (a+)+$, 1,000 keys",
    { type: "object", patternProperties: { [evil]: { type: "integer" } } },
    Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`${key}${i}`, 1])),
  ],
  ["contains + pattern (a+)+$, 1,000 items", { contains: { pattern: evil } }, Array.from({ length: 1000 }, () => key)],
  ["const of 3.5 MB, equal instance", { const: big }, big],
  ["const of 3.5 MB, equal (cap raised)", { const: big }, big, { maxArgumentBytes: 8 << 20 }],
  ["{}, the same 3.5 MB (cap raised)", {}, big, { maxArgumentBytes: 8 << 20 }],
  [
    "a real tool's arguments (control)",
    { type: "object", properties: { path: { type: "string", pattern: "^[^\\u0000]+$" } } },
    { path: "/tmp/x" },
  ],
];

const rt = new HolarynRuntime();
// The class's schema as property `v` (its `$defs` stay at the root, where its `$ref`s point).
const tools = CLASSES.map(([, { $defs, ...schema }], i) => ({
  name: `t${i}`,
  description: "bench",
  source: "native",
  provider: { id: "bench", kind: "native" },
  inputSchema: { type: "object", ...($defs ? { $defs } : {}), properties: { v: schema } },
}));
rt.registerTools(tools);
const execute = () => "ok";
console.log(`${"class".padEnd(44)} ${"ms".padStart(9)}  code`);
for (const [i, [name, , value, options = {}]] of CLASSES.entries()) {
  const s = rt.createSession(options);
  await s.call(`t${i}`, { v: value }, { execute }); // compiles the validator once
  const times = [];
  let code = "";
  for (let run = 0; run < 3; run++) {
    const t0 = performance.now();
    const o = await s.call(`t${i}`, { v: value }, { execute });
    times.push(performance.now() - t0);
    code = o.code;
  }
  times.sort((a, b) => a - b);
  console.log(`${name.padEnd(44)} ${times[1].toFixed(1).padStart(9)}  ${code}`);
}
if (process.argv.includes("--native")) {
  console.log("\nnatively (release build):");
  execFileSync("cargo", ["run", "--release", "-q", "-p", "holaryn-jsonschema", "--example", "validation_timing"], {
    stdio: "inherit",
  });
}
