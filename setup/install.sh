#!/usr/bin/env bash
# Installs an evalgate release binary and puts it on PATH: the setup action's one step
# (setup/action.yml). Runs under bash on every GitHub-hosted runner, Windows included.
#
#   EVALGATE_VERSION   v1.2.3, 1.2.3 or latest (default latest)
#   EVALGATE_BASE_URL  the releases: <base>/download/<tag>/<asset>, and <base>/latest
#                      redirects to <base>/tag/<tag> (default: evalgate's GitHub releases)
#   EVALGATE_GITHUB_TOKEN  the workflow's token: EVALGATE_TOKEN when that is empty and
#                      the base URL is on GITHUB_SERVER_URL's origin (never sent to a mirror)
#   EVALGATE_TOKEN     sent as a bearer token to the base URL's origin (scheme, host and
#                      port) only; optional. Redirects are followed here, one by one: one
#                      to another origin (GitHub sends downloads to its storage host) goes
#                      without the token and is reported; one from https to http is refused.
#                      curl reads it from its stdin, never from its command line.
#
# It downloads evalgate_<os>_<arch>.tar.gz and checksums.txt, checks the archive's
# SHA-256 (sha256sum, else shasum -a 256) before unpacking anything, and keeps the binary
# in the runner's tool cache (RUNNER_TOOL_CACHE/evalgate/<version>/<arch>), so a second
# job on the same runner downloads nothing. Outputs (GITHUB_OUTPUT): version, path.
set -euo pipefail

version=${EVALGATE_VERSION:-latest}
base=${EVALGATE_BASE_URL:-https://github.com/evalgate/evalgate/releases}
base=${base%/}
token=${EVALGATE_TOKEN:-}

die() {
  echo "::error title=evalgate setup::$*"
  echo "evalgate setup: $*" >&2
  exit 1
}

case "${RUNNER_OS:-$(uname -s)}" in
  Linux) os=linux ;;
  macOS | Darwin) os=darwin ;;
  Windows | MINGW* | MSYS* | CYGWIN*) os=windows ;;
  *) die "unsupported operating system ${RUNNER_OS:-$(uname -s)}; releases exist for Linux, macOS and Windows" ;;
esac
case "${RUNNER_ARCH:-$(uname -m)}" in
  X64 | x86_64 | amd64) arch=amd64 cache_arch=x64 ;;
  ARM64 | arm64 | aarch64) arch=arm64 cache_arch=arm64 ;;
  *) die "unsupported architecture ${RUNNER_ARCH:-$(uname -m)}; releases exist for amd64 and arm64" ;;
esac
exe=evalgate
if [ "$os" = windows ]; then exe=evalgate.exe; fi

curl_args=(--fail --silent --show-error --retry 3 --connect-timeout 20 --max-time 300)

# origin URL: its scheme, host and port, the default port written out. Plain bash
# (no tr: bash 3.2 on macOS has no ${x,,}): the scheme is lowercased by hand; a host
# spelt in another case counts as another origin, which only withholds the token.
origin() {
  local scheme=${1%%://*} rest=${1#*://} hostport port=
  case $scheme in
    [Hh][Tt][Tt][Pp][Ss]) scheme=https ;;
    [Hh][Tt][Tt][Pp]) scheme=http ;;
  esac
  hostport=${rest%%[/?#]*}
  hostport=${hostport##*@}
  case $hostport in
    *\]) ;;                                            # [v6] without a port
    *:*) port=${hostport##*:} hostport=${hostport%:*} ;; # host:port, [v6]:port
  esac
  if [ -z "$port" ]; then
    case $scheme in https) port=443 ;; http) port=80 ;; esac
  fi
  printf '%s://%s:%s' "$scheme" "$hostport" "$port"
}
# The workflow's own token (EVALGATE_GITHUB_TOKEN, used when the token input is left
# empty) goes only to this GitHub's releases (GITHUB_SERVER_URL's origin), never to a
# mirror that base-url names: a mirror gets a token only when one is given for it.
if [ -z "$token" ] && [ -n "${EVALGATE_GITHUB_TOKEN:-}" ] &&
  [ "$(origin "$base")" = "$(origin "${GITHUB_SERVER_URL:-https://github.com}")" ]; then
  token=$EVALGATE_GITHUB_TOKEN
fi
token_origin=$(origin "$base")
# The token as a double-quoted string of curl's config: backslashes and quotes escaped.
token_quoted=${token//\\/\\\\}
token_quoted=${token_quoted//\"/\\\"}

# fetch URL FILE downloads URL into FILE, following up to 10 redirects itself so that the
# token only ever goes to the base URL's origin; fetched_url is the last URL. It fails
# (returns 1) when curl does; it stops the script on a redirect it refuses.
fetch() {
  local url=$1 out=$2 hops=0 auth result code next from to
  while :; do
    # The header goes to curl through its config on stdin, never on its command line,
    # which any process on the runner can read (ps, /proc/PID/cmdline).
    auth=
    if [ -n "$token" ] && [ "$(origin "$url")" = "$token_origin" ]; then
      auth="header = \"Authorization: Bearer $token_quoted\""
    fi
    result=$(printf '%s\n' "$auth" | curl --config - "${curl_args[@]}" --output "$out" --write-out '%{http_code} %{redirect_url}' "$url") || return 1
    code=${result%% *} next=${result#* }
    case $code in
      301 | 302 | 303 | 307 | 308) ;;
      *)
        fetched_url=$url
        return 0
        ;;
    esac
    [ -n "$next" ] || die "$url answered $code without saying where to"
    hops=$((hops + 1))
    [ "$hops" -le 10 ] || die "more than 10 redirects from $1"
    from=$(origin "$url") to=$(origin "$next")
    case "$from $to" in
      "https://"*" http://"*) die "refused a redirect from $from to $to: it leaves https for plain http" ;;
    esac
    if [ -n "$token" ] && [ "$from" = "$token_origin" ] && [ "$to" != "$token_origin" ]; then
      echo "evalgate setup: followed a redirect from $from to $to without the token (it is only sent to $token_origin)"
    fi
    url=$next
  done
}

# latest: the release page <base>/latest redirects to <base>/tag/<tag>.
if [ "$version" = latest ]; then
  fetch "$base/latest" /dev/null || die "could not resolve the latest release from $base/latest"
  final=$fetched_url
  version=${final##*/}
  case "$version" in
    v[0-9]*) ;;
    *) die "$base/latest led to $final, which names no release tag" ;;
  esac
fi
case "$version" in
  v[0-9]*) tag=$version ;;
  [0-9]*) tag=v$version ;;
  *) die "version \"$version\": want a release such as v1.2.3, or latest" ;;
