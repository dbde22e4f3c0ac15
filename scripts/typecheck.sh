#!/usr/bin/env bash
# The public TypeScript surface under `tsc --strict` (needs `npm run build`: the
# .d.ts includes dist/'s generated one). Copies README.md's examples verbatim
# and real values of every serde shape into tests/types/generated/, then
# compiles tests/types/ under moduleResolution bundler and node16, resolving
# "holaryn" by name (package self-reference through package.json `exports`).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$HOLARYN_ROOT"

node scripts/readme-examples.mjs
node scripts/type-samples.mjs
for resolution in bundler node16; do
  step "tsc --noEmit -p tests/types/tsconfig.$resolution.json"
  tsc --noEmit -p "tests/types/tsconfig.$resolution.json"
done
