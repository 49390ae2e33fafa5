#!/usr/bin/env bash
# Peak memory of `evalgate import` at two sizes or more: what import holds grows with the
# records only by the ids it refuses repeats of (a compact key set), never by what a
# record holds, so the peak RSS per record does not grow with the file.
#
# usage: bench/import-mem.sh [N...]        (default: 100000 1000000)
#
# For each N, bench/gen-tools.py writes N records in each format (data reused from
# $BENCH_DIR/data-N when there), and `evalgate import FILE --out-dir DIR` runs once per
# format under GNU time. It prints the peak RSS, the RSS per record, and between each
# size and the next, the growth per added record ((RSS₂ − RSS₁) / (N₂ − N₁)), and writes
# them to $BENCH_DIR/import-mem.tsv.
#
# env: BENCH_DIR  where data, outputs and logs go (default: a new temp dir)
#      FORMATS    the formats, of promptfoo inspect inspect-eval lmeval (default all)
#      EVALGATE   the binary to measure (default: built from this tree)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(100000 1000000)
work=${BENCH_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/evalgate-import-mem.XXXXXX")}
mkdir -p "$work"
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time (GNU time) is required" >&2; exit 2; }
bin=${EVALGATE:-}
if [ -z "$bin" ]; then
  bin=$work/evalgate
  (cd "$root" && CGO_ENABLED=0 go build -trimpath -o "$bin" ./cmd/evalgate)
fi
lm=samples_bench_2024-06-01T12-00-00.jsonl
printf 'format\trecords\trss_kb\tbytes_per_record\tgrowth_bytes_per_record\n' >"$work/import-mem.tsv"
for fmt in promptfoo:promptfoo.json inspect:inspect.json inspect-eval:inspect.eval lmeval:$lm; do
  name=${fmt%%:*} file=${fmt#*:}
  case " ${FORMATS:-promptfoo inspect inspect-eval lmeval} " in *" $name "*) ;; *) continue ;; esac
  prev_n= prev_rss=
  for n in "${sizes[@]}"; do
    data=$work/data-$n
    if [ ! -f "$data/$lm" ] || [ ! -f "$data/inspect.eval" ]; then
      mkdir -p "$data"
      python3 "$here/gen-tools.py" "$n" "$data"
    fi
    rm -rf "$work/out"
    /usr/bin/time -f '%M' -o "$work/time" "$bin" import "$data/$file" --out-dir "$work/out" >"$work/$name-$n.log" 2>&1 || {
      tail -5 "$work/$name-$n.log" >&2
      echo "bench: import of $data/$file failed" >&2
      exit 1
    }
    rss=$(tail -1 "$work/time")
    growth=-
    [ -z "$prev_n" ] || growth=$(( (rss - prev_rss) * 1024 / (n - prev_n) ))
    printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$n" "$rss" "$(( rss * 1024 / n ))" "$growth" | tee -a "$work/import-mem.tsv"
    prev_n=$n prev_rss=$rss
  done
done
rm -rf "$work/out"
column -t "$work/import-mem.tsv"
