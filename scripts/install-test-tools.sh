#!/usr/bin/env bash
# Installs every outside program evalgate's tests run, before the tests: no test installs
# anything. scripts/test.sh (the README's test command) runs it first; it is quick once
# everything is in place. What it installs, and where:
#   Prism 5.14.2 (the GitHub contract server)         scripts/contract.sh install  -> ~/.cache/evalgate-contract
#   promptfoo 0.100.6 and 0.123.1, each with Node 22  scripts/promptfoo.sh VERSION -> ~/.cache/evalgate-promptfoo
#   mermaid + jsdom (the PR comment's chart check)    npm ci in internal/report/testdata/mermaid
#   Debian packages, when missing and root or sudo is at hand: chromium (the HTML report
#   is opened headless), libxml2-utils (xmllint checks the JUnit report), python3 (the
#   tutor example's stand-in system), nodejs + npm (needed for all of the above).
# With --ci it also installs what .ci/run uses after the tests: shellcheck, podman,
# actionlint, deadcode and GoReleaser (pinned, with go install). With --release it installs only
# GoReleaser (the release CI job, which runs scripts/release-check.sh alone).
#
# Download: about 750 MB from npm (2.3 GB on disk: two promptfoo installs with their own
# Node 22 are most of it), plus about 150 MB of Debian packages when chromium is missing.
# Every step is bounded by a timeout (EVALGATE_INSTALL_TIMEOUT seconds, default 900), and
# the locks are flock(1) locks, which end with the process that holds them: a killed
# install never leaves a lock behind, and the next run starts the half-done step over.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
limit=${EVALGATE_INSTALL_TIMEOUT:-900}
ci=0
release=0
case "${1:-}" in
  --ci) ci=1; release=1 ;;
  --release) release=1 ;;
  "") ;;
  *) echo "usage: scripts/install-test-tools.sh [--ci | --release]" >&2; exit 2 ;;
esac
say() { echo "install-test-tools: $*" >&2; }
gobin=$(go env GOBIN); gobin=${gobin:-$(go env GOPATH)/bin}

# GoReleaser, pinned, with go install into GOPATH/bin, once (a large build; CI caches
# GOPATH/bin): scripts/release-check.sh runs it and installs nothing.
if [ "$release" = 1 ]; then
  goreleaser_version=v2.16.0 # also in .github/workflows/release.yml and ci.yml's cache key; needs go >= 1.26.3
  if ! "$gobin/goreleaser" --version 2>/dev/null | grep -q "${goreleaser_version#v}"; then
    say "go install goreleaser $goreleaser_version (into $gobin)"
    timeout "$limit" go install "github.com/goreleaser/goreleaser/v2@$goreleaser_version"
  fi
  if [ "$ci" = 0 ]; then exit 0; fi
fi

# Debian packages first: npm and node come from there when missing.
pkgs=()
command -v chromium >/dev/null || command -v chromium-browser >/dev/null || pkgs+=(chromium)
command -v xmllint >/dev/null || pkgs+=(libxml2-utils)
command -v python3 >/dev/null || pkgs+=(python3)
command -v npm >/dev/null || pkgs+=(nodejs npm)
if [ "$ci" = 1 ]; then
  command -v shellcheck >/dev/null || pkgs+=(shellcheck)
  command -v podman >/dev/null || pkgs+=(podman)
fi
if [ ${#pkgs[@]} -gt 0 ]; then
  sudo=()
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo=(sudo -n); else sudo=(none); fi
  fi
  if [ "${sudo[0]:-}" = none ] || ! command -v apt-get >/dev/null; then
    say "missing ${pkgs[*]}, and no apt-get with root or sudo here: install them yourself; the tests that need them skip (and fail under CI=true)"
  else
    say "apt-get install ${pkgs[*]}"
    # dpkg's own lock is waited for (another apt run), within the same bound.
    timeout "$limit" "${sudo[@]}" apt-get -o DPkg::Lock::Timeout="$limit" update -qq
    DEBIAN_FRONTEND=noninteractive timeout "$limit" "${sudo[@]}" apt-get -o DPkg::Lock::Timeout="$limit" \
      install -y -qq --no-install-recommends "${pkgs[@]}" >/dev/null
  fi
fi

if [ "$ci" = 1 ]; then
  actionlint_version=v1.7.12
  "$gobin/actionlint" -version 2>/dev/null | grep -qx "$actionlint_version" ||
    timeout "$limit" go install "github.com/rhysd/actionlint/cmd/actionlint@$actionlint_version"
  # deadcode has no --version: its build info names the x/tools version it came from.
  deadcode_version=v0.31.0
  go version -m "$gobin/deadcode" 2>/dev/null | grep -q "golang.org/x/tools[[:space:]]*$deadcode_version" ||
    timeout "$limit" go install "golang.org/x/tools/cmd/deadcode@$deadcode_version"
fi

if ! command -v npm >/dev/null; then
  say "npm is missing: Prism, promptfoo and mermaid are not installed; their tests skip (and fail under CI=true)"
  exit 0
fi

# Prism and the two promptfoo versions side by side (each mostly waits on npm).
pids=()
timeout "$limit" scripts/contract.sh install & pids+=($!)
for v in 0.100.6 0.123.1; do timeout "$limit" scripts/promptfoo.sh "$v" >/dev/null & pids+=($!); done
failed=0
for p in "${pids[@]}"; do wait "$p" || failed=1; done

# mermaid's parser, pinned by the lock file; npm ci again only when the lock file changed.
mm=internal/report/testdata/mermaid
want=$(sha256sum "$mm/package-lock.json" | cut -d' ' -f1)
if [ "$(cat "$mm/node_modules/.evalgate-lock" 2>/dev/null || true)" != "$want" ]; then
  (
    flock -w "$limit" 9 || { say "timed out waiting for another npm ci in $mm"; exit 1; }
    if [ "$(cat "$mm/node_modules/.evalgate-lock" 2>/dev/null || true)" != "$want" ]; then
      timeout "$limit" npm ci --prefix "$mm" --no-audit --no-fund --loglevel=error 9>&- >/dev/null
      echo "$want" >"$mm/node_modules/.evalgate-lock"
    fi
  ) 9>"$mm/.install.lock" || failed=1
fi
if [ "$failed" = 1 ]; then say "an install failed (see above); run this script again"; exit 1; fi
