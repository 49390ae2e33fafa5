#!/usr/bin/env bash
# Runs evalgate's whole test suite, the GitHub contract test included: installs the
# outside programs the tests run (scripts/install-test-tools.sh; quick once installed),
# starts Stoplight Prism on a free loopback port (from 4010 up), points the contract test
# at it, runs `go vet` and `go test ./...`, and stops Prism again. Extra arguments go to
# `go test` (e.g. -run Golden -v).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
scripts/install-test-tools.sh
if [ -z "${EVALGATE_CONTRACT_URL:-}" ]; then
  # Another checkout's tests may hold 4010 on a shared machine: take the next free port.
  port=${EVALGATE_CONTRACT_PORT:-4010}
  for try in 1 2 3 4 5 6 7 8 9 10; do
    if scripts/contract.sh start "$port" >/dev/null; then break; fi
    [ "$try" = 10 ] && { echo "test.sh: could not start the contract server (ports ${EVALGATE_CONTRACT_PORT:-4010}-$port)" >&2; exit 1; }
    port=$((port + 1))
  done
  trap 'scripts/contract.sh stop "$port"' EXIT
  export EVALGATE_CONTRACT_URL=http://127.0.0.1:$port
fi
go vet ./...
# -timeout: a package's tests may take well over go test's default 10 minutes on a
# loaded 2-core machine (internal/cli runs the binary end to end many times).
go test -count=1 -timeout 60m "$@" ./...
