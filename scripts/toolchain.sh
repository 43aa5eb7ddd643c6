#!/usr/bin/env bash
# Runs a root package script with Node >= 22.18 and the pinned pnpm, fetching both from the npm
# registry into .tools/ (git-ignored) when this machine lacks them, and installing the workspace
# when the lockfile changed since the last install.
#   bash scripts/toolchain.sh <script> [args]          a root package script, run by pnpm in the root
#   bash scripts/toolchain.sh --source <entry> [args]  a workspace TypeScript entry point (a path
#       from the root, e.g. packages/mcp/src/bin.ts) run from source by Node, no build, in the
#       folder the command was typed in (npm's INIT_CWD), so relative paths mean what they say
# Everything this script prints goes to stderr: stdout is the program's alone (a stdio MCP
# server speaks JSON-RPC there, and an MCP client may start it through this script).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
caller_dir="${INIT_CWD:-$PWD}"
tools="$root/.tools"
required_node_major=22
# Type stripping without a flag, and module.registerHooks (bench/src/register-ts.ts), came in 22.18.
required_node_minor=18
pnpm_version="$(sed -n 's/.*"packageManager": *"pnpm@\([^"]*\)".*/\1/p' "$root/package.json")"

node_is_recent() {
  "$1" -e "const [major, minor] = process.versions.node.split('.').map(Number); process.exit(major > $required_node_major || (major === $required_node_major && minor >= $required_node_minor) ? 0 : 1)" 2>/dev/null
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
  echo "toolchain: installing the workspace (pnpm install)" >&2
  (cd "$root" && pnpm install --frozen-lockfile) >&2
  touch "$stamp"
fi

export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
if [ "${1:-}" = "--source" ]; then
  entry="$root/${2:?toolchain: --source needs an entry point, e.g. packages/mcp/src/bin.ts}"
  shift 2
  cd "$caller_dir"
  # The workspace's sources import each other without extensions; bench's resolve hook finds them,
  # and the tool-search-source condition picks each package's src instead of its dist.
  exec node --conditions=tool-search-source --import "$root/bench/src/register-ts.ts" "$entry" "$@"
fi
cd "$root"
exec pnpm run "$@"
