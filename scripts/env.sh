# Shared environment for the project scripts: pinned versions, PATH, and the
# step runner. Sourced, not run.
HOLARYN_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export HOLARYN_ROOT
export WASM_BINDGEN_VERSION="0.2.130"   # must equal wasm-bindgen in Cargo.lock
export WASM_PACK_VERSION="0.15.1"
export CARGO_FUZZ_VERSION="0.13.2"
# The wasm release builds' toolchain (scripts/build.sh rebuilds std with it,
# panics as immediate aborts); a dated nightly so the shipped wasm does not
# change under us. Installed with rust-src by scripts/setup.sh.
export WASM_NIGHTLY="nightly-2026-05-20"
# Flags every fuzz build shares (fuzz.sh --build in npm test, fuzz.sh runs): the core is
# safe Rust, so no sanitizer; debug assertions catch overflow.
export FUZZ_BUILD_FLAGS="--sanitizer none --debug-assertions"
# Project-local tools first, then npm's binaryen (never Debian's binaryen 108:
# it emits broken wasm). wasm-pack finds wasm-bindgen (and, for builds,
# wasm-opt) here and so never downloads them; `--mode no-install` on every
# wasm-pack call turns any attempt into an error instead.
export PATH="$HOLARYN_ROOT/.tools/bin:$HOLARYN_ROOT/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
export CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1   # Debian's chromium only, never a download
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
export DEBIAN_FRONTEND=noninteractive

# Banner with seconds since the calling script started.
step() {
  printf '\n=== [%4ds] %s\n' "$SECONDS" "$*"
}

# `run "Title" command args...`: one pipeline step. Prints a banner, runs the
# command, prints its elapsed seconds; stops the script on failure. The timings
# are collected for `summary`.
HOLARYN_STEPS=()
run() {
  local title="$1" t0="$SECONDS" rc=0
  shift
  step "$title"
  printf '+ %s\n' "$*"
  # A subshell with errexit: a failing command inside a shell function step
  # fails the step (errexit is ignored in `cmd || ...` contexts).
  set +e
  (set -e; "$@")
  rc=$?
  set -e
  HOLARYN_STEPS+=("$(printf '%5ds  %s  %s' "$((SECONDS - t0))" "$([ "$rc" = 0 ] && echo ok || echo FAILED)" "$title")")
  if [ "$rc" != 0 ]; then
    printf -- '--- FAILED (exit %d after %ds): %s\n' "$rc" "$((SECONDS - t0))" "$title" >&2
    summary >&2
    exit "$rc"
  fi
  printf -- '--- ok (%ds): %s\n' "$((SECONDS - t0))" "$title"
}

# Elapsed seconds of every step run so far.
summary() {
  printf '\n=== [%4ds] step timings\n' "$SECONDS"
  printf '%s\n' "${HOLARYN_STEPS[@]}"
}
