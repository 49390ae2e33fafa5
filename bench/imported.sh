#!/usr/bin/env bash
# Times evalgate reading other tools' files directly against the same items as evalgate
# JSONL, side by side in one run: a promptfoo export, an Inspect log (as `.json` and as a
# `.eval` archive) and lm-eval samples.
#
# usage: bench/imported.sh [N]        (default N = 1000000)
#
# bench/gen-tools.py writes N records in each format (promptfoo `-o results.json` and an
# Inspect EvalLog, each one JSON document; the same EvalLog as a `.eval` zip archive, one
# deflated member per sample; lm-eval samples JSONL). bench/toolconv writes each
# as the evalgate JSONL `evalgate check` reads it as (the same records, suite fields
# included). Then $REPEAT rounds, each running one after the other (interleaved, so a busy
# moment hits both) for every format:
#   direct   evalgate score --config FORMAT.yaml TOOL-FILE --format json --out REPORT
#   native   evalgate score --config FORMAT.yaml NATIVE.jsonl --format json --out REPORT
# under GNU time (wall time, user + system CPU time, maximum resident set size) and nice.
# It prints the medians and the ratios direct / native (wall, CPU, RSS), and the median of
# the rounds' own wall ratios (each direct run against the native run right after it, so
# that a busy moment weighs on both sides of one ratio), writes them to
# $BENCH_DIR/imported.tsv, records the load average before and after every round (the CPU
# times mean something on a busy machine, the walls less so), and fails when the two reports
# of a format differ in their runs, mean or pass count.
#
# env: REPEAT     rounds (default 3)
#      BENCH_DIR  where data, reports and logs go (default: a new temp dir); data files
#                 already there are reused
#      FORMATS    the formats to time, of promptfoo inspect inspect-eval lmeval (default all)
set -euo pipefail

n=${1:-1000000}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
repeat=${REPEAT:-3}
work=${BENCH_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/evalgate-imported.XXXXXX")}
mkdir -p "$work"
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time (GNU time) is required" >&2; exit 2; }
(cd "$root" && CGO_ENABLED=0 go build -trimpath -o "$work/evalgate" ./cmd/evalgate && go build -o "$work/toolconv" ./bench/toolconv)
echo "bench: evalgate $("$work/evalgate" --version | awk '{print $2}'), $(go version | awk '{print $3}'), $(nproc) CPU(s), $n records, work dir $work"

data=$work/data-$n
lm=samples_bench_2024-06-01T12-00-00.jsonl
if [ ! -f "$data/$lm" ] || [ ! -f "$data/inspect.eval" ]; then
  mkdir -p "$data"
  python3 "$here/gen-tools.py" "$n" "$data"
fi
for f in promptfoo.json inspect.json inspect.eval $lm; do
  case " ${FORMATS:-promptfoo inspect inspect-eval lmeval} " in *" $(echo "$f" | sed 's/promptfoo.json/promptfoo/; s/inspect.json/inspect/; s/inspect.eval/inspect-eval/; s/^samples_.*/lmeval/') "*) ;; *) continue ;; esac
  [ -f "$data/$f.native.jsonl" ] || "$work/toolconv" "$data/$f" "$data/$f.native.jsonl"
done

dims() { printf 'name: %s\nscoring:\n  version: scoringSystem/1.0.0\n  dimensions:\n    - {name: d, key: %s, scorer: recorded, scale: unit, weight: 1}\ngrading:\n  version: gradingSystem/1.0.0\n' "$1" "$2"; }
dims promptfoo score >"$work/promptfoo.yaml"
dims inspect match >"$work/inspect.yaml"
dims inspect match >"$work/inspect-eval.yaml"
dims lmeval exact_match >"$work/lmeval.yaml"

median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

