#!/usr/bin/env bash
# Build the npm package: release wasm, wasm-bindgen for Node (CommonJS) and the
# web (ES module), then wasm-opt -Oz from npm's binaryen.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$HOLARYN_ROOT"

step "build: cargo build --release (wasm32)"
cargo build -p holaryn-wasm --release --target wasm32-unknown-unknown
wasm="target/wasm32-unknown-unknown/release/holaryn_wasm.wasm"

first_in=""
for target in nodejs web; do
  out="dist/$([ "$target" = nodejs ] && echo node || echo web)"
  step "build: wasm-bindgen --target $target -> $out"
  rm -rf "$out"
  wasm-bindgen "$wasm" --target "$target" --out-dir "$out" \
    --remove-name-section --remove-producers-section
  bg="$out/holaryn_wasm_bg.wasm"
  if [ -n "$first_in" ] && cmp -s "$bg" "$first_in"; then
    step "build: $out wasm identical to dist/node: reuse its optimised copy"
    cp dist/node/holaryn_wasm_bg.wasm "$bg"
    continue
  fi
  first_in="$(mktemp)"
  cp "$bg" "$first_in"
  step "build: wasm-opt -Oz $bg"
  # The feature set rustc's wasm32 output uses (Rust >= 1.82 enables these).
  wasm-opt -Oz --strip-debug --strip-producers \
    --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals --enable-reference-types --enable-multivalue --enable-simd \
    "$bg" -o "$bg"
done
# The Node build is CommonJS inside a "type": "module" package.
printf '{"type": "commonjs"}\n' > dist/node/package.json
step "build: done"
