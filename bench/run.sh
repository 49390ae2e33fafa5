#!/usr/bin/env bash
# Benchmarks evalgate against the floor and against promptfoo 0.123.1 on the same data, in
# one run, and checks evalgate scores every item exactly as the generator says it should.
#
# usage: bench/run.sh N [N...]        e.g. bench/run.sh 10000     bench/run.sh 1000000
#
# For each N, bench/gen.py writes N items (suite fields and a precomputed output on each
# record, plus the generator's ground truth meta.score / meta.pass). Then $REPEAT rounds,
# each running, one after the other (interleaved, so a busy moment hits all of them):
#   floor      bench/floor: single-threaded encoding/json.Unmarshal of every line into a
#              map[string]any, nothing else (the least any tool must do)
#   evalgate   evalgate check --config bench/evalgate.yaml --results DATA --format json --out REPORT
#   mkbase     (BASELINE=1) evalgate baseline --config bench/evalgate.yaml --results DATA --out BASE:
#              the baseline of the same N items (items, and recorded outputs beside it)
#   baseline   (BASELINE=1) the same check against that baseline: --baseline BASE
#   promptfoo  (N <= PEER_MAX) bench/run-promptfoo.sh DATA: promptfoo 0.123.1 on Node 22, both
#              installed from npm on first use, same four checks and weights
# Every process runs under GNU time: wall time and maximum resident set size. The script
# prints the median of each and the ratios, writes them to summary.tsv, and checks every
# item's score and pass in evalgate's report against meta.score and meta.pass
# (bench/verify; any difference fails the script).
#
# env: REPEAT     rounds (default 3)
#      PEER_MAX   largest N promptfoo runs on (default 10000; 0 skips promptfoo)
#      BASELINE   1: also time the check against a baseline of the same N items
#      COMPRESS   gz: evalgate reads DATA.jsonl.gz (the floor still reads the plain file)
#      MAX_MEMORY passed to evalgate as --max-memory (default: 4GiB when an N is over
#                 5,000,000, else evalgate's own default of 1GiB)
#      BENCH_DIR  where data, reports and logs go (default: a new temp dir); data files
#                 already there are reused
set -euo pipefail

[ $# -ge 1 ] || { echo "usage: bench/run.sh N [N...]" >&2; exit 2; }
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
repeat=${REPEAT:-3}
peer_max=${PEER_MAX:-10000}
with_base=${BASELINE:-0}
compress=${COMPRESS:-}
work=${BENCH_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/evalgate-bench.XXXXXX")}
mkdir -p "$work"
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time (GNU time) is required" >&2; exit 2; }
case "$compress" in "" | gz) ;; *) echo "bench: COMPRESS=$compress; want gz or nothing" >&2; exit 2 ;; esac

bin=$work/evalgate
mem=()
# evalgate keeps ~150 B per item (ids, hashes, scores), so past a few million items the
# default --max-memory (1 GiB) refuses the suite with a message naming --max-memory and
# --shard; the bench raises the limit instead, and says so.
if [ -z "${MAX_MEMORY:-}" ]; then
  for n in "$@"; do
    if [ "$n" -gt 5000000 ]; then
      MAX_MEMORY=4GiB
      echo "bench: $n items: passing --max-memory 4GiB (set MAX_MEMORY to choose another limit)"
      break
    fi
  done
fi
[ -n "${MAX_MEMORY:-}" ] && mem=(--max-memory "$MAX_MEMORY")
(cd "$root" && CGO_ENABLED=0 go build -trimpath -o "$bin" ./cmd/evalgate &&
  go build -o "$work/floor" ./bench/floor && go build -o "$work/verify" ./bench/verify)
echo "bench: evalgate $("$bin" --version | awk '{print $2}'), $(go version | awk '{print $3}'), $(nproc) CPU(s), work dir $work"

median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

# timed NAME LOG CMD...: runs CMD under GNU time; appends "wall_s rss_kb" to $work/NAME.times.
timed() {
  local name=$1 log=$2
  shift 2
  set +e
  /usr/bin/time -f '%e %M' -o "$log.time" "$@" >"$log" 2>&1
  local rc=$?
  set -e
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
    tail -20 "$log" >&2
    echo "bench: $name exited $rc: $*" >&2
    exit 1
  fi
  tail -1 "$log.time" >>"$work/$name.times"
}

# stat NAME COLUMN: median of column 1 (wall s) or 2 (peak RSS KB) of NAME's runs.
stat() { awk -v c="$2" '{ print $c }' "$work/$1.times" | median; }
runs() { awk -v c="$2" '{ printf "%s%s", sep, $c; sep = " " } END { print "" }' "$work/$1.times"; }

