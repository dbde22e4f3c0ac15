#!/usr/bin/env bash
# The generated Unicode tables against their pinned sources: regenerates both
# with tools/unicode-tables into a temporary directory and `diff -u`s them with
# the committed files; fails on any drift (run by `npm test`, scripts/test.sh).
set -euo pipefail

# The committed files, relative to the repository root (the only place they are named here).
PATTERN_TABLES="crates/pattern/src/tables.rs"
NFKD_TABLES="crates/search/src/nfkd_tables.rs"

source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$HOLARYN_ROOT"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

drift=0
for table in "pattern $PATTERN_TABLES" "nfkd $NFKD_TABLES"; do
  read -r subcommand file <<<"$table"
  cargo run --quiet --locked -p unicode-tables -- "$subcommand" >"$tmp/$subcommand.rs"
  if diff -u --label "$file (committed)" --label "$file (generated)" "$file" "$tmp/$subcommand.rs"; then
    echo "$file: as generated ($subcommand)"
  else
    echo "error: $file is not what its pinned source generates; regenerate it with" >&2
    echo "  cargo run -p unicode-tables -- $subcommand > $file" >&2
    drift=1
  fi
done
exit "$drift"
