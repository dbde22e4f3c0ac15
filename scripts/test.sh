#!/usr/bin/env bash
# `npm test` (and CI via .ci/run): installs what it needs (pinned,
# idempotently), then runs every check and stops at the first failure.
# Each step is one `run "Title" command...` line: to add a step, add a line.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$HOLARYN_ROOT"

run "setup (scripts/setup.sh --full)" bash scripts/setup.sh --full

run "cargo fmt --check" cargo fmt --all --check
run "module graph (scripts/module-cycles.mjs: no import cycle of more than two files in any crate, no pub mod in a crate root)" node scripts/module-cycles.mjs
# Format + lint of every JS file (biome.json); `npx biome check --write js js-demo tests bin benchmarks scripts` fixes most.
run "biome ci (JS format + lint)" biome ci js js-demo tests bin benchmarks scripts
run "cargo clippy (native, all targets)" cargo clippy --workspace --all-targets -- -D warnings
run "cargo clippy (wasm32, all targets)" cargo clippy -p holaryn-wasm --target wasm32-unknown-unknown --all-targets -- -D warnings
# Never `-q` on cargo test: it breaks wasm-bindgen-test-runner.
run "cargo test (native)" cargo test --workspace
run "cargo doc (warnings denied)" env RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps
run "generated Unicode tables match their pinned sources (scripts/unicode-tables.sh)" bash scripts/unicode-tables.sh
# Every cargo-fuzz target built once (unoptimised) and run 15 s from its checked-in seeds
# (8 targets: under 5 minutes with the build on 2 cores); longer runs: scripts/fuzz.sh.
run "fuzz every target 15 s (scripts/fuzz.sh --smoke 15, nightly: a crash or time-out fails)" bash scripts/fuzz.sh --smoke 15
# --mode no-install: fail rather than download wasm-bindgen or chromedriver.
run "wasm-bindgen tests in Node (wasm-pack test --node)" wasm-pack test --mode no-install --node wasm
# Chromium flags for root and this offline machine: wasm/webdriver.json.
run "wasm-bindgen tests in headless Chromium (wasm-pack test --headless --chrome)" \
  wasm-pack test --mode no-install --headless --chrome --chromedriver "$CHROMEDRIVER" wasm
run "npm run build" npm run --silent build
# README examples verbatim, type tests, real values vs their types (scripts/typecheck.sh).
run "tsc --noEmit --strict (tests/types, README examples; bundler + node16)" bash scripts/typecheck.sh
# The three SDK loops (tests/agent-loops/*.ts, the ones tests/types type-checks) compiled to
# target/agent-loops/, then run against a scripted model and real MCP servers over stdio.
run "agent loops (tsc -p tests/agent-loops; node --test tests/agent-loops: Anthropic, OpenAI Chat, OpenAI Responses)" \
  bash -c 'tsc -p tests/agent-loops && node --test --test-concurrency=1 --test-reporter=spec tests/agent-loops/'
run "HolarynBench tool-discovery suite (release gate vs the reviewed baseline)" \
  node bin/holaryn.mjs bench run --suite tool-discovery \
  --baseline benchmarks/baselines/tool-discovery-v1.json \
  --fail-on-regression --output-dir benchmark-results/tool-discovery
run "node --test tests/node (the built package in Node)" node --test --test-reporter=spec tests/node/
run "node --test tests/gateway (holaryn gateway: SDK client over stdio and HTTP, Inspector CLI, conformance)" \
  node --test --test-concurrency=1 --test-reporter=spec tests/gateway/
run "gateway benchmark (20 catalogs: tools/list bytes and call latency, direct vs gateway)" \
  env BENCH_CALLS=100 node benchmarks/gateway/bench.mjs
run "node --test tests/browser (the built package in headless Chromium, playwright-core)" node --test --test-reporter=spec tests/browser/
run "node --test tests/package (npm pack, installed offline into a fresh project: Node, README examples incl. gateway and AI SDK/OTel, CLI, MCP crash/reconnect/skipped tools, esbuild/vite pages in Chromium)" node --test --test-reporter=spec tests/package/

summary
echo "steps: ${#HOLARYN_STEPS[@]} passed, 0 failed"
