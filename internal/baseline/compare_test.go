package baseline_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/rubric"
)

// The test rubric has one `recorded` dimension on the unit scale, so each item's score
// is exactly the value the results record carries: the figures below are set by hand.
const cfgYAML = `
scoring:
  version: %s
  dimensions:
    - {name: quality, weight: 1.0, scorer: recorded, key: q, scale: unit}
grading:
  version: gradingSystem/1.0.0
`

func setup(t *testing.T, version string) (*config.Config, *eval.Suite) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "evalgate.yaml")
	cfg, err := config.Parse(path, []byte(fmt.Sprintf(cfgYAML, version)), nil)
	if err != nil {
		t.Fatal(err)
	}
	suite, err := eval.ParseSuite("suite.jsonl", []byte(suiteJSONL("a", "b", "c", "d", "e")))
	if err != nil {
		t.Fatal(err)
	}
	return cfg, suite
}

func suiteJSONL(ids ...string) string {
	var b strings.Builder
	for _, id := range ids {
		fmt.Fprintf(&b, `{"id":%q,"prompt":"p-%s"}`+"\n", id, id)
	}
	return b.String()
}

func runOf(t *testing.T, name string, scores map[string]float64, ids ...string) *eval.Run {
	t.Helper()
	var b strings.Builder
	for _, id := range ids {
		fmt.Fprintf(&b, `{"id":%q,"output":"x","scores":{"q":%v}}`+"\n", id, scores[id])
	}
	run, err := eval.ReadRun(name, strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return run
}

func score(t *testing.T, cfg *config.Config, s *eval.Suite, runs ...*eval.Run) *rubric.Scored {
	t.Helper()
	sc, err := rubric.Score(context.Background(), &cfg.Scoring, s, runs)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

var ids = []string{"a", "b", "c", "d", "e"}

// blocks is the plain regression rule's decision (max_drop 2 pts, or 2 % relative):
// the comparison measures, gate decides.
func blocks(t *testing.T, c *baseline.Comparison, mode string) bool {
	t.Helper()
	d := 0.02
	rg := &gate.Regression{MaxDrop: &d, Method: gate.MethodPlain, Mode: mode}
	return rg.Decide(c).Outcome == gate.Fail
}

func TestCompareDeltaByHand(t *testing.T) {
	cfg, suite := setup(t, "scoringSystem/1.0.0")
	base := baseline.FromScored(score(t, cfg, suite, runOf(t, "base", map[string]float64{"a": 1, "b": 1, "c": 1, "d": 0.8, "e": 0.95}, ids...)), baseline.Options{Now: time.Unix(0, 0)})
	cand := score(t, cfg, suite, runOf(t, "cand", map[string]float64{"a": 1, "b": 0.4, "c": 1, "d": 0.8, "e": 0.95}, ids...))
	c, err := compareMem(cand, base, "b.json")
	if err != nil {
		t.Fatal(err)
	}
	// base mean = (1+1+1+0.8+0.95)/5 = 4.75/5 = 0.95; candidate = (1+0.4+1+0.8+0.95)/5 = 4.15/5 = 0.83
	// delta = 0.83 − 0.95 = −0.12 (−12 pts); relative = −0.12 / 0.95 = −0.12631578947...
	if c.Base != 0.95 || c.Cand != 0.83 || c.Delta != -0.12 {
		t.Errorf("base %v cand %v delta %v; want 0.95 0.83 −0.12", c.Base, c.Cand, c.Delta)
	}
	if math.Abs(c.RelDelta-(-0.12/0.95)) > 1e-9 {
		t.Errorf("relative delta %v; want %v", c.RelDelta, -0.12/0.95)
	}
	// a −12 pt drop exceeds the 2 pt max drop.
	if !blocks(t, c, gate.Absolute) {
		t.Errorf("not blocked: %+v", c)
	}
	// b passed (1 ≥ 0.8) in the baseline's only run and fails now (0.4 < 0.8).
	if len(c.NewlyFailing) != 1 || c.NewlyFailing[0].ID != "b" || c.NewlyFailing[0].Line != 2 {
		t.Errorf("newly failing %+v; want b at line 2", c.NewlyFailing)
	}
	// The paired differences are {0, −0.6, 0, 0, 0}: every bootstrap mean is −0.6·k/5
	// for k draws of b, so the interval lies in [−0.6, 0]; the observed mean is −0.12.
	if c.CI.Lo < -0.6 || c.CI.Hi > 0 || c.CI.Lo > -0.12 {
		t.Errorf("CI %+v; want within [−0.6, 0] around −0.12", c.CI)
	}
	// Rerunning gives the identical interval (fixed PCG seed).
	c2, _ := compareMem(cand, base, "b.json")
	if diff := cmp.Diff(c.CI, c2.CI); diff != "" {
		t.Errorf("bootstrap not reproducible: %s", diff)
	}
}

func TestDropOfExactlyMaxDropIsNotBlocked(t *testing.T) {
	cfg, suite := setup(t, "scoringSystem/1.0.0")
	// 0.95 → 0.93 on every item: delta is −0.02 up to float noise
	// (0.93 − 0.95 = −0.020000000000000018 in float64), which is not more than 0.02.
	all := func(v float64) map[string]float64 {
		m := map[string]float64{}
		for _, id := range ids {
			m[id] = v
		}
		return m
	}
	base := baseline.FromScored(score(t, cfg, suite, runOf(t, "base", all(0.95), ids...)), baseline.Options{})
	cand := score(t, cfg, suite, runOf(t, "cand", all(0.93), ids...))
	c, err := compareMem(cand, base, "b.json")
	if err != nil {
		t.Fatal(err)
	}
	if blocks(t, c, gate.Absolute) {
		t.Errorf("0.95 → 0.93 blocked by float noise: Δ %v", c.Delta)
	}
	// 0.95 → 0.929 is a drop of 2.1 points: blocked.
	cand = score(t, cfg, suite, runOf(t, "cand", all(0.929), ids...))
	c, _ = compareMem(cand, base, "b.json")
	if !blocks(t, c, gate.Absolute) {
		t.Errorf("0.95 → 0.929 not blocked")
	}
	// Relative mode: −0.021 / 0.95 = −2.21 % > 2 %: blocked; 0.95 → 0.932 is −1.89 %: not.
	c, _ = compareMem(cand, base, "b.json")
	if !blocks(t, c, gate.Relative) {
		t.Errorf("relative −2.21 %% not blocked")
	}
	cand = score(t, cfg, suite, runOf(t, "cand", all(0.932), ids...))
	c, _ = compareMem(cand, base, "b.json")
	if blocks(t, c, gate.Relative) {
		t.Errorf("relative −1.89 %% blocked")
	}
}

func TestScoringChangeWithoutOutputsIsRefused(t *testing.T) {
	cfg, suite := setup(t, "scoringSystem/1.0.0")
	base := baseline.FromScored(score(t, cfg, suite, runOf(t, "base", map[string]float64{"a": 1, "b": 1, "c": 1, "d": 1, "e": 1}, ids...)), baseline.Options{})
	base.Outputs = nil // an old baseline that kept no outputs
	cfg2, _ := setup(t, "scoringSystem/1.1.0")
	cand := score(t, cfg2, suite, runOf(t, "cand", map[string]float64{"a": 1, "b": 1, "c": 1, "d": 1, "e": 1}, ids...))
	_, err := compareMem(cand, base, "baselines/x.json")
	var me *baseline.MismatchError
	if !errors.As(err, &me) {
		t.Fatalf("err = %v; want a MismatchError", err)
	}
	for _, want := range []string{"scoringSystem/1.0.0", "scoringSystem/1.1.0", "evalgate baseline", "baselines/x.json"} {
		if !strings.Contains(me.Msg, want) {
			t.Errorf("message %q lacks %q", me.Msg, want)
		}
	}
}

func TestScoringChangeRescoresRecordedOutputs(t *testing.T) {
	dir := t.TempDir()
	// Version 1 reads "q"; version 2 reads "q2" from the same records: re-scoring the
	// baseline's recorded outputs under version 2 must use q2, not the stored scores.
	mk := func(version, key string) *config.Config {
		y := strings.Replace(fmt.Sprintf(cfgYAML, version), "key: q,", "key: "+key+",", 1)
		cfg, err := config.Parse(filepath.Join(dir, "c.yaml"), []byte(y), nil)
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	suite, _ := eval.ParseSuite("suite.jsonl", []byte(suiteJSONL(ids...)))
	records := `{"id":"a","output":"x","scores":{"q":1,"q2":0.5}}
{"id":"b","output":"x","scores":{"q":1,"q2":0.5}}
{"id":"c","output":"x","scores":{"q":1,"q2":0.5}}
{"id":"d","output":"x","scores":{"q":1,"q2":0.5}}
{"id":"e","output":"x","scores":{"q":1,"q2":0.5}}
`
	run, _ := eval.ReadRun("base.jsonl", strings.NewReader(records))
	v1 := mk("scoringSystem/1.0.0", "q")
	base := baseline.FromScored(score(t, v1, suite, run), baseline.Options{})
	if base.Mean != 1 {
		t.Fatalf("baseline mean %v; want 1 under v1", base.Mean)
	}
	// Save and load: the recorded outputs survive the round trip.
	path := filepath.Join(dir, "b.json")
	if err := baseline.Save(path, base); err != nil {
		t.Fatal(err)
	}
	loaded, err := baseline.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	v2 := mk("scoringSystem/2.0.0", "q2")
	candRun, _ := eval.ReadRun("cand.jsonl", strings.NewReader(records))
	cand := score(t, v2, suite, candRun)
	c, err := compareMem(cand, loaded, path)
	if err != nil {
		t.Fatal(err)
	}
	// Re-scored under v2 both sides read q2 = 0.5: delta 0, not 0.5 − 1 = −0.5.
	if !c.Rescored || c.Base != 0.5 || c.Delta != 0 {
		t.Errorf("rescored=%v base=%v delta=%v; want true 0.5 0", c.Rescored, c.Base, c.Delta)
	}
	if len(c.Notes) == 0 || !strings.Contains(c.Notes[0], "re-scored") {
		t.Errorf("notes %q; want a re-scoring note", c.Notes)
	}
}

func TestSuiteChangesComparedItemByItem(t *testing.T) {
	cfg, suite := setup(t, "scoringSystem/1.0.0")
	base := baseline.FromScored(score(t, cfg, suite, runOf(t, "base", map[string]float64{"a": 1, "b": 1, "c": 1, "d": 1, "e": 1}, ids...)), baseline.Options{})
	// New suite: c's prompt changed, e removed, f added.
	s2, err := eval.ParseSuite("suite.jsonl", []byte(`{"id":"a","prompt":"p-a"}
{"id":"b","prompt":"p-b"}
{"id":"c","prompt":"changed"}
{"id":"d","prompt":"p-d"}
{"id":"f","prompt":"p-f"}
`))
	if err != nil {
		t.Fatal(err)
	}
	cand := score(t, cfg, s2, runOf(t, "cand", map[string]float64{"a": 1, "b": 0.5, "c": 0, "d": 1, "f": 0}, "a", "b", "c", "d", "f"))
	c, err := compareMem(cand, base, "b.json")
	if err != nil {
		t.Fatal(err)
	}
	got := []any{c.Changed, c.Added, c.Removed, c.Compared}
	want := []any{[]string{"c"}, []string{"f"}, []string{"e"}, 3}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
	// Compared items a, b, d: base 1, 1, 1; candidate 1, 0.5, 1 → delta = −0.5/3.
	if math.Abs(c.Delta-(-0.5/3)) > 1e-9 {
		t.Errorf("delta %v; want %v", c.Delta, -0.5/3)
	}
}

func TestUnstableItemsNeverNewlyFailing(t *testing.T) {
	cfg, suite := setup(t, "scoringSystem/1.0.0")
	full := map[string]float64{"a": 1, "b": 1, "c": 1, "d": 1, "e": 1}
	flaky := map[string]float64{"a": 0, "b": 1, "c": 1, "d": 1, "e": 1}
	// a passes in 2 of 3 baseline runs: pass rate 2/3 is strictly between 0 and 1.
	base := baseline.FromScored(score(t, cfg, suite, runOf(t, "r1", full, ids...), runOf(t, "r2", flaky, ids...), runOf(t, "r3", full, ids...)), baseline.Options{})
	cand := score(t, cfg, suite, runOf(t, "cand", flaky, ids...))
	c, err := compareMem(cand, base, "b.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.NewlyFailing) != 0 || len(c.Unstable) != 1 || c.Unstable[0].ID != "a" {
		t.Errorf("newly failing %+v, unstable %+v; want none and a", c.NewlyFailing, c.Unstable)
	}
	// Baseline std over runs: means 1, 0.8, 1 → mean 14/15, sample std
	// sqrt(((1/15)²·2 + (2/15)²)/2) = sqrt((2+4)/225/2) = sqrt(3)/15 ≈ 0.11547.
	if math.Abs(base.Std-math.Sqrt(3)/15) > 1e-9 {
		t.Errorf("std %v; want %v", base.Std, math.Sqrt(3)/15)
	}
}

func TestSaveIsStableAndAtomic(t *testing.T) {
	cfg, suite := setup(t, "scoringSystem/1.0.0")
	b := baseline.FromScored(score(t, cfg, suite, runOf(t, "base", map[string]float64{"a": 1, "b": 1, "c": 1, "d": 0.8, "e": 0.95}, ids...)),
		baseline.Options{Now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Source: baseline.Source{Ref: "refs/tags/v1", SHA: "abc"}})
	dir := t.TempDir()
	p1, p2 := filepath.Join(dir, "one.json"), filepath.Join(dir, "two.json")
	if err := baseline.Save(p1, b); err != nil {
		t.Fatal(err)
	}
	if err := baseline.Save(p2, b); err != nil {
		t.Fatal(err)
	}
	d1, _ := os.ReadFile(p1)
	d2, _ := os.ReadFile(p2)
	if string(d1) != string(d2) {
		t.Error("two saves of one baseline differ")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("%d files in dir; want 2 (no temp files left)", len(entries))
	}
	for _, want := range []string{`"schema_version":2`, `"scoringSystem":"scoringSystem/1.0.0"`, `"gradingSystem"`, `"suite_hash"`, `"rubric_hash"`, `"ref":"refs/tags/v1"`, `"created_at":"2026-01-02T03:04:05Z"`, `"items":5`} {
		if !strings.Contains(string(d1), want) {
			t.Errorf("baseline lacks %s", want)
		}
	}
}

func TestLargeOutputsKeptBesideCompressed(t *testing.T) {
	cfg, suite := setup(t, "scoringSystem/1.0.0")
	var b strings.Builder
	big := strings.Repeat("y", baseline.InlineOutputsLimit/4)
	for _, id := range ids {
		fmt.Fprintf(&b, `{"id":%q,"output":%q,"scores":{"q":1}}`+"\n", id, big)
	}
	run, _ := eval.ReadRun("big.jsonl", strings.NewReader(b.String()))
	bl := baseline.FromScored(score(t, cfg, suite, run), baseline.Options{})
	dir := t.TempDir()
	path := filepath.Join(dir, "s.json")
	if err := baseline.Save(path, bl); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "s.outputs.jsonl.gz")); err != nil {
		t.Fatalf("outputs not written beside: %v", err)
	}
	st, _ := os.Stat(path)
	if st.Size() > baseline.InlineOutputsLimit/2 {
		t.Errorf("baseline is %d bytes; outputs should be beside it", st.Size())
	}
	loaded, err := baseline.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(loaded.Outputs) != 1 || len(loaded.Outputs[0]) != 5 || loaded.Outputs[0][0]["output"] != big {
		t.Errorf("outputs not restored")
	}
	// Under another scoring version the file's outputs beside it are re-scored as a
	// stream, to the comparison of the baseline loaded whole.
	cfg2, _ := setup(t, "scoringSystem/1.1.0")
	cand := score(t, cfg2, suite, run)
	want, err := compareMem(cand, loaded, path)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := baseline.CompareFile(context.Background(), cand, path, baseline.CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !got.Rescored || cmp.Diff(want, got, ignoreUnexported) != "" {
		t.Errorf("re-scored from the file beside differs (-whole +stream):\n%s", cmp.Diff(want, got, ignoreUnexported))
	}
	sameBaseScores(t, cand, want, got)
}

// compareMem is baseline.Compare over b held in memory under the name file.
func compareMem(cand *rubric.Scored, b *baseline.Baseline, file string) (*baseline.Comparison, error) {
	c, _, err := baseline.Compare(context.Background(), cand, baseline.NewMemReader(b, file), baseline.CompareOptions{})
	return c, err
}
