#!/usr/bin/env bash
# Idempotent set-up with pinned versions. Usage: scripts/setup.sh [--full]
#   default: what building and `npm start` need (wasm target, wasm-bindgen, npm ci)
#   --full:  also wasm-pack and Debian chromium + chromium-driver (for `npm test`)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$HOLARYN_ROOT"
full=0
[ "${1:-}" = "--full" ] && full=1

step "setup: rust target wasm32-unknown-unknown"
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  rustup target add wasm32-unknown-unknown
fi

step "setup: wasm-bindgen-cli $WASM_BINDGEN_VERSION (project-local .tools)"
if [ "$(.tools/bin/wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
  # No --locked: the crates mirror can lag the CLI's own lockfile.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --root .tools --force
fi

step "setup: npm ci"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi

if [ "$full" = 1 ]; then
  step "setup: wasm-pack $WASM_PACK_VERSION (project-local .tools)"
  if [ "$(.tools/bin/wasm-pack --version 2>/dev/null || true)" != "wasm-pack $WASM_PACK_VERSION" ]; then
    cargo install wasm-pack --version "$WASM_PACK_VERSION" --locked --root .tools --force
  fi
  step "setup: Debian chromium + chromium-driver"
  if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
    SUDO=""
    [ "$(id -u)" = 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-driver >/dev/null
  fi
fi
step "setup: done"
