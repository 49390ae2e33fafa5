#!/usr/bin/env bash
# Prints the README's speed table from a summary.tsv that bench/run.sh wrote: for every
# size where promptfoo ran, the medians of wall time and peak RSS (GNU time's maximum
# resident set size) of evalgate and promptfoo, their ratios, and each run's wall time.
#
# usage: bench/readme-table.sh SUMMARY.tsv
#   e.g. REPEAT=3 BENCH_DIR=/tmp/b bench/run.sh 10000 && bench/readme-table.sh /tmp/b/summary.tsv
# The measured summary behind the README is kept in bench/results/ (a test checks the
# README's table is this script's output for it).
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: bench/readme-table.sh SUMMARY.tsv" >&2; exit 2; }
awk -F'\t' '
NR == 1 { next }
{ wall[$1, $2] = $3; rss[$1, $2] = $4; runs[$1, $2] = $5; if (!($1 in seen)) { seen[$1] = 1; order[++k] = $1 } }
END {
  print "| items | evalgate wall | promptfoo wall | evalgate / promptfoo wall | evalgate peak RSS | promptfoo peak RSS | evalgate / promptfoo RSS |"
  print "|---:|---:|---:|---:|---:|---:|---:|"
  rows = 0
  for (i = 1; i <= k; i++) {
    n = order[i]
    if (!((n, "promptfoo") in wall) || !((n, "evalgate") in wall)) continue
    ew = wall[n, "evalgate"]; pw = wall[n, "promptfoo"]; er = rss[n, "evalgate"] / 1024; pr = rss[n, "promptfoo"] / 1024
    printf "| %s | %.2f s | %.1f s | **%.4f** (%.0f× faster) | %.0f MiB | %.0f MiB | **%.3f** (%.1f× less) |\n",
      commas(n), ew, pw, ew / pw, pw / ew, er, pr, er / pr, pr / er
    rows++
  }
  if (rows == 0) { print "bench/readme-table.sh: no size with both evalgate and promptfoo in the summary" > "/dev/stderr"; exit 1 }
  print ""
  for (i = 1; i <= k; i++) {
    n = order[i]
    if (!((n, "promptfoo") in wall)) continue
    nr = split(runs[n, "evalgate"], r, " ")
    printf "Medians of %d interleaved runs at %s items; wall time of each run: evalgate %s s, promptfoo %s s", nr, commas(n), join(r, nr), runs[n, "promptfoo"] == "" ? "-" : joinstr(runs[n, "promptfoo"])
    if ((n, "floor") in wall) printf "; the floor (decoding each line with `encoding/json`, nothing else) %.2f s, %.0f MiB", wall[n, "floor"], rss[n, "floor"] / 1024
    print "."
  }
}
function commas(n,    s, out) {
  s = sprintf("%d", n); out = ""
  while (length(s) > 3) { out = "," substr(s, length(s) - 2) out; s = substr(s, 1, length(s) - 3) }
  return s out
}
function join(a, n,    i, s) { s = a[1]; for (i = 2; i <= n; i++) s = s ", " a[i]; return s }
function joinstr(str,    a, n) { n = split(str, a, " "); return join(a, n) }
' "$1"
