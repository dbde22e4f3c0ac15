#!/usr/bin/env bash
# `npm run build`: the npm package's wasm, three modules in dist/web: holaryn_wasm
# (the runtime: discovery, policy, gate, validation), holaryn_code (the
# bounded-code compiler, loaded only for sessions with bounded code mode) and
# holaryn_gateway (the gateway's config check, loaded only by the Node gateway).
# Release builds, wasm-bindgen --target web (ES modules; Node uses the same
# files), wasm-opt from npm's binaryen (-O3 with wider inlining for the runtime,
# -Oz for the other two), then a load check of both entries and the gateway module.
# Needs what `scripts/setup.sh` installs (wasm target, the pinned nightly with
# rust-src, .tools/bin/wasm-bindgen, node_modules/.bin/wasm-opt).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$HOLARYN_ROOT"

# rustc's wasm32-unknown-unknown output (Rust >= 1.87 defaults, plus SIMD that
# dependencies use through #[target_feature]); wasm-opt must be told, since
# `strip = true` removes the target_features section. Keep in sync with the
# Rust toolchain: wasm-opt fails validation when a feature is missing here.
WASM_FEATURES=(--enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext
  --enable-mutable-globals --enable-reference-types --enable-multivalue --enable-simd)

wasm_opt="$(command -v wasm-opt || true)"
if [ "$wasm_opt" != "$HOLARYN_ROOT/node_modules/.bin/wasm-opt" ]; then
  echo "build: wasm-opt must be npm's binaryen (node_modules/.bin), got '${wasm_opt:-none}': run scripts/setup.sh" >&2
  exit 1
fi

# Three modules, each its own cargo invocation so holaryn-code's `parser` feature
# is not unified into the default one: holaryn_wasm (no parser: the default
# download), holaryn_code (code-wasm/: holaryn-code with its compiler, loaded
# on demand) and holaryn_gateway (gateway-wasm/: the config check, Node only).
target_dir="$(cargo metadata --format-version 1 --no-deps |
  node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.parse(s).target_directory))')"
# std rebuilt for the wasm with panics as immediate aborts (`-Cpanic=immediate-abort`,
# no panic locations): no panic messages, hooks or the formatting behind them,
# ~9 % of the default download gz. A panic still traps (`unreachable`), which
# js/core.mjs turns into the typed `runtime.failed`, as before. Needs the pinned
# nightly with rust-src (scripts/setup.sh); without it, stable's prebuilt std.
cargo_wasm=(cargo build)
if rustup component list --toolchain "$WASM_NIGHTLY" --installed 2>/dev/null | grep -q '^rust-src'; then
  cargo_wasm=(cargo "+$WASM_NIGHTLY" build -Zbuild-std=std,panic_abort
    --config "target.wasm32-unknown-unknown.rustflags = ['-Zunstable-options', '-Cpanic=immediate-abort', '-Zlocation-detail=none']")
else
  echo "build: WARNING: $WASM_NIGHTLY with rust-src is not installed (scripts/setup.sh): stable std, a bigger wasm" >&2
fi
# One copy of each file: the web build (ES module) serves browsers and Node
# (js/node.mjs instantiates the same .wasm synchronously with initSync).
rm -rf dist/node dist/web
# wasm-opt per module. The runtime's tool_search runs on every model turn: -O3
# inlining functions of up to 16 (always) / 60 (when it pays) instructions folds
# the many small opt-level "z" helpers of the search path into their callers,
# which V8 runs faster (side by side with -Oz: ~0.92x the time per search both
# warm and in bench:search's first rounds) for ~38 KiB gz more. The code and
# gateway modules are loaded on demand and not on a hot path: smallest (-Oz).
opt_flags() {
  case "$1" in
    holaryn_wasm) echo "-O3 -aimfs 16 -fimfs 60" ;;
    *) echo "-Oz" ;;
  esac
}
for pair in holaryn-wasm:holaryn_wasm holaryn-code-wasm:holaryn_code holaryn-gateway-wasm:holaryn_gateway; do
  crate="${pair%%:*}" name="${pair##*:}"
  step "build: ${cargo_wasm[*]:0:3} -p $crate --release (wasm32)"
  "${cargo_wasm[@]}" -p "$crate" --release --target wasm32-unknown-unknown
  # Where cargo put it: honours CARGO_TARGET_DIR (a stale target/ copy must never be shipped).
  wasm="$target_dir/wasm32-unknown-unknown/release/${crate//-/_}.wasm"
  step "build: wasm-bindgen --target web $wasm -> dist/web/$name"
  wasm-bindgen "$wasm" --target web --out-dir dist/web --out-name "$name" \
    --remove-name-section --remove-producers-section
  bg="dist/web/${name}_bg.wasm"
  read -r -a opt <<<"$(opt_flags "$name")"
  step "build: wasm-opt ${opt[*]} $bg ($(wasm-opt --version))"
  wasm-opt "${opt[@]}" --strip-debug --strip-producers "${WASM_FEATURES[@]}" "$bg" -o "$bg"
