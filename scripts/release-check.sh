#!/usr/bin/env bash
# The release's CI check (.ci/run and .github/workflows/ci.yml): GoReleaser's config is
# valid and a snapshot release builds the six binaries with the version stamp; the
# linux/amd64 one reports it and passes a smoke test (the getting-started flow); every
# one carries it (go version -m); checksums.txt matches the archives; and an unstamped
# `go install ./cmd/evalgate` reports the version from its build info.
#
#   scripts/release-check.sh
#
# It installs nothing: GoReleaser comes from `scripts/install-test-tools.sh --release`
# (or --ci), run first.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
gobin=$(go env GOBIN)
gobin=${gobin:-$(go env GOPATH)/bin}
goreleaser=$gobin/goreleaser
if ! "$goreleaser" --version >/dev/null 2>&1; then
  echo "release-check: no goreleaser in $gobin: run scripts/install-test-tools.sh --release first" >&2
  exit 1
fi

"$goreleaser" check
"$goreleaser" release --snapshot --clean --skip=docker,publish

fail() { echo "release-check: $*" >&2; exit 1; }
version=$(python3 -c 'import json; print(json.load(open("dist/metadata.json"))["version"])')
stamp="github.com/evalgate/evalgate/internal/cli.Version=v$version"
echo "snapshot version v$version"

n=0
for os in linux darwin windows; do
  for arch in amd64 arm64; do
    exe=evalgate
    if [ $os = windows ]; then exe=evalgate.exe; fi
    bin=$(find dist -path "dist/evalgate_${os}_${arch}*/$exe" -type f | head -n 1)
    [ -n "$bin" ] || fail "no $os/$arch binary in dist/"
    info=$(go version -m "$bin")
    grep -q "GOOS=$os\$" <<<"$info" || fail "$bin: not built for $os"
    grep -q "GOARCH=$arch\$" <<<"$info" || fail "$bin: not built for $arch"
    grep -qF -- "$stamp" <<<"$info" || fail "$bin: no version stamp ($stamp) in its build info"
    grep -q "CGO_ENABLED=0" <<<"$info" || fail "$bin: built with cgo"
    [ -f "dist/evalgate_${os}_${arch}.tar.gz" ] || fail "no archive dist/evalgate_${os}_${arch}.tar.gz"
    echo "ok $bin: $os/$arch, stamped v$version"
    n=$((n + 1))
  done
done
[ $n = 6 ] || fail "$n binaries; want 6"
(cd dist && sha256sum -c checksums.txt) || fail "checksums.txt does not match the archives"
[ "$(grep -c '\.tar\.gz$' dist/checksums.txt)" = 6 ] || fail "checksums.txt lists $(grep -c '\.tar\.gz$' dist/checksums.txt) archives; want 6"

# linux/amd64: the stamp, and a smoke test: the getting-started flow with the release binary.
if [ "$(go env GOOS)/$(go env GOARCH)" = linux/amd64 ]; then
  bin=$root/$(find dist -path 'dist/evalgate_linux_amd64*/evalgate' -type f | head -n 1)
  got=$("$bin" --version)
  [ "$got" = "evalgate v$version" ] || fail "--version says \"$got\"; want \"evalgate v$version\""
  smoke=$(mktemp -d)
  (
    cd "$smoke"
    "$bin" init >/dev/null
    "$bin" run --runs 3 --out-dir runs/release >/dev/null 2>&1
    "$bin" baseline --results 'runs/release/*.jsonl' >/dev/null
    "$bin" check --results runs/release/run1.jsonl >/dev/null
    sed -i.bak 's/Paris/Lyon/' evals/system.sh
    "$bin" run --runs 3 --out-dir runs/pr >/dev/null 2>&1
    set +e
    "$bin" check --results 'runs/pr/*.jsonl' >/dev/null
    code=$?
    set -e
    [ $code = 1 ] || { echo "release-check: a regressed run exited $code; want 1" >&2; exit 1; }
  )
  rm -rf "$smoke"
  echo "ok linux/amd64: --version \"$got\", smoke test (init, run, baseline, check pass, regression blocked)"
fi

# go install, unstamped: the version comes from the build info (a pseudo-version in a
# git checkout, "(devel)" → "dev" without version control).
tmpbin=$(mktemp -d)
GOFLAGS=-buildvcs=auto GOBIN=$tmpbin go install ./cmd/evalgate
mod=$(go version -m "$tmpbin/evalgate" | awk '$1 == "mod" { print $3 }')
want=$mod
if [ "$mod" = "(devel)" ] || [ -z "$mod" ]; then want=dev; fi
got=$("$tmpbin/evalgate" --version)
rm -rf "$tmpbin"
[ "$got" = "evalgate $want" ] || fail "go install: --version says \"$got\"; the build info says $mod"
echo "ok go install ./cmd/evalgate: --version \"$got\" (build info: $mod)"
