#!/usr/bin/env bash
# Takes the pictures in docs/img that README.md and docs/action.md show: the PR comment
# (rendered as GitHub renders markdown) and the HTML report (its first failing row
# opened) for a blocked, an inconclusive and a passing pull request. Needs chromium
# (scripts/install-test-tools.sh installs it) and, for the comment's ✅ ❌ ⚠️, an
# emoji font (Debian: fonts-noto-color-emoji). Not part of the test run.
#   blocked       examples/tutor-capstone, results/regressed.jsonl (three answers broken)
#   inconclusive  a 60-item suite whose 3-run baseline has six unstable items; the pull
#                 request moves only those (the drop is within the suite's noise)
#   passing       examples/tutor-capstone, results/improved.jsonl
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/evalgate" ./cmd/evalgate
go build -o "$work/screenshots" ./scripts/screenshots
eg=$work/evalgate

# check NAME ARGS...: the markdown comment and the HTML report of one check (a
# blocked check exits 1, an inconclusive one 0).
check() {
  local name=$1; shift
  for f in markdown html; do
    "$eg" check --quiet "$@" --format "$f" --out "$work/$name.${f/markdown/md}" || [ $? = 1 ]
  done
}
tutor=examples/tutor-capstone
check blocked --config "$tutor/evalgate.yaml" --results "$tutor/results/regressed.jsonl"
check passing --config "$tutor/evalgate.yaml" --results "$tutor/results/improved.jsonl"

# The inconclusive suite: q01–q06 unstable in the baseline (q01–q03 pass runs 1 and 2,
# q04–q06 run 3), q07–q57 always pass, q58–q60 always fail; the pull request passes
# only q01 of the unstable six.
sixty=$work/sixty
mkdir -p "$sixty"
{
  echo "items:"
  for i in $(seq -w 1 60); do echo "  - {id: q$i, prompt: \"question $i\", expected_contains: [yes]}"; done
} >"$sixty/suite.yaml"
cat >"$sixty/evalgate.yaml" <<'YAML'
name: sixty
suite: suite.yaml
baseline: baseline.jsonl
scoring:
  version: scoringSystem/1.0.0
  dimensions:
    - {name: correctness, weight: 1.0, scorer: contains}
grading:
  version: gradingSystem/1.0.0
  regression: {max_drop: 0.02}
YAML
answer() { # ITEM PASSES
  if [ "$2" = 1 ]; then printf '{"id":"q%s","output":"yes"}\n' "$1"; else printf '{"id":"q%s","output":"no"}\n' "$1"; fi
}
for run in 1 2 3; do
  for i in $(seq -w 1 60); do
    case "$i:$run" in
      5[89]:* | 60:*) answer "$i" 0 ;;
      0[1-3]:[12] | 0[4-6]:3) answer "$i" 1 ;;
      0[1-6]:*) answer "$i" 0 ;;
      *) answer "$i" 1 ;;
    esac
  done >"$sixty/base$run.jsonl"
done
for i in $(seq -w 1 60); do
  case "$i" in 5[89] | 60 | 0[2-6]) answer "$i" 0 ;; *) answer "$i" 1 ;; esac
done >"$sixty/pr.jsonl"
# From its folder, so the commands the report prints read as a user's would.
(
  cd "$sixty"
  "$eg" baseline --results base1.jsonl --results base2.jsonl --results base3.jsonl --out baseline.jsonl >/dev/null
  check inconclusive --results pr.jsonl
)

args=()
for name in blocked inconclusive passing; do
  args+=("docs/img/comment-$name.png=$work/$name.md" "docs/img/report-$name.png=$work/$name.html")
done
"$work/screenshots" "${args[@]}"
