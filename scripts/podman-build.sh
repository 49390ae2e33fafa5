#!/usr/bin/env bash
# Builds the action image's runtime stage with podman from a binary built on this host,
# so no base image is pulled (the runtime stage is FROM scratch), and checks the result:
# under 25 MB, a non-root user, and the `evalgate action` entry point. Exits non-zero
# otherwise.
#
#   scripts/podman-build.sh [TAG]      (default evalgate:dev)
#
# env: VERSION        stamped into the binary (default: git describe, else dev)
#      MAX_IMAGE_MB   size limit in MB (default 25: one static binary, about 24 MB stripped, on scratch)
#      EVALGATE_MAIN  the main package to build (default ./cmd/evalgate)
#      PODMAN         the podman command (default podman)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
tag=${1:-evalgate:dev}
max_mb=${MAX_IMAGE_MB:-25}
main=${EVALGATE_MAIN:-./cmd/evalgate}
podman=${PODMAN:-podman}
version=${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo dev)}
certs=/etc/ssl/certs/ca-certificates.crt

command -v "$podman" >/dev/null || { echo "podman not found (Debian: apt-get install -y podman)" >&2; exit 1; }
[ -f "$certs" ] || { echo "$certs not found (Debian: apt-get install -y ca-certificates)" >&2; exit 1; }

# The layout of the Dockerfile's build stage: /out/evalgate, /out/rootfs/tmp, the CA bundle.
ctx=$(mktemp -d); trap 'rm -rf "$ctx"' EXIT
mkdir -p "$ctx/out/rootfs/tmp" "$ctx/etc/ssl/certs"
chmod 1777 "$ctx/out/rootfs/tmp"
cp "$certs" "$ctx/etc/ssl/certs/"
CGO_ENABLED=0 GOOS=linux go build -trimpath \
  -ldflags "-s -w -X github.com/evalgate/evalgate/internal/cli.Version=$version" \
  -o "$ctx/out/evalgate" "$main"

"$podman" build --build-context build="$ctx" --target runtime -t "$tag" -f Dockerfile "$root"

size=$("$podman" image inspect --format '{{.Size}}' "$tag")
user=$("$podman" image inspect --format '{{.Config.User}}' "$tag")
entrypoint=$("$podman" image inspect --format '{{json .Config.Entrypoint}}' "$tag")
echo "image $tag: $size bytes, user ${user:-<none>}, entrypoint $entrypoint"

fail=0
if [ "$size" -ge $((max_mb * 1000 * 1000)) ]; then
  echo "image is $size bytes; want under $max_mb MB" >&2; fail=1
fi
case "${user%%:*}" in
  ""|0|root) echo "image user is ${user:-<none>} (root); want a non-root user" >&2; fail=1 ;;
esac
if [ "$entrypoint" != '["/evalgate","action"]' ]; then
  echo "entrypoint is $entrypoint; want [\"/evalgate\",\"action\"]" >&2; fail=1
fi
exit $fail
