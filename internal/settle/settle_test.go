package settle

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/gate"
)

// fakeDecider replays outcomes, one per look, and records the levels asked.
type fakeDecider struct {
	looks  []Look
	levels []float64
}

func (d *fakeDecider) Look(_ context.Context, level float64) (Look, error) {
	d.levels = append(d.levels, level)
	i := min(len(d.levels)-1, len(d.looks)-1)
	return d.looks[i], nil
}

// fakeRerunner records the rounds.
type fakeRerunner struct {
	rounds [][]string
	maxUSD []float64
	err    error
}

func (r *fakeRerunner) Rerun(_ context.Context, round int, ids []string, maxUSD float64) error {
	if r.err != nil {
		return r.err
	}
	r.rounds = append(r.rounds, ids)
	r.maxUSD = append(r.maxUSD, maxUSD)
	return nil
}

func usd(x float64) *float64 { return &x }

func inconclusive(ev ...string) Look {
	return Look{Outcome: gate.Inconclusive, Figure: "estimated drop 5.0 pts", Evidence: ev}
}

var items10 = []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"}

func TestRunDecides(t *testing.T) {
	d := &fakeDecider{looks: []Look{inconclusive("c"), inconclusive("c"), {Outcome: gate.Fail, Evidence: []string{"c"}}}}
	r := &fakeRerunner{}
	res, err := Run(context.Background(), d, r, Options{Items: items10, ItemRuns: 10, Budget: 8})
	if err != nil {
		t.Fatal(err)
	}
	// Each round re-runs the evidence item alone.
	want := [][]string{{"c"}, {"c"}}
	if !slices.EqualFunc(r.rounds, want, slices.Equal) {
		t.Errorf("rounds %v; want %v", r.rounds, want)
	}
	if res.Stop != Decided || res.Outcome != gate.Fail || res.Initial != gate.Inconclusive || res.ItemRuns != 2 || len(res.Rounds) != 2 {
		t.Errorf("result %+v; want decided fail after 2 rounds, 2 item-runs", res)
	}
	// Information fractions 10/18, 11/18, 12/18: the levels are Spending's.
	sp := NewSpending(gate.Alpha)
	for i, x := range []float64{10.0 / 18, 11.0 / 18, 12.0 / 18} {
		if l := sp.Next(x); d.levels[i] != l {
			t.Errorf("look %d at %v; want %v", i, d.levels[i], l)
		}
	}
}

// With no evidence named, a round re-runs a quarter of the budget, the least re-run
// items first.
func TestRunNoEvidence(t *testing.T) {
	d := &fakeDecider{looks: []Look{inconclusive()}}
	r := &fakeRerunner{}
	if _, err := Run(context.Background(), d, r, Options{Items: items10, Budget: 8}); err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"a", "b"}, {"c", "d"}, {"e", "f"}, {"g", "h"}}
	if !slices.EqualFunc(r.rounds, want, slices.Equal) {
		t.Errorf("rounds %v; want %v", r.rounds, want)
	}
}

// A tool that cannot re-run the items asked for stops settling as "cannot settle", with
// why, and the first look's verdict stands: no error, so the check does not exit 2.
func TestRunCannotRerun(t *testing.T) {
	d := &fakeDecider{looks: []Look{inconclusive("c")}}
	why := `promptfoo cannot select "c": give every test a unique description:`
	res, err := Run(context.Background(), d, &fakeRerunner{err: fmt.Errorf("round 1: %w", &CannotRerun{Why: why})}, Options{Items: items10})
	if err != nil || res.Stop != Unsettleable || res.Why != why || res.Outcome != gate.Inconclusive || res.ItemRuns != 0 {
		t.Errorf("result %+v, err %v; want cannot settle, why %q, inconclusive, no item-run", res, err, why)
	}
}

func TestRunNothingToSettle(t *testing.T) {
	d := &fakeDecider{looks: []Look{{Outcome: gate.Pass}}}
	r := &fakeRerunner{}
	res, err := Run(context.Background(), d, r, Options{Items: items10})
	if err != nil || res.Stop != Decided || len(r.rounds) != 0 {
		t.Errorf("pass at the first look: %+v, %v, %d rounds; want decided, no round", res, err, len(r.rounds))
	}
}

