#!/usr/bin/env bash
# Idempotent set-up with pinned versions. Usage: scripts/setup.sh [--full|--fuzz]
#   default: what building and `npm start` need (wasm target, the wasm builds'
#            pinned nightly with rust-src, wasm-bindgen, npm ci)
#   --full:  also rustfmt + clippy, wasm-pack, Debian chromium + chromium-driver
#            and the fuzzing tools below (what `npm test` needs)
#   --fuzz:  only the fuzzing tools: rustup's nightly toolchain and cargo-fuzz
#            (what building the fuzz targets and scripts/fuzz.sh need)
# Each part is skipped when already in place; nothing downloads a prebuilt
# binary (everything comes from crates.io, npm or Debian).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$HOLARYN_ROOT"
full=0
[ "${1:-}" = "--full" ] && full=1

ensure_target() {
  rustup target list --installed | grep -qx wasm32-unknown-unknown ||
    rustup target add wasm32-unknown-unknown
}

ensure_components() {
  local c missing=()
  for c in rustfmt clippy; do
    rustup component list --installed | grep -q "^$c" || missing+=("$c")
  done
  [ "${#missing[@]}" = 0 ] || rustup component add "${missing[@]}"
}

ensure_wasm_nightly() {
  if rustup component list --toolchain "$WASM_NIGHTLY" --installed 2>/dev/null | grep -q '^rust-src'; then
    echo "already $(rustc "+$WASM_NIGHTLY" --version) with rust-src"
    return
  fi
  rustup toolchain install "$WASM_NIGHTLY" --profile minimal --component rust-src
}

ensure_wasm_bindgen() {
  if [ "$(.tools/bin/wasm-bindgen --version 2>/dev/null || true)" = "wasm-bindgen $WASM_BINDGEN_VERSION" ] &&
    [ -x .tools/bin/wasm-bindgen-test-runner ]; then
    echo "already wasm-bindgen $WASM_BINDGEN_VERSION"
    return
  fi
  # No --locked: the crates mirror can lag the CLI's own lockfile.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --root .tools --force
}

ensure_wasm_pack() {
  if [ "$(.tools/bin/wasm-pack --version 2>/dev/null || true)" = "wasm-pack $WASM_PACK_VERSION" ]; then
    echo "already wasm-pack $WASM_PACK_VERSION"
    return
  fi
  cargo install wasm-pack --version "$WASM_PACK_VERSION" --locked --root .tools --force
}

ensure_nightly() {
  # The current nightly; pin a dated one here only if the current one breaks.
  if rustup toolchain list | grep -q '^nightly-'; then
    echo "already $(rustc +nightly --version)"
    return
  fi
  rustup toolchain install nightly --profile minimal
}

ensure_cargo_fuzz() {
  if [ "$(.tools/bin/cargo-fuzz --version 2>/dev/null || true)" = "cargo-fuzz $CARGO_FUZZ_VERSION" ]; then
    echo "already cargo-fuzz $CARGO_FUZZ_VERSION"
    return
  fi
  cargo install cargo-fuzz --version "$CARGO_FUZZ_VERSION" --locked --root .tools --force
}

ensure_chromium() {
  if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
    echo "already $(/usr/bin/chromedriver --version 2>/dev/null | head -1)"
    return
  fi
  local sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver
}

ensure_node_modules() {
  # node_modules/.package-lock.json is rewritten by every npm ci / npm install.
  if [ -f node_modules/.package-lock.json ] && [ ! package-lock.json -nt node_modules/.package-lock.json ]; then
    echo "already up to date with package-lock.json"
    return
  fi
  npm ci --no-audit --no-fund
}

fuzz_tools() {
  run "setup: rust nightly (fuzz targets)" ensure_nightly
  run "setup: cargo-fuzz $CARGO_FUZZ_VERSION (.tools/bin)" ensure_cargo_fuzz
}
if [ "${1:-}" = "--fuzz" ]; then
  fuzz_tools
  summary
  exit 0
fi

run "setup: rust target wasm32-unknown-unknown" ensure_target
run "setup: rust $WASM_NIGHTLY + rust-src (wasm release builds)" ensure_wasm_nightly
[ "$full" = 1 ] && run "setup: rustfmt + clippy" ensure_components
run "setup: wasm-bindgen-cli $WASM_BINDGEN_VERSION (.tools/bin)" ensure_wasm_bindgen
[ "$full" = 1 ] && run "setup: wasm-pack $WASM_PACK_VERSION (.tools/bin)" ensure_wasm_pack
[ "$full" = 1 ] && run "setup: Debian chromium + chromium-driver" ensure_chromium
[ "$full" = 1 ] && fuzz_tools
run "setup: npm ci" ensure_node_modules
summary
