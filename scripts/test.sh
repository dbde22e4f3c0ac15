#!/usr/bin/env bash
# `npm test`: installs what it needs (pinned), then runs every check and fails
# on the first failure. Each step is a plain command anyone can run alone.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$HOLARYN_ROOT"

bash scripts/setup.sh --full

step "cargo fmt --check"
cargo fmt --all --check

step "cargo clippy (native, all targets)"
cargo clippy --workspace --all-targets -- -D warnings

step "cargo clippy (wasm32, all targets)"
cargo clippy -p holaryn-wasm --target wasm32-unknown-unknown --all-targets -- -D warnings

step "cargo test (native)"
cargo test --workspace

step "wasm-bindgen tests under Node (wasm-pack test --node)"
wasm-pack test --node wasm

step "wasm-bindgen tests in headless Chromium (wasm-pack test --headless --chrome)"
wasm-pack test --headless --chrome wasm

step "npm run build"
bash scripts/build.sh

step "node --test (the built npm package in Node)"
node --test --test-reporter=spec tests/node/

step "node --test (the built npm package in headless Chromium via playwright-core)"
node --test --test-reporter=spec tests/browser/

step "all tests passed"
