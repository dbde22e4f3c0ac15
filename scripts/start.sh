#!/usr/bin/env bash
# `npm start`: set up what building needs, build, and run the demo flow.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$HOLARYN_ROOT"
bash scripts/setup.sh >&2
bash scripts/build.sh >&2
exec node scripts/demo.mjs