# timed NAME CMD...: runs CMD niced under GNU time; appends "wall_s rss_kb cpu_s" to
# $work/NAME.times (cpu_s = user + system).
timed() {
  local name=$1
  shift
  set +e
  nice /usr/bin/time -f '%e %M %U %S' -o "$work/$name.time" "$@" >"$work/$name.log" 2>&1
  local rc=$?
  set -e
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
    tail -20 "$work/$name.log" >&2
    echo "bench: $name exited $rc: $*" >&2
    exit 1
  fi
  tail -1 "$work/$name.time" | awk '{ printf "%s %s %.2f\n", $1, $2, $3 + $4 }' >>"$work/$name.times"
}

formats=
for fmt in promptfoo:promptfoo.json inspect:inspect.json inspect-eval:inspect.eval lmeval:$lm; do
  case " ${FORMATS:-promptfoo inspect inspect-eval lmeval} " in *" ${fmt%%:*} "*) formats="$formats $fmt" ;; esac
done
for fmt in $formats; do rm -f "$work/${fmt%%:*}-direct.times" "$work/${fmt%%:*}-native.times"; done
: >"$work/load.txt"
for r in $(seq "$repeat"); do
  echo "round $r start: $(uptime)" >>"$work/load.txt"
  for fmt in $formats; do
    name=${fmt%%:*} file=$data/${fmt#*:}
    timed "$name-direct" "$work/evalgate" score --config "$work/$name.yaml" "$file" --format json --out "$work/$name-direct.json"
    timed "$name-native" "$work/evalgate" score --config "$work/$name.yaml" "$file.native.jsonl" --format json --out "$work/$name-native.json"
  done
  echo "round $r end:   $(uptime)" >>"$work/load.txt"
  echo "bench: round $r of $repeat done ($(uptime | sed 's/.*load average/load average/'))"
done

# The same items scored the same: runs, mean and pass count agree.
python3 - "$work" $formats <<'EOF'
import json, sys
work = sys.argv[1]
for fmt in sys.argv[2:]:
    name = fmt.split(":")[0]
    got = []
    for kind in ("direct", "native"):
        s = json.load(open(f"{work}/{name}-{kind}.json"))["summary"]
        got.append((s.get("runs"), s.get("mean"), s.get("passed"), s.get("items")))
    if got[0] != got[1]:
        sys.exit(f"bench: {name}: direct {got[0]} != native {got[1]}")
    print(f"bench: {name}: direct = native (runs, mean, passed, items) = {got[0]}")
EOF

printf 'format\trecords\tdirect_wall_s\tnative_wall_s\twall_ratio\tround_ratio\tdirect_cpu_s\tnative_cpu_s\tcpu_ratio\tdirect_rss_kb\tnative_rss_kb\trss_ratio\n' >"$work/imported.tsv"
for fmt in $formats; do
  name=${fmt%%:*}
  dw=$(awk '{print $1}' "$work/$name-direct.times" | median)
  nw=$(awk '{print $1}' "$work/$name-native.times" | median)
  dr=$(awk '{print $2}' "$work/$name-direct.times" | median)
  nr=$(awk '{print $2}' "$work/$name-native.times" | median)
  dc=$(awk '{print $3}' "$work/$name-direct.times" | median)
  nc=$(awk '{print $3}' "$work/$name-native.times" | median)
  rr=$(paste -d' ' "$work/$name-direct.times" "$work/$name-native.times" | awk '{ printf "%.4f\n", $1 / $4 }' | median)
  printf '%s\t%s\t%s\t%s\t%.2f\t%.2f\t%s\t%s\t%.2f\t%s\t%s\t%.2f\n' "$name" "$n" "$dw" "$nw" "$(echo "$dw / $nw" | bc -l)" "$rr" "$dc" "$nc" "$(echo "$dc / $nc" | bc -l)" "$dr" "$nr" "$(echo "$dr / $nr" | bc -l)" >>"$work/imported.tsv"
  echo "bench: $name wall/CPU s direct: $(awk '{printf "%s/%s ", $1, $3}' "$work/$name-direct.times") native: $(awk '{printf "%s/%s ", $1, $3}' "$work/$name-native.times")"
done
column -t "$work/imported.tsv"
cat "$work/load.txt"
