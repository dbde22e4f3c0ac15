# Shared environment for the project scripts: pinned versions and PATH.
# Sourced, not run.
HOLARYN_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export HOLARYN_ROOT
export WASM_BINDGEN_VERSION="0.2.130"   # must equal wasm-bindgen in Cargo.lock
export WASM_PACK_VERSION="0.15.1"
# Project-local tools first, then npm's binaryen (never Debian's binaryen 108:
# it emits broken wasm). wasm-pack finds wasm-bindgen and wasm-opt here and so
# never tries to download them.
export PATH="$HOLARYN_ROOT/.tools/bin:$HOLARYN_ROOT/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"

step() {
  # Banner with elapsed seconds since the script started.
  printf '\n=== [%4ds] %s\n' "$SECONDS" "$*"
}
