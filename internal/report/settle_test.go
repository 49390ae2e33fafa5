package report

import (
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/settle"
)

// The settle summary's cost part: a cap that stops settling before any round spent
// nothing ($0.00, not "cost unknown"), and re-runs of unknown cost under a cap say once
// that the cap could not limit them.
func TestSettleSummaryCost(t *testing.T) {
	usd := func(x float64) *float64 { return &x }
	for _, tc := range []struct {
		name     string
		res      settle.Result
		want     string
		dontWant string
		warn     bool
	}{
		{
			name: "cap stops before a round",
			res: settle.Result{Outcome: gate.Inconclusive, Stop: settle.CostSpent, Why: "one more item-run would cost more than what is left",
				Budget: 4, MaxCostUSD: 0.005},
			want: " · 0 of 4 extra item-runs · $0.00 of max_cost_usd $0.005", dontWant: "cost unknown",
		},
		{
			name: "unknown cost under a cap",
			res: settle.Result{Outcome: gate.Inconclusive, Stop: settle.BudgetSpent, Budget: 2, ItemRuns: 2, MaxCostUSD: 0.5,
				Rounds: []settle.Round{{Items: []string{"a", "b"}, Outcome: gate.Inconclusive}}},
			want: " · 2 of 2 extra item-runs · cost unknown", dontWant: "of max_cost_usd", warn: true,
		},
		{
			name: "known cost under a cap",
			res: settle.Result{Outcome: gate.Pass, Stop: settle.Decided, Budget: 2, ItemRuns: 1, MaxCostUSD: 0.5, CostUSD: usd(0.02),
				Rounds: []settle.Round{{Items: []string{"a"}, Outcome: gate.Pass, CostUSD: usd(0.02)}}},
			want: " · $0.02 of max_cost_usd $0.50",
		},
		{
			name: "unknown cost, no cap",
			res: settle.Result{Outcome: gate.Pass, Stop: settle.Decided, Budget: 2, ItemRuns: 1,
				Rounds: []settle.Round{{Items: []string{"a"}, Outcome: gate.Pass}}},
			want: "1 of 2 extra item-runs", dontWant: "cost",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &Report{}
			r.SetSettle(&tc.res)
			got := settleSummary(&tc.res)
			if !strings.Contains(got, tc.want) || (tc.dontWant != "" && strings.Contains(got, tc.dontWant)) {
				t.Errorf("summary %q; want %q in it and not %q", got, tc.want, tc.dontWant)
			}
			warned := 0
			for _, n := range r.Notices {
				if n.Warn && strings.Contains(n.Text, "cannot limit re-runs whose cost is unknown") {
					warned++
				}
			}
			if want := map[bool]int{true: 1, false: 0}[tc.warn]; warned != want {
				t.Errorf("%d warning(s) that the cap cannot apply; want %d: %+v", warned, want, r.Notices)
			}
		})
	}
}

// The JUnit file says what settle did: its outcome, stop, rounds and item-runs as
// properties of the gates suite, and the report's settle lines in its system-out.
func TestJUnitSettle(t *testing.T) {
	usd := 0.02
	r := &Report{Suite: "s"}
	r.SetSettle(&settle.Result{Level: 0.01, Initial: gate.Inconclusive, Figure: "drop 0.03", Outcome: gate.Fail, Stop: settle.Decided,
		Budget: 4, ItemRuns: 2, CostUSD: &usd,
		Rounds: []settle.Round{{Items: []string{"a", "b"}, ItemRuns: 2, Level: 0.02, Outcome: gate.Fail, Figure: "drop 0.04", CostUSD: &usd}}})
	doc, _ := readJUnit(t, r)
	gates := doc.Suites[0]
	props := map[string]string{}
	for _, p := range gates.Properties.List {
		props[p.Name] = p.Value
	}
	for k, v := range map[string]string{"settle.outcome": "fail", "settle.stop": "decided", "settle.rounds": "1", "settle.item_runs": "2"} {
		if props[k] != v {
			t.Errorf("property %s = %q; want %q (all: %v)", k, props[k], v, props)
		}
	}
	for _, want := range []string{"settle: fail after 1 round(s) of re-runs · 2 of 4 extra item-runs · $0.02\n",
		"settle first look: drop 0.03", "settle round 1: re-ran 2 items (\"a\", \"b\") → drop 0.04"} {
		if !strings.Contains(gates.SystemOut, want) {
			t.Errorf("system-out %q; want %q in it", gates.SystemOut, want)
		}
	}
	// Without settle, none of it.
	if _, text := readJUnit(t, &Report{Suite: "s"}); strings.Contains(text, "settle") {
		t.Errorf("a report without settle mentions it:\n%s", text)
	}
}