esac
number=${tag#v}

cache_root=${RUNNER_TOOL_CACHE:-${TMPDIR:-/tmp}/evalgate-tool-cache}
# Windows runners give C:\hostedtoolcache\windows; work with its POSIX form (/c/...) and
# hand Windows paths back to the runner at the end.
if [ "$os" = windows ] && command -v cygpath >/dev/null 2>&1; then cache_root=$(cygpath -u "$cache_root"); fi
dir=$cache_root/evalgate/$number/$cache_arch
if [ -f "$dir.complete" ] && [ -x "$dir/$exe" ]; then
  echo "evalgate $tag found in the tool cache: $dir"
else
  archive=evalgate_${os}_${arch}.tar.gz
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  echo "downloading $base/download/$tag/$archive"
  fetch "$base/download/$tag/$archive" "$tmp/$archive" ||
    die "could not download $base/download/$tag/$archive (does release $tag exist?)"
  fetch "$base/download/$tag/checksums.txt" "$tmp/checksums.txt" ||
    die "could not download $base/download/$tag/checksums.txt"

  want=$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1; exit }' "$tmp/checksums.txt")
  [ -n "$want" ] || die "checksums.txt of $tag has no line for $archive"
  if command -v sha256sum >/dev/null 2>&1; then
    got=$(sha256sum "$tmp/$archive" | awk '{ print $1 }')
  elif command -v shasum >/dev/null 2>&1; then
    got=$(shasum -a 256 "$tmp/$archive" | awk '{ print $1 }')
  else
    die "neither sha256sum nor shasum is installed: cannot verify the download"
  fi
  [ "$got" = "$want" ] || die "checksum mismatch for $archive of $tag: SHA-256 $got, checksums.txt says $want; nothing was installed"
  echo "SHA-256 verified: $got"

  mkdir -p "$tmp/unpacked"
  tar -xzf "$tmp/$archive" -C "$tmp/unpacked" || die "$archive is not a tar.gz archive"
  [ -f "$tmp/unpacked/$exe" ] || die "$archive holds no $exe"
  rm -rf "$dir" "$dir.complete"
  mkdir -p "$dir"
  mv "$tmp/unpacked/$exe" "$dir/$exe"
  chmod +x "$dir/$exe"
  touch "$dir.complete" # the tool cache's marker: the directory is whole
fi

"$dir/$exe" --version || die "the installed binary does not run: $dir/$exe"

out_dir=$dir
if [ "$os" = windows ] && command -v cygpath >/dev/null 2>&1; then out_dir=$(cygpath -w "$dir"); fi
sep=/
if [ "$os" = windows ]; then sep="\\"; fi
if [ -n "${GITHUB_PATH:-}" ]; then echo "$out_dir" >>"$GITHUB_PATH"; fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  {
    echo "version=$tag"
    echo "path=$out_dir$sep$exe"
  } >>"$GITHUB_OUTPUT"
fi
echo "evalgate $tag installed: $out_dir$sep$exe"
