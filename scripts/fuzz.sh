#!/usr/bin/env bash
# Coverage-guided fuzzing (cargo-fuzz + libFuzzer, nightly) of holaryn-core.
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]
#        scripts/fuzz.sh --build   (only build every target, unoptimised;
#                                   ~2.4x less CPU cold than the fuzzing build)
#        scripts/fuzz.sh --smoke SECONDS [TARGET...]
#                                  (the npm test step: build every target
#                                   unoptimised once, then run each for SECONDS
#                                   from its checked-in seeds only, in a fresh
#                                   corpus; a crash or a time-out fails)
#   Runs every target in fuzz/fuzz_targets (or the named ones) for SECONDS
#   each (default 60), one at a time, one process each, then prints a table
#   of executions, exec/s, cov and ft per target. Exits 1 if any target
#   crashed; the input is in fuzz/artifacts/TARGET/ (make it a fixture test).
#   Extra libFuzzer flags: FUZZ_ARGS="-max_len=8192 ...".
# Corpora grow in fuzz/corpus/TARGET (gitignored); fuzz/seeds/TARGET are the
# committed seed inputs, fuzz/dicts/*.dict the dictionaries.
# Needs `scripts/setup.sh --fuzz` once (rustup's nightly and cargo-fuzz).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$HOLARYN_ROOT/fuzz"
if [ "${1:-}" = "--build" ]; then
  cargo fmt --check # the root `cargo fmt --all` does not reach this workspace
  # shellcheck disable=SC2086 # a list of flags
  exec cargo +nightly fuzz build --dev $FUZZ_BUILD_FLAGS
fi
smoke=""
if [ "${1:-}" = "--smoke" ]; then
  smoke=1
  shift
  cargo fmt --check
  # shellcheck disable=SC2086 # a list of flags
  cargo +nightly fuzz build --dev $FUZZ_BUILD_FLAGS
  FUZZ_BUILD_FLAGS="--dev $FUZZ_BUILD_FLAGS"
fi
secs="${1:-60}"
shift || true
targets=("$@")
[ "${#targets[@]}" -gt 0 ] || mapfile -t targets < <(ls fuzz_targets | sed 's/\.rs$//')
logs="$(mktemp -d)"
status=0
rows=()
for t in "${targets[@]}"; do
  corpus="corpus/$t"
  [ -z "$smoke" ] || corpus="$logs/corpus-$t"
  mkdir -p "$corpus" "artifacts/$t"
  dict=dicts/json.dict
  [ -f "dicts/$t.dict" ] && dict="dicts/$t.dict"
  step "fuzz $t for ${secs}s"
  # shellcheck disable=SC2086 # the flag variables are lists of flags
  { cargo +nightly fuzz run $FUZZ_BUILD_FLAGS "$t" "$corpus" "seeds/$t" -- \
    -max_total_time="$secs" -dict="$dict" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 ${FUZZ_ARGS:-} 2>&1; echo "$?" >"$logs/$t.rc"; } |
    tee "$logs/$t.log" | grep --line-buffered -E '^#[0-9]+[[:space:]]+(INITED|DONE)|ERROR|panicked|SUMMARY|Test unit written' || true
  rc="$(cat "$logs/$t.rc")"
  done_line="$(grep -E '^#[0-9]+[[:space:]]+DONE' "$logs/$t.log" | tail -1 || true)"
  execs="$(grep -oE 'stat::number_of_executed_units: [0-9]+' "$logs/$t.log" | tail -1 | grep -oE '[0-9]+$' || echo 0)"
  if [ "$rc" = 0 ]; then result=ok; else result="CRASH (exit $rc, see fuzz/artifacts/$t)"; status=1; fi
  rows+=("$(printf '%-18s %12s %8s %6s %7s  %s' "$t" "$execs" \
    "$(grep -oE 'exec/s: [0-9]+' <<<"$done_line" | grep -oE '[0-9]+' || echo -)" \
    "$(grep -oE 'cov: [0-9]+' <<<"$done_line" | grep -oE '[0-9]+' || echo -)" \
    "$(grep -oE 'ft: [0-9]+' <<<"$done_line" | grep -oE '[0-9]+' || echo -)" "$result")")
done
printf '\n%-18s %12s %8s %6s %7s  %s\n' target executions exec/s cov ft result
printf '%s\n' "${rows[@]}"
total=0
for r in "${rows[@]}"; do total=$((total + $(awk '{print $2}' <<<"$r"))); done
echo "total executions: $total"
rm -rf "$logs"
exit "$status"
