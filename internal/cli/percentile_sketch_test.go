package cli

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/report"
	"github.com/evalgate/evalgate/internal/stats"
)

// TestShardsMergedEqualUnshardedSketched: with latency percentiles past the switch to
// the sketch (lowered here to 100 latencies so 2,000 items reach it), four shards
// merged still give the unsharded report byte for byte, and check --report on it too;
// the report says the percentiles are estimated, with the bound, in every format, and
// the latency gate decided on one says so. The estimate is within the bound of the
// exact percentile.
func TestShardsMergedEqualUnshardedSketched(t *testing.T) {
	old := stats.ExactQuantilesUpTo
	stats.ExactQuantilesUpTo = 100
	t.Cleanup(func() { stats.ExactQuantilesUpTo = old })

	dir := benchDir(t)
	cfgPath := filepath.Join(dir, "evalgate.yaml")
	cfg, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	passGate := "    - {name: pass rate, metric: pass_rate, min: 0.75, level: soft}\n"
	if !bytes.Contains(cfg, []byte(passGate)) {
		t.Fatalf("bench/evalgate.yaml has no pass rate gate line to add a latency gate after")
	}
	cfg = bytes.Replace(cfg, []byte(passGate), []byte(passGate+"    - {name: p95 latency, metric: latency_e2e_p95_ms, max: 1000, level: soft}\n"), 1)
	if err := os.WriteFile(cfgPath, cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	recs := benchRecords(2000)
	results := filepath.Join(dir, "items.jsonl")
	writeJSONL(t, results, recs)

	whole, shards := mergedEqualsUnsharded(t, "sketched", cfgPath, []string{results})
	defer whole.Close()
	// Each shard (about 167 latencies, past 100) carries its latency sketch instead of
	// the per-item latencies; the token counts stay per item.
	for _, p := range shards {
		pt, err := report.ReadShardReport(p)
		if err != nil {
			t.Fatal(err)
		}
		st := pt.ShardState.Runs[0]
		if _, raw := st.Numbers["latency_e2e_ms"]; raw || st.Sketches["latency_e2e_ms"] == nil || st.Numbers["input_tokens"] == nil {
			t.Errorf("%s: numbers %v, sketches %v; want latency_e2e_ms as a sketch only, tokens per item", p, slices.Sorted(maps.Keys(st.Numbers)), slices.Sorted(maps.Keys(st.Sketches)))
		}
	}

	// A partial report whose sketch does not fit is refused, naming the file.
	data, err := os.ReadFile(shards[0])
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "shard1.json")
	if err := os.WriteFile(bad, bytes.ReplaceAll(data, []byte(`"relative_accuracy": 0.01`), []byte(`"relative_accuracy": 0.02`)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = checkReports(context.Background(), CheckOptions{CheckPlan: CheckPlan{Config: cfgPath, NoBaseline: true}}, append([]string{bad}, shards[1:]...))
	if err == nil || !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), "relative accuracy 0.02") {
		t.Errorf("merge with a sketch of another accuracy: %v; want an error naming %s and the accuracy", err, bad)
	}

	var lats []float64
	for _, r := range recs {
		if v, ok := r["latency_e2e_ms"].(float64); ok {
			lats = append(lats, v)
		}
	}
	est, ok := whole.Summary.Estimates["latency_e2e_p95_ms"]
	if !ok || est.Values != len(lats) || est.RelativeError != stats.SketchRelativeAccuracy || est.Method != "DDSketch" || est.ExactUpTo != 100 {
		t.Fatalf("summary estimates %+v; want latency_e2e_p95_ms estimated by a DDSketch of %d values, ±1 %%", whole.Summary.Estimates, len(lats))
	}
	for _, p := range []float64{50, 95} {
		name := map[float64]string{50: "latency_e2e_p50_ms", 95: "latency_e2e_p95_ms"}[p]
		exact := exactPercentile(lats, p)
		got := whole.Summary.Metrics[name]
		// The latencies are integers from 100 to 999 (every third item has one): the
		// values of rank ⌊h⌋ and ⌊h⌋+1 differ by a few ms at most.
		if math.Abs(got-exact) > stats.SketchRelativeAccuracy*exact+1 {
			t.Errorf("%s = %v; the exact percentile is %v: off by more than 1 %% + 1 ms", name, got, exact)
		}
	}
	var g *report.Report = whole
	found := false
	for _, gr := range g.Gates {
		if gr.Metric == "latency_e2e_p95_ms" {
			found = true
			if gr.Estimated == nil || !strings.Contains(gr.Message, fmt.Sprintf("estimated (DDSketch of %d values, ±1 %%)", len(lats))) {
				t.Errorf("latency gate: estimated %v, message %q; want it to say it was decided on an estimate", gr.Estimated, gr.Message)
			}
		}
	}
	if !found {
		t.Fatalf("no latency gate in the report")
	}
	notice := fmt.Sprintf("latency_e2e_p50_ms, latency_e2e_p95_ms are estimated: past 100 latencies a run's percentiles come from a DDSketch, within ±1 %% of the exact figure (the largest run has %d).", len(lats))
	for format, wants := range map[string][]string{
		report.FormatTable:    {notice, "(±1 %)"},
		report.FormatMarkdown: {strings.ReplaceAll(notice, "_", `\_`), "(±1 %)"},
		report.FormatHTML:     {strings.ReplaceAll(notice, "'", "&#39;")},
		report.FormatJSON:     {`"estimates": {`, `"estimated": {`, `"relative_error": 0.01`},
	} {
		var b bytes.Buffer
		if err := report.Render(&b, whole, format); err != nil {
			t.Fatal(err)
		}
		flat := strings.Join(strings.Fields(b.String()), " ") // the table wraps long lines
		for _, want := range wants {
			if !strings.Contains(flat, strings.Join(strings.Fields(want), " ")) {
				t.Errorf("%s: the report lacks %q:\n%s", format, want, b.String())
			}
		}
	}
}

// exactPercentile is the p-th percentile of xs by the type-7 rule evalgate states
// (numpy.percentile's default): linear between the values of ranks ⌊h⌋ and ⌊h⌋+1,
// h = (n−1)·p/100.
func exactPercentile(xs []float64, p float64) float64 {
	sorted := slices.Sorted(slices.Values(xs))
	h := float64(len(sorted)-1) * p / 100
	i := int(h)
	if i >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	return sorted[i] + (h-float64(i))*(sorted[i+1]-sorted[i])
}
