#!/usr/bin/env bash
# Runs one of examples/* by its folder name, as `npm run example -- <name>` does (after the
# toolchain has set up Node 22 and pnpm): its `start` script, with any further arguments.
set -euo pipefail
examples="$(cd "$(dirname "${BASH_SOURCE[0]}")/../examples" && pwd)"
names="$(ls "$examples" | tr '\n' ' ')"
name="${1:-}"
if [ -z "$name" ] || [ ! -f "$examples/$name/package.json" ]; then
  echo "usage: npm run example -- <name>, one of: $names" >&2
  exit 1
fi
shift
exec pnpm --filter "$name" start "$@"
