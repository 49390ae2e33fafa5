#!/usr/bin/env bash
# Benchmarks evalgate on the peer benchmark's regression set and checks it scores every
# item exactly as the generator says it should.
#
# usage: bench/run.sh N [N...]        e.g. bench/run.sh 1000 10000
#
# For each N: bench/gen.py writes N items (suite fields and the precomputed output on each
# record); the built evalgate binary runs `check --format json` over them under
# /usr/bin/time -v (median wall time and peak RSS of $REPEAT runs); every item's score
# and pass in evalgate's report are compared with the generator's meta.score and
# meta.pass (any difference fails the script). Then, when the peer script is there, the
# same file goes through promptfoo (run-promptfoo.sh, which installs Node 22 and
# promptfoo 0.123.1 on first use) in the same run, and the ratios are printed.
#
# env: REPEAT        runs per measurement (default 3)
#      PEER          the peer script (default /work/shared/bench/run-promptfoo.sh);
#                    PEER=none skips it
#      BENCH_DIR     where data, reports and logs go (default: a new temp dir)
set -euo pipefail

[ $# -ge 1 ] || { echo "usage: bench/run.sh N [N...]" >&2; exit 2; }
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
repeat=${REPEAT:-3}
peer=${PEER:-/work/shared/bench/run-promptfoo.sh}
work=${BENCH_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/evalgate-bench.XXXXXX")}
mkdir -p "$work"
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time (GNU time) is required" >&2; exit 2; }

bin=$work/evalgate
(cd "$root" && CGO_ENABLED=0 go build -trimpath -o "$bin" ./cmd/evalgate)
echo "bench: evalgate $("$bin" --version | awk '{print $2}'), $(go version | awk '{print $3}'), $(nproc) CPU(s), work dir $work"

# seconds converts GNU time's "h:mm:ss" or "m:ss.ss" to seconds.
seconds() { awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.2f", s }' <<<"$1"; }
median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

# verify DATA REPORT: every item's score and pass equal meta.score and meta.pass.
verify() {
  python3 - "$1" "$2" <<'EOF'
import json, sys
data, report = sys.argv[1], sys.argv[2]
meta = {}
with open(data, encoding="utf-8") as f:
    for line in f:
        rec = json.loads(line)
        meta[rec["id"]] = rec["meta"]
items = json.load(open(report, encoding="utf-8"))["items"]
bad = [(it["item"], it["score"], meta[it["item"]]["score"]) for it in items
       if round(it["score"], 6) != meta[it["item"]]["score"] or it["pass"] != meta[it["item"]]["pass"]]
if len(items) != len(meta):
    sys.exit(f"verify: report has {len(items)} items; data has {len(meta)}")
if bad:
    for b in bad[:10]:
        print(f"verify: {b[0]}: evalgate {b[1]}, meta.score {b[2]}", file=sys.stderr)
    sys.exit(f"verify: {len(bad)} of {len(items)} items differ from meta.score / meta.pass")
print(f"verify: all {len(items)} item scores and pass flags equal meta.score and meta.pass")
EOF
}

summary=$work/summary.tsv
printf 'items\ttool\twall_s\tpeak_rss_kb\n' >"$summary"
for n in "$@"; do
  data=$work/items_$n.jsonl
  python3 "$here/gen.py" "$n" "$data" 2>/dev/null
  walls=() rsss=()
  for ((r = 1; r <= repeat; r++)); do
    log=$work/time_evalgate_${n}_$r.log
    out=$work/report_$n.json
    set +e
    /usr/bin/time -v "$bin" check --config "$here/evalgate.yaml" --results "$data" --format json --out "$out" 2>"$log"
    rc=$?
    set -e
    if [ "$rc" -ne 0 ]; then
      cat "$log" >&2
      echo "bench: evalgate exited $rc on $n items" >&2
      exit 1
    fi
    walls+=("$(seconds "$(grep 'Elapsed (wall clock)' "$log" | awk '{print $NF}')")")
    rsss+=("$(grep 'Maximum resident set size' "$log" | awk '{print $NF}')")
  done
  ew=$(printf '%s\n' "${walls[@]}" | median)
  er=$(printf '%s\n' "${rsss[@]}" | median)
  printf '%s\tevalgate\t%s\t%s\n' "$n" "$ew" "$er" >>"$summary"
  echo "evalgate $n items: wall ${ew} s (runs: ${walls[*]}), peak RSS $((er / 1024)) MiB ($(awk -v n="$n" -v w="$ew" 'BEGIN { printf "%.0f", n / w }') items/s end to end)"
  verify "$data" "$work/report_$n.json"

  if [ "$peer" = none ]; then
    echo "peer: skipped (PEER=none)"
    continue
  fi
  if [ ! -x "$peer" ]; then
    echo "peer: skipped ($peer not found; set PEER=/path/to/run-promptfoo.sh to compare with promptfoo)"
    continue
  fi
  pwalls=() prsss=()
  for ((r = 1; r <= repeat; r++)); do
    line=$("$peer" "$data" "$work/promptfoo_${n}_$r.jsonl" | tail -1)
    echo "  $line"
    w=$(sed -n 's/.*wall \([0-9:.]*\),.*/\1/p' <<<"$line")
    k=$(sed -n 's/.*peak RSS \([0-9]*\) KB.*/\1/p' <<<"$line")
    if [ -z "$w" ] || [ -z "$k" ]; then
      echo "peer: could not read wall time and RSS from: $line" >&2
      continue 2
    fi
    pwalls+=("$(seconds "$w")")
    prsss+=("$k")
  done
  pw=$(printf '%s\n' "${pwalls[@]}" | median)
  pr=$(printf '%s\n' "${prsss[@]}" | median)
  printf '%s\tpromptfoo\t%s\t%s\n' "$n" "$pw" "$pr" >>"$summary"
  echo "promptfoo $n items: wall ${pw} s (runs: ${pwalls[*]}), peak RSS $((pr / 1024)) MiB"
  awk -v n="$n" -v ew="$ew" -v pw="$pw" -v er="$er" -v pr="$pr" 'BEGIN {
    printf "ratio %d items: evalgate takes %.3f of promptfoo'"'"'s wall time (%.0fx faster) and %.3f of its peak RSS (%.0fx less)\n",
      n, ew / pw, pw / ew, er / pr, pr / er }'
done
echo "bench: summary in $summary"
