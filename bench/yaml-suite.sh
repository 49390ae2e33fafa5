#!/usr/bin/env bash
# The same suite as YAML and as JSONL: `evalgate check --format json` on each, in one run,
# interleaved; prints the median wall time and peak RSS of each and the YAML/JSONL ratios.
# The suite loader parses a YAML suite item by item (internal/eval/yamlsplit.go), so a
# large YAML suite costs about what the same suite as JSONL does.
#
# usage: bench/yaml-suite.sh [N]        (default N = 200000 items)
# env:   REPEAT     rounds (default 3)
#        BENCH_DIR  where data, reports and logs go (default: a new temp dir)
set -euo pipefail

n=${1:-200000}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
repeat=${REPEAT:-3}
work=${BENCH_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/evalgate-yaml-bench.XXXXXX")}
mkdir -p "$work"
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time (GNU time) is required" >&2; exit 2; }
bin=$work/evalgate
(cd "$root" && CGO_ENABLED=0 go build -trimpath -o "$bin" ./cmd/evalgate)

# Items from bench/gen.py, written as a YAML suite (block layout, one key per line), a
# JSONL suite with the same fields, and the results the check scores.
python3 "$here/gen.py" "$n" "$work/items.jsonl" >/dev/null
python3 - "$work" <<'PY'
import json, sys
w = sys.argv[1]
with open(f"{w}/items.jsonl") as src, open(f"{w}/suite.jsonl", "w") as sj, \
     open(f"{w}/suite.yaml", "w") as sy, open(f"{w}/results.jsonl", "w") as rs:
    sy.write("name: bench\nitems:\n")
    for line in src:
        r = json.loads(line)
        ec = r["expected_contains"]
        sj.write(json.dumps({"id": r["id"], "prompt": r["prompt"], "expected_contains": ec}, ensure_ascii=False) + "\n")
        sy.write("  - id: %s\n    prompt: %s\n    expected_contains:\n      english: %s\n      spanish: %s\n" % (
            r["id"], json.dumps(r["prompt"], ensure_ascii=False),
            json.dumps(ec["english"], ensure_ascii=False), json.dumps(ec["spanish"], ensure_ascii=False)))
        rs.write(json.dumps({"id": r["id"], "output": r["output"]}, ensure_ascii=False) + "\n")
PY
cp "$here/schema.json" "$work/"
for f in yaml jsonl; do
  sed "s|^name: conjugation-bench|name: conjugation-bench\nsuite: suite.$f|" "$here/evalgate.yaml" >"$work/cfg_$f.yaml"
done

median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
for r in $(seq "$repeat"); do
  for f in jsonl yaml; do
    /usr/bin/time -f '%e %M' -o "$work/$f.$r.time" "$bin" check --config "$work/cfg_$f.yaml" \
      --results "$work/results.jsonl" --format json --out "$work/report_$f.json" >"$work/$f.$r.log" 2>&1 || {
      rc=$?; [ "$rc" -eq 1 ] || { cat "$work/$f.$r.log" >&2; exit 1; }
    }
    tail -1 "$work/$f.$r.time" >>"$work/$f.times"
  done
  echo "bench: round $r of $repeat done"
done
for f in jsonl yaml; do
  printf '%-5s %d items: wall %s s, peak RSS %s KB (median of %d)\n' "$f" "$n" \
    "$(awk '{print $1}' "$work/$f.times" | median)" "$(awk '{print $2}' "$work/$f.times" | median)" "$repeat"
done
awk -v jw="$(awk '{print $1}' "$work/jsonl.times" | median)" -v yw="$(awk '{print $1}' "$work/yaml.times" | median)" \
  -v jr="$(awk '{print $2}' "$work/jsonl.times" | median)" -v yr="$(awk '{print $2}' "$work/yaml.times" | median)" \
  'BEGIN { printf "ratio YAML / JSONL: wall %.2f, peak RSS %.2f (both must stay under 2)\n", yw / jw, yr / jr }'
