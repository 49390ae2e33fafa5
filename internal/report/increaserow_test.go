package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/rubric"
)

// A max_increase gate's row shows a relative change: the threshold as a percentage
// ("increase ≤ +20 %"), never in the metric's unit ("$0.20" for a cost), and beside the
// value the change it was judged by.
func TestIncreaseGateRowIsRelative(t *testing.T) {
	inc := gate.Increase(0.2)
	sys := &gate.System{Version: "gradingSystem/1.0.0", Gates: []gate.Gate{{Name: "spend change", Metric: rubric.MetricCostUSD, MaxIncrease: &inc, Level: gate.Soft}}}
	sc := &rubric.Scored{System: &rubric.System{}, Metrics: map[string]float64{rubric.MetricCostUSD: 0.01264}}
	cmp := &baseline.Comparison{BaselineFile: "b.jsonl", BaselineMetrics: map[string]float64{rubric.MetricCostUSD: 0.0056}}
	v := sys.Evaluate(sc, cmp, gate.Inputs{})
	r := &Report{Suite: "s", Summary: Summary{Items: 4, Runs: 1}, Gates: v.Gates, Verdict: *v}
	var table bytes.Buffer
	if err := r.WriteTerminal(&table, Terminal{Width: 400}); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"table": table.String(), "markdown": r.Markdown(MarkdownOptions{})} {
		if !strings.Contains(out, "increase ≤ +20 %") || !strings.Contains(out, "$0.013 (+125.7 %)") || strings.Contains(out, "$0.20") {
			t.Errorf("%s: want the threshold increase ≤ +20 %% and the actual $0.013 (+125.7 %%):\n%s", name, out)
		}
	}
	// A baseline recorded before costs: skipped, and the row says the baseline lacks it.
	v = sys.Evaluate(sc, &baseline.Comparison{BaselineFile: "old.jsonl"}, gate.Inputs{})
	r = &Report{Suite: "s", Summary: Summary{Items: 4, Runs: 1}, Gates: v.Gates, Verdict: *v}
	for _, row := range r.gateRows(statusIcon) {
		if row.gateName == "spend change" && row.actual != "no baseline figure" {
			t.Errorf("skipped gate's actual %q; want no baseline figure", row.actual)
		}
	}
}