done

# wasm-bindgen copies every `///` doc of the exports into its JS glue as JSDoc.
# Nothing reads them there (the package's types are js/index.d.ts over
# holaryn_wasm.api.d.ts), and they were ~3.3 KiB gz of the default download:
# the /** */ blocks are cut (the glue has no "/**" inside a string; esbuild
# parses the result, and the exports must be the same as before).
step "build: JSDoc out of the JS glue (code as written)"
node --input-type=module -e '
  import { readFileSync, writeFileSync } from "node:fs";
  import { transformSync } from "esbuild";
  const exported = (code) => transformSync(code, { format: "cjs" }).code.match(/^  \w+: \(\) => \w+/gm)?.join() ?? "";
  for (const name of ["holaryn_wasm", "holaryn_code", "holaryn_gateway"]) {
    const file = `dist/web/${name}.js`;
    const before = readFileSync(file, "utf8");
    const after = before.replace(/\n[ \t]*\/\*\*(?:(?!\*\/)[\s\S])*\*\/[ \t]*(?=\n)/g, "");
    if (after.includes("/**") || exported(after) !== exported(before) || exported(after) === "")
      throw new Error(`${file}: JSDoc cut left a comment or changed the exports`);
    writeFileSync(file, after);
  }
'

# The build id snapshots are stamped with and checked against (rt.snapshot(),
# HolarynRuntime.restore): the package version and a digest of the shipped
# runtime wasm, taken here once so a restore costs no hashing. The entries
# hand it to the wasm (setBuild) when they load it.
step "build: dist/web/holaryn_build.js (snapshot build id)"
node --input-type=module -e '
  import { createHash } from "node:crypto";
  import { readFileSync, writeFileSync } from "node:fs";
  const { version } = JSON.parse(readFileSync("package.json", "utf8"));
  const digest = createHash("sha256").update(readFileSync("dist/web/holaryn_wasm_bg.wasm")).digest("hex");
  const build = `${version}+sha256:${digest.slice(0, 32)}`;
  writeFileSync("dist/web/holaryn_build.js", `// Written by scripts/build.sh: the id snapshots of this build carry.\nexport const BUILD = ${JSON.stringify(build)};\n`);
'

# The package's types (js/index.d.ts) take wasm-bindgen's classes and data types
# without the web loader (initSync, init) or the internal code-module hooks,
# which the entries do not export: dist/web/holaryn_wasm.api.d.ts.
step "build: dist/web/holaryn_wasm.api.d.ts (public types of the runtime module)"
node --input-type=module -e '
  import { readFileSync, writeFileSync } from "node:fs";
  let t = readFileSync("dist/web/holaryn_wasm.d.ts", "utf8");
  const cut = t.indexOf("\nexport type InitInput");
  if (cut < 0) throw new Error("wasm-bindgen d.ts: no loader section (export type InitInput)");
  t = t.slice(0, cut + 1).replace(/\/\*\*(?:(?!\*\/)[\s\S])*\*\/\nexport function (?:hasCodeCompiler|setCodeCompiler|setBuild)\([^;]*;\n/g, "");
  if (/CodeCompiler|setBuild|initSync/.test(t)) throw new Error("wasm-bindgen d.ts: loader or code hooks left in the public types");
  writeFileSync("dist/web/holaryn_wasm.api.d.ts", t);
'

step "build: load check of both entries (js/node.mjs, js/browser.mjs) and the gateway module in Node"
node --input-type=module -e '
  import { readFileSync } from "node:fs";
  const check = (rt, where) => {
    rt.registerTools([{ name: "read_file", description: "Read a file", source: "native", provider: { id: "host" } }]);
    if (rt.size !== 1 || !/^sha256:/.test(rt.version)) throw new Error(`${where}: unexpected runtime state`);
    console.log(`${where}: ok (registry version ${rt.version.slice(0, 19)}…)`);
  };
  const node = await import("./js/node.mjs");
  check(new node.HolarynRuntime(), "dist/web via js/node.mjs (initSync)");
  node.initCode();
  const web = await import("./js/browser.mjs");
  await web.init(readFileSync("dist/web/holaryn_wasm_bg.wasm"));
  check(new web.HolarynRuntime(), "dist/web via js/browser.mjs");
  await web.initCode(readFileSync("dist/web/holaryn_code_bg.wasm"));
  console.log("code module: ok in both entries");
  const { parseGatewayConfig } = await import("./js/gateway/config.mjs");
  if (parseGatewayConfig(JSON.stringify({ mcpServers: { fs: { command: "x" } } })).servers[0]?.id !== "fs")
    throw new Error("gateway module: unexpected config");
  console.log("gateway module: ok");
'
ls -l dist/web/*.wasm
step "build: done"
