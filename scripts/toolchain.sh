#!/usr/bin/env bash
# Runs a root package script with Node >= 22 and the pinned pnpm, fetching both from the npm
# registry into .tools/ (git-ignored) when this machine lacks them, and installing the workspace
# when the lockfile changed since the last install. Usage: bash scripts/toolchain.sh <script> [args]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="$root/.tools"
required_node_major=22
pnpm_version="$(sed -n 's/.*"packageManager": *"pnpm@\([^"]*\)".*/\1/p' "$root/package.json")"

node_is_recent() {
  "$1" -e "process.exit(Number(process.versions.node.split('.')[0]) >= $required_node_major ? 0 : 1)" 2>/dev/null
}

npm_fetch() { # folder, package spec
  echo "toolchain: fetching $2 from the npm registry into ${1#"$root"/}" >&2
  npm install --prefix "$1" --no-audit --no-fund --no-save --loglevel=error "$2" >&2
}

if ! command -v node >/dev/null 2>&1 || ! node_is_recent node; then
  local_node="$tools/node/node_modules/.bin/node"
  if ! node_is_recent "$local_node"; then
    rm -rf "$tools/node"
    npm_fetch "$tools/node" "node@$required_node_major"
    node_is_recent "$local_node" || { echo "toolchain: could not get Node $required_node_major" >&2; exit 1; }
  fi
  export PATH="$tools/node/node_modules/.bin:$PATH"
fi

pnpm_major="${pnpm_version%%.*}"
if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null | cut -d. -f1)" != "$pnpm_major" ]; then
  local_pnpm="$tools/pnpm/node_modules/.bin/pnpm"
  if [ "$("$local_pnpm" --version 2>/dev/null)" != "$pnpm_version" ]; then
    rm -rf "$tools/pnpm"
    npm_fetch "$tools/pnpm" "pnpm@$pnpm_version"
  fi
  export PATH="$tools/pnpm/node_modules/.bin:$PATH"
fi

# Install only when the lockfile or a manifest is newer than the last successful install.
stamp="$root/node_modules/.toolchain-installed"
needs_install=0
[ -f "$stamp" ] || needs_install=1
for manifest in "$root"/pnpm-lock.yaml "$root"/pnpm-workspace.yaml "$root"/package.json \
  "$root"/packages/*/package.json "$root"/examples/*/package.json "$root"/bench/package.json; do
  if [ -f "$manifest" ] && [ "$manifest" -nt "$stamp" ]; then needs_install=1; fi
done
if [ "$needs_install" = 1 ]; then
  (cd "$root" && pnpm install --frozen-lockfile)
  touch "$stamp"
fi

export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
cd "$root"
exec pnpm run "$@"