func TestRunBudget(t *testing.T) {
	d := &fakeDecider{looks: []Look{inconclusive("c", "d", "e")}}
	r := &fakeRerunner{}
	// A budget of 2 item-runs: the first round is cut to what is left.
	res, err := Run(context.Background(), d, r, Options{Items: items10, Budget: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stop != BudgetSpent || res.Budget != 2 || res.ItemRuns != 2 || res.Outcome != gate.Inconclusive {
		t.Errorf("result %+v; want budget spent at 2 of 2, inconclusive", res)
	}
	if !slices.EqualFunc(r.rounds, [][]string{{"c", "d"}}, slices.Equal) {
		t.Errorf("rounds %v; want the two strongest evidence items", r.rounds)
	}
}

// The default budget is 20 % of the suite, rounded up, and at least MinDefaultBudget.
func TestDefaultBudget(t *testing.T) {
	for _, c := range []struct{ items, want int }{
		{1, 8},    // 20 % is 0.2 → 1, under the floor
		{8, 8},    // the newcomer's suite: 1.6 → 2, under the floor
		{40, 8},   // 20 % of 40 is exactly the floor
		{41, 9},   // 8.2 → 9
		{200, 40}, // 20 %
		{1001, 201},
	} {
		if got := DefaultBudget(c.items); got != c.want {
			t.Errorf("DefaultBudget(%d) = %d; want %d", c.items, got, c.want)
		}
	}
	// Run reads a zero budget as the default.
	res, err := Run(context.Background(), &fakeDecider{looks: []Look{inconclusive("c", "d", "e")}}, &fakeRerunner{}, Options{Items: items10})
	if err != nil || res.Budget != 8 || res.ItemRuns != 8 || res.Stop != BudgetSpent {
		t.Errorf("default budget on 10 items: %+v, %v; want 8 of 8 spent", res, err)
	}
}

// --settle-timeout limits the rounds, not the check: a first look that takes 20 min
// (a slow judge scoring the pull request's runs) leaves the 10-min limit whole for the
// rounds, as a first look that takes no time does. Rounds start at 0, 4 and 8 min of
// the limit's clock (8 < 10), and at 12 min it stops. Only the re-runs run under the
// deadline; no look does. Before, the clock started before the first look, so with a
// 20-min first look settling timed out at once, without a round.
func TestRunTimeout(t *testing.T) {
	for _, first := range []time.Duration{0, 20 * time.Minute} {
		now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		d := &slowFirstDecider{now: &now, first: first}
		r := &deadlineRerunner{now: &now, step: 4 * time.Minute}
		res, err := Run(context.Background(), d, r, Options{Items: items10, Budget: 100, Timeout: 10 * time.Minute, Now: func() time.Time { return now }})
		if err != nil {
			t.Fatal(err)
		}
		if res.Stop != TimedOut || len(res.Rounds) != 3 || res.Elapsed != 12*time.Minute {
			t.Errorf("first look %v: result %+v; want timed out after 3 rounds, 12m of rounds (the first look not counted)", first, res)
		}
		if r.deadlines != r.rounds || d.deadlines != 0 {
			t.Errorf("first look %v: %d of %d rounds and %d of %d looks ran under a deadline; want every round, no look", first, r.deadlines, r.rounds, d.deadlines, d.looks)
		}
	}
}

func TestRunCost(t *testing.T) {
	// The first look cost $1.00 over 10 item-runs ($0.10 each); each round adds what it
	// re-ran at $0.10 an item-run.
	total := 1.0
	d := &costDecider{total: &total}
	r := &costRerunner{total: &total, each: 0.10}
	res, err := Run(context.Background(), d, r, Options{Items: items10, ItemRuns: 10, Budget: 100, MaxCostUSD: 0.55})
	if err != nil {
		t.Fatal(err)
	}
	// Rounds of 1 evidence item at $0.10: 5 of them, then $0.05 is left, less than one
	// item-run.
	if res.Stop != CostSpent || res.ItemRuns != 5 {
		t.Errorf("result %+v (cost %v); want cost spent after 5 item-runs, $0.50", res, res.CostUSD)
	}
	if len(r.maxUSD) != 5 || r.maxUSD[0] != 0.55 {
		t.Errorf("the rerunner was given %v; want $0.55 left in the first of 5 rounds", r.maxUSD)
	}
	// The JSON: each round says its item-runs, and the dollars are rounded to 1e-9 as
	// the report's other dollar figures (float sums printed 0.09999999999999987).
	if res.CostUSD == nil || *res.CostUSD != 0.5 {
		t.Errorf("cost %v; want exactly 0.5", res.CostUSD)
	}
	for i, rd := range res.Rounds {
		if rd.ItemRuns != len(rd.Items) || rd.CostUSD == nil || *rd.CostUSD != 0.1 {
			t.Errorf("round %d: %d item-runs of %d items, cost %v; want one per item, exactly 0.1", i+1, rd.ItemRuns, len(rd.Items), rd.CostUSD)
		}
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"item_runs":1,`) || !strings.Contains(string(b), `"cost_usd":0.1}`) || strings.Contains(string(b), "9999") {
		t.Errorf("JSON %s; want each round's item_runs and cost_usd 0.1", b)
	}
}

type costDecider struct{ total *float64 }

func (d *costDecider) Look(context.Context, float64) (Look, error) {
	l := inconclusive("c")
	l.TotalUSD = usd(*d.total)
	return l, nil
}

type costRerunner struct {
	total  *float64
	each   float64
	maxUSD []float64
}

func (r *costRerunner) Rerun(_ context.Context, _ int, ids []string, maxUSD float64) error {
	r.maxUSD = append(r.maxUSD, maxUSD)
	*r.total += r.each * float64(len(ids))
	return nil
}

func TestRunUnsettleable(t *testing.T) {
	l := inconclusive("c")
	l.Unsettleable = "the drop rests on a judge under the reliability floor"
	res, err := Run(context.Background(), &fakeDecider{looks: []Look{l}}, &fakeRerunner{}, Options{Items: items10})
	if err != nil || res.Stop != Unsettleable || res.ItemRuns != 0 {
		t.Errorf("result %+v, %v; want cannot settle, nothing re-run", res, err)
	}
}

func TestRunErrors(t *testing.T) {
	boom := errors.New("boom")
	_, err := Run(context.Background(), &fakeDecider{looks: []Look{inconclusive("c")}}, &fakeRerunner{err: boom}, Options{Items: items10})
	if !errors.Is(err, boom) {
		t.Errorf("err %v; want the rerunner's", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Run(ctx, &fakeDecider{looks: []Look{inconclusive("c")}}, &fakeRerunner{err: context.Canceled}, Options{Items: items10})
	if err != nil || res.Stop != TimedOut || res.Why != "cancelled during round 1, whose re-runs are not counted" {
		t.Errorf("a cancelled context: %+v, %v; want timed out, no error, said so", res, err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 0)
	defer cancel()
	res, err = Run(ctx, &fakeDecider{looks: []Look{inconclusive("c")}}, &fakeRerunner{err: context.DeadlineExceeded}, Options{Items: items10})
	if err != nil || res.Stop != TimedOut || res.Why != "the limit passed during round 1, whose re-runs are not counted" {
		t.Errorf("a deadline: %+v, %v; want timed out, no error, said so (not \"context deadline exceeded\")", res, err)
	}
}

// A fail on thin runs (Look.Confirm) re-runs its evidence once; the look after that
// round decides: a fail again blocks, a pass stands, an inconclusive one goes on
// settling within the budget. A fail that needs no confirming blocks at once.
func TestRunConfirmsAFailOnThinRuns(t *testing.T) {
	thin := Look{Outcome: gate.Fail, Confirm: true, Evidence: []string{"c", "f"}}
	for _, c := range []struct {
		next   []Look
		want   gate.Status
		rounds int
	}{
		{[]Look{{Outcome: gate.Fail, Evidence: []string{"c"}}}, gate.Fail, 1},
		{[]Look{{Outcome: gate.Pass}}, gate.Pass, 1},
		{[]Look{inconclusive("c"), {Outcome: gate.Pass}}, gate.Pass, 2},
	} {
		d := &fakeDecider{looks: append([]Look{thin}, c.next...)}
		r := &fakeRerunner{}
		res, err := Run(context.Background(), d, r, Options{Items: items10, ItemRuns: 10, Budget: 8})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.rounds) != c.rounds || !slices.Contains(r.rounds[0], "c") || !slices.Contains(r.rounds[0], "f") {
			t.Errorf("then %v: rounds %v; want %d, the first re-running c and f", c.want, r.rounds, c.rounds)
		}
		if res.Initial != gate.Fail || res.Outcome != c.want || res.Stop != Decided {
			t.Errorf("then %v: result %+v; want fail then %s, decided", c.want, res, c.want)
		}
	}
	d := &fakeDecider{looks: []Look{{Outcome: gate.Fail, Evidence: []string{"c"}}}}
	r := &fakeRerunner{}
	if res, _ := Run(context.Background(), d, r, Options{Items: items10, ItemRuns: 10}); len(r.rounds) != 0 || res.Outcome != gate.Fail {
		t.Errorf("a fail on runs that know their spread: rounds %v, %s; want none, fail", r.rounds, res.Outcome)
	}
}

// A pass in doubt (Look.Confirm) re-runs its items once; the look after that round
// decides: a fail after the re-runs blocks, a pass stands after one round.
func TestRunConfirmsAnUnsurePass(t *testing.T) {
	unsure := Look{Outcome: gate.Pass, Confirm: true, Evidence: []string{"c", "f"}}
	for _, c := range []struct {
		next gate.Status
	}{{gate.Fail}, {gate.Pass}} {
		d := &fakeDecider{looks: []Look{unsure, {Outcome: c.next, Evidence: []string{"c"}}}}
		r := &fakeRerunner{}
		res, err := Run(context.Background(), d, r, Options{Items: items10, ItemRuns: 10, Budget: 8})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.rounds) != 1 || !slices.Contains(r.rounds[0], "c") || !slices.Contains(r.rounds[0], "f") {
			t.Errorf("then %s: rounds %v; want one round re-running c and f", c.next, r.rounds)
		}
		if res.Initial != gate.Pass || res.Outcome != c.next || res.Stop != Decided || len(d.levels) != 2 {
			t.Errorf("then %s: result %+v after %d looks; want pass then %s, decided after 2 looks", c.next, res, len(d.levels), c.next)
		}
	}
	// A plain pass is decided at the first look: no round.
	d := &fakeDecider{looks: []Look{{Outcome: gate.Pass}}}
	r := &fakeRerunner{}
	if res, _ := Run(context.Background(), d, r, Options{Items: items10, ItemRuns: 10}); len(r.rounds) != 0 || res.Stop != Decided {
		t.Errorf("plain pass: rounds %v, stop %s; want none, decided", r.rounds, res.Stop)
	}
}

// TestRunCostCut: a round the dollar cap cut (CostCut) counts only the item-runs that
// ran, and settling stops as cost spent after the look at them; a round the cap
// refused whole stops it before any look, without an error.
func TestRunCostCut(t *testing.T) {
	// Round 1 asks for a, b, c; the cap lets 2 of them run.
	d := &fakeDecider{looks: []Look{inconclusive("a", "b", "c")}}
	r := &fakeRerunner{err: &CostCut{Ran: 2}}
	res, err := Run(context.Background(), d, r, Options{Items: items10, ItemRuns: 10, Budget: 8})
	if err != nil || res.Stop != CostSpent || res.ItemRuns != 2 || len(res.Rounds) != 1 || !slices.Equal(res.Rounds[0].Items, []string{"a", "b"}) {
		t.Errorf("cut round: %+v, %v; want cost spent after 1 round of a and b (2 item-runs)", res, err)
	}
	if len(d.levels) != 2 {
		t.Errorf("%d looks; want the first and one after the cut round", len(d.levels))
	}
	// The cap refuses round 1's first item: nothing ran, no look after it.
	d = &fakeDecider{looks: []Look{inconclusive("a")}}
	res, err = Run(context.Background(), d, &fakeRerunner{err: &CostCut{}}, Options{Items: items10, ItemRuns: 10, Budget: 8})
	if err != nil || res.Stop != CostSpent || res.ItemRuns != 0 || len(res.Rounds) != 0 || res.Outcome != gate.Inconclusive {
		t.Errorf("refused round: %+v, %v; want cost spent, still inconclusive, nothing re-run", res, err)
	}
}

// slowFirstDecider's first look (the check's own scoring) takes first on the fake
// clock, and every look records whether its context had a deadline.
type slowFirstDecider struct {
	now       *time.Time
	first     time.Duration
	looks     int
	deadlines int
}

func (d *slowFirstDecider) Look(ctx context.Context, _ float64) (Look, error) {
	if d.looks++; d.looks == 1 {
		*d.now = d.now.Add(d.first)
	}
	if _, ok := ctx.Deadline(); ok {
		d.deadlines++
	}
	return inconclusive("c"), nil
}

// deadlineRerunner moves the fake clock on by step per round and records whether each
// round's context had a deadline.
type deadlineRerunner struct {
	now       *time.Time
	step      time.Duration
	rounds    int
	deadlines int
}

func (r *deadlineRerunner) Rerun(ctx context.Context, _ int, _ []string, _ float64) error {
	r.rounds++
	if _, ok := ctx.Deadline(); ok {
		r.deadlines++
	}
	*r.now = r.now.Add(r.step)
	return nil
}
