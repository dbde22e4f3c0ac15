#!/usr/bin/env bash
# `npm run demo`: set up what building needs, build the package, and serve the
# Capability Center (js-demo/) on http://127.0.0.1:8787/js-demo/ (loopback only).
# Extra arguments go to the server, e.g. `npm run demo -- --port 0`.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$HOLARYN_ROOT"
bash scripts/setup.sh >&2
bash scripts/build.sh >&2
exec node js-demo/serve.mjs "$@"