summary=$work/summary.tsv
printf 'items\ttool\twall_s_median\tpeak_rss_kb_median\truns_wall_s\n' >"$summary"
for n in "$@"; do
  data=$work/items_$n.jsonl
  [ -s "$data" ] || python3 "$here/gen.py" "$n" "$data" 2>/dev/null
  input=$data
  if [ "$compress" = gz ]; then
    input=$data.gz
    [ -s "$input" ] || gzip -k -1 "$data"
  fi
  report=$work/report_$n.json
  base=$work/baselines/bench_$n.json  # a directory of its own: evalgate baseline indexes every baseline beside it
  mkdir -p "$work/baselines"
  tools="floor evalgate"
  [ "$with_base" = 1 ] && tools="$tools mkbase baseline"
  [ "$n" -le "$peer_max" ] && tools="$tools promptfoo"
  for t in $tools; do rm -f "$work/${t}_$n.times"; done
  for ((r = 1; r <= repeat; r++)); do
    timed "floor_$n" "$work/floor_${n}_$r.log" "$work/floor" "$data"
    timed "evalgate_$n" "$work/evalgate_${n}_$r.log" "$bin" check --config "$here/evalgate.yaml" --results "$input" --format json --out "$report" "${mem[@]}"
    if [ "$with_base" = 1 ]; then
      timed "mkbase_$n" "$work/mkbase_${n}_$r.log" "$bin" baseline --config "$here/evalgate.yaml" --results "$input" --out "$base" "${mem[@]}"
      timed "baseline_$n" "$work/baseline_${n}_$r.log" "$bin" check --config "$here/evalgate.yaml" --results "$input" --baseline "$base" --format json --out "$work/report_base_$n.json" "${mem[@]}"
      grep -q '"compared_items": '"$n"',' "$work/report_base_$n.json" || { echo "bench: the check against the baseline did not compare all $n items" >&2; exit 1; }
    fi
    if [ "$n" -le "$peer_max" ]; then
      line=$("$here/run-promptfoo.sh" "$data" "$work/promptfoo_${n}_$r.jsonl" | tail -1)
      w=$(sed -n 's/.*wall \([0-9.]*\) s,.*/\1/p' <<<"$line")
      k=$(sed -n 's/.*peak RSS \([0-9]*\) KB.*/\1/p' <<<"$line")
      [ -n "$w" ] && [ -n "$k" ] || { echo "bench: cannot read promptfoo's wall time and RSS from: $line" >&2; exit 1; }
      echo "$w $k" >>"$work/promptfoo_$n.times"
    fi
    echo "bench: $n items, round $r of $repeat done"
  done
  "$work/verify" "$input" "$report"
  for t in $tools; do
    printf '%s\t%s\t%s\t%s\t%s\n' "$n" "$t" "$(stat "${t}_$n" 1)" "$(stat "${t}_$n" 2)" "$(runs "${t}_$n" 1)" >>"$summary"
    printf '%-9s %8d items: wall %8.2f s (runs: %s), peak RSS %7.1f MiB (runs KB: %s)\n' "$t" "$n" \
      "$(stat "${t}_$n" 1)" "$(runs "${t}_$n" 1)" "$(awk -v k="$(stat "${t}_$n" 2)" 'BEGIN { print k / 1024 }')" "$(runs "${t}_$n" 2)"
  done
  ew=$(stat "evalgate_$n" 1) er=$(stat "evalgate_$n" 2)
  fw=$(stat "floor_$n" 1) fr=$(stat "floor_$n" 2)
  awk -v n="$n" -v ew="$ew" -v fw="$(awk -v f="$fw" 'BEGIN { print (f > 0.01) ? f : 0.01 }')" -v er="$er" -v fr="$fr" 'BEGIN {
    printf "ratio %d items: evalgate / floor wall time %.2f (%.0f items/s end to end, %.2f us per item); peak RSS %.0f MiB (floor %.0f MiB)\n",
      n, ew / fw, n / ew, ew * 1e6 / n, er / 1024, fr / 1024 }'
  if [ "$with_base" = 1 ]; then
    awk -v n="$n" -v mw="$(stat "mkbase_$n" 1)" -v mr="$(stat "mkbase_$n" 2)" -v fw="$(awk -v f="$fw" 'BEGIN { print (f > 0.01) ? f : 0.01 }')" 'BEGIN {
      printf "ratio %d items, making their baseline: wall %.2f s (%.2f x floor), peak RSS %.0f MiB\n", n, mw, mw / fw, mr / 1024 }'
    awk -v n="$n" -v bw="$(stat "baseline_$n" 1)" -v br="$(stat "baseline_$n" 2)" -v ew="$ew" -v fw="$(awk -v f="$fw" 'BEGIN { print (f > 0.01) ? f : 0.01 }')" 'BEGIN {
      printf "ratio %d items against a %d-item baseline: wall %.2f s (%.2f x floor, %.2f x the check without a baseline, %.2f us per item), peak RSS %.0f MiB\n", n, n, bw, bw / fw, bw / ew, bw * 1e6 / n, br / 1024 }'
  fi
  if [ "$n" -le "$peer_max" ]; then
    awk -v n="$n" -v ew="$ew" -v pw="$(stat "promptfoo_$n" 1)" -v er="$er" -v pr="$(stat "promptfoo_$n" 2)" 'BEGIN {
      printf "ratio %d items: evalgate / promptfoo wall time %.4f (%.0fx faster), peak RSS %.4f (%.1fx less)\n",
        n, ew / pw, pw / ew, er / pr, pr / er }'
  fi
done
# Several sizes: evalgate's time per item at each, against the first size's (the scale-up cost).
if [ $# -gt 1 ]; then
  awk -F'\t' 'NR > 1 && ($2 == "evalgate" || $2 == "baseline" || $2 == "floor") {
    per = $3 / $1; if (!($2 in first)) { first[$2] = per; n0[$2] = $1 }
    printf "per item %-9s %9d items: %.2f us per item, %.2f x its %d-item figure\n", $2, $1, per * 1e6, per / first[$2], n0[$2] }' "$summary"
fi
echo "bench: summary in $summary"
