#!/usr/bin/env bash
# Runs evalgate's whole test suite, the GitHub contract test included:
# starts Stoplight Prism on loopback (installed from npm on first use, see
# scripts/contract.sh), points the contract test at it, runs `go vet` and `go test ./...`,
# and stops Prism again. Extra arguments go to `go test` (e.g. -run Golden -v).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
port=${EVALGATE_CONTRACT_PORT:-4010}
if [ -z "${EVALGATE_CONTRACT_URL:-}" ]; then
  scripts/contract.sh start "$port" >/dev/null
  trap 'scripts/contract.sh stop "$port"' EXIT
  export EVALGATE_CONTRACT_URL=http://127.0.0.1:$port
fi
go vet ./...
go test -count=1 "$@" ./...
