#!/usr/bin/env bash
# Serves GitHub's REST API contract on loopback for internal/github's contract test:
# Stoplight Prism mocking the operations in testdata/contract/github-contract.json
# (GitHub's official OpenAPI description from @octokit/openapi, trimmed to
# testdata/contract/github-paths.txt and patched by testdata/contract/trim-spec.js).
# Invalid requests are answered 422 with the reason; valid ones with GitHub's documented
# example objects (nothing is stored between calls).
#
#   scripts/contract.sh install        installs Prism (scripts/install-test-tools.sh runs this)
#   scripts/contract.sh start [PORT]   prints the server's PID once it answers (default 4010)
#   scripts/contract.sh stop  [PORT]
#   scripts/contract.sh regenerate     rebuilds github-contract.json after github-paths.txt changes
#
# Then: EVALGATE_CONTRACT_URL=http://127.0.0.1:4010 go test ./internal/github -run Contract
#
# env: EVALGATE_CONTRACT_CACHE  where prism is installed (default ~/.cache/evalgate-contract)
#      PRISM_ERRORS=0           answer invalid requests with examples instead of 422
set -euo pipefail
cmd=${1:-start}; port=${2:-4010}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
data=$root/testdata/contract
prism_version=5.14.2
openapi_version=23.0.2
cache=${EVALGATE_CONTRACT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/evalgate-contract}
mkdir -p "$cache"
pidfile=$cache/prism-$port.pid; log=$cache/prism-$port.log

answers() { [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://127.0.0.1:$port/" || true)" != 000 ]; }

prism_installed() {
  [ -x "$cache/node_modules/.bin/prism" ] &&
    grep -q "\"version\": *\"$prism_version\"" "$cache/node_modules/@stoplight/prism-cli/package.json" 2>/dev/null
}

# One install at a time, under a flock(1) lock that ends with this process (npm does not
# inherit it, so a stray npm cannot hold it either).
install_prism() {
  prism_installed && return 0
  exec 8>"$cache/.install.lock"
  flock -w 900 8 || { echo "timed out waiting for another Prism install" >&2; exit 1; }
  if ! prism_installed; then
    [ -f "$cache/package.json" ] || echo '{"private":true}' > "$cache/package.json"
    (cd "$cache" && npm install --no-fund --no-audit --loglevel=error "@stoplight/prism-cli@$prism_version" 8>&- >&2)
  fi
  exec 8>&-
}

stop() {
  [ -f "$pidfile" ] || return 0
  local pid; pid=$(cat "$pidfile")
  if kill -0 "$pid" 2>/dev/null; then
    kill "$pid"
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then kill -9 "$pid"; fi
  fi
  rm -f "$pidfile"
}

start() {
  if answers; then echo "port $port already answers; refusing to start" >&2; exit 1; fi
  if ! prism_installed; then echo "Prism $prism_version is not installed: run scripts/install-test-tools.sh" >&2; exit 1; fi
  local args=(mock -h 127.0.0.1 -p "$port" -v warn)
  [ "${PRISM_ERRORS:-1}" = 1 ] && args+=(--errors)
  nohup "$cache/node_modules/.bin/prism" "${args[@]}" "$data/github-contract.json" >>"$log" 2>&1 </dev/null &
  local pid=$!; echo "$pid" > "$pidfile"
  for _ in $(seq 300); do
    if answers; then echo "$pid"; return 0; fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
  done
  echo "prism did not come up on port $port; log: $log" >&2; tail -20 "$log" >&2
  stop; exit 1
}

regenerate() {
  local work; work=$(mktemp -d); trap 'rm -rf "$work"' RETURN
  (cd "$work" && echo '{"private":true}' > package.json &&
    npm install --no-fund --no-audit --loglevel=error "@octokit/openapi@$openapi_version" >&2)
  node "$data/trim-spec.js" "$work/node_modules/@octokit/openapi/generated/api.github.com.json" \
    "$data/github-contract.json" "$data/github-paths.txt"
}

case $cmd in
  install) install_prism ;;
  start) start ;;
  stop) stop ;;
  regenerate) regenerate ;;
  *) echo "usage: $0 install | start|stop [PORT] | regenerate" >&2; exit 2 ;;
esac
