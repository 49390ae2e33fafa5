#!/usr/bin/env bash
# The release workflow's rewrite (.github/workflows/release.yml): on the release commit,
# action.yml runs the image published for this release, pinned by digest, instead of
# building the Dockerfile, and the setup action installs this release by default.
#
#   scripts/pin-action-image.sh ghcr.io/evalgate/evalgate@sha256:<64 hex> v1.2.3 [DIR]
#
# Rewrites DIR/action.yml's `image:` to `docker://<image>@sha256:<digest>` and
# DIR/setup/action.yml's `version` default to the tag (DIR defaults to the repository).
# Refuses anything but a digest reference and a vX.Y.Z tag, and checks its own result.
set -euo pipefail
ref=${1:-}
tag=${2:-}
root=${3:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}

if ! [[ $ref =~ ^[a-z0-9][a-z0-9./_-]*@sha256:[0-9a-f]{64}$ ]]; then
  echo "pin-action-image: \"$ref\" is not an image pinned by digest (want REGISTRY/NAME@sha256:<64 hex digits>)" >&2
  exit 2
fi
if ! [[ $tag =~ ^v[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$ ]]; then
  echo "pin-action-image: \"$tag\" is not a release tag (want vX.Y.Z)" >&2
  exit 2
fi

action=$root/action.yml
setup=$root/setup/action.yml
[ "$(grep -c '^  image: ' "$action")" = 1 ] || { echo "pin-action-image: $action: want exactly one '  image:' line" >&2; exit 1; }

# action.yml: the one `  image:` line of runs:.
awk -v img="docker://$ref" '/^  image: / { print "  image: " img; next } { print }' "$action" >"$action.tmp"
mv "$action.tmp" "$action"

# setup/action.yml: the `default:` of the `version` input (the first default after it).
awk -v tag="$tag" '
  /^  version:$/ { in_version = 1 }
  in_version && /^    default: / { print "    default: " tag; in_version = 0; done = 1; next }
  { print }
  END { if (!done) exit 1 }' "$setup" >"$setup.tmp" || { rm -f "$setup.tmp"; echo "pin-action-image: $setup: no default under the version input" >&2; exit 1; }
mv "$setup.tmp" "$setup"

grep -Eq "^  image: docker://[a-z0-9][a-z0-9./_-]*@sha256:[0-9a-f]{64}$" "$action" || { echo "pin-action-image: the rewrite of $action did not take" >&2; exit 1; }
echo "action.yml runs docker://$ref; setup installs $tag by default"
