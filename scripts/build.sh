#!/usr/bin/env bash
# `npm run build`: the npm package's wasm. One release build of the wasm crate,
# wasm-bindgen for Node (CommonJS, dist/node) and the web (ES module, dist/web),
# wasm-opt -Oz from npm's binaryen, then a load check of both in Node.
# Needs what `scripts/setup.sh` installs (wasm target, .tools/bin/wasm-bindgen,
# node_modules/.bin/wasm-opt).
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

step "build: cargo build --release (wasm32)"
cargo build -p holaryn-wasm --release --target wasm32-unknown-unknown
# Where cargo put it: honours CARGO_TARGET_DIR (a stale target/ copy must never be shipped).
target_dir="$(cargo metadata --format-version 1 --no-deps |
  node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.parse(s).target_directory))')"
wasm="$target_dir/wasm32-unknown-unknown/release/holaryn_wasm.wasm"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for target in nodejs web; do
  out="dist/$([ "$target" = nodejs ] && echo node || echo web)"
  step "build: wasm-bindgen --target $target -> $out"
  rm -rf "$out"
  wasm-bindgen "$wasm" --target "$target" --out-dir "$out" \
    --remove-name-section --remove-producers-section
  bg="$out/holaryn_wasm_bg.wasm"
  if [ "$target" = web ] && cmp -s "$bg" "$tmp/node_bg.wasm"; then
    step "build: $bg is byte-identical to dist/node's input: reuse the optimised copy"
    cp dist/node/holaryn_wasm_bg.wasm "$bg"
    continue
  fi
  cp "$bg" "$tmp/node_bg.wasm"
  step "build: wasm-opt -Oz $bg ($(wasm-opt --version))"
  wasm-opt -Oz --strip-debug --strip-producers "${WASM_FEATURES[@]}" "$bg" -o "$bg"
done
# The Node build is CommonJS inside a "type": "module" package.
printf '{"type": "commonjs"}\n' > dist/node/package.json

step "build: load check of dist/node and dist/web in Node"
node --input-type=module -e '
  import { readFileSync } from "node:fs";
  const check = (rt, where) => {
    rt.registerTools([{ name: "read_file", description: "Read a file", source: "native", provider: { id: "host" } }]);
    if (rt.size !== 1 || !/^sha256:/.test(rt.version)) throw new Error(`${where}: unexpected runtime state`);
    console.log(`${where}: ok (registry version ${rt.version.slice(0, 19)}…)`);
  };
  const node = await import("./js/node.mjs");
  check(new node.HolarynRuntime(), "dist/node via js/node.mjs");
  const web = await import("./js/browser.mjs");
  await web.init(readFileSync("dist/web/holaryn_wasm_bg.wasm"));
  check(new web.HolarynRuntime(), "dist/web via js/browser.mjs");
'
ls -l dist/node/holaryn_wasm_bg.wasm dist/web/holaryn_wasm_bg.wasm
step "build: done"
