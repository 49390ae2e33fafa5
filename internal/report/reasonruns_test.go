package report_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/report"
)

// runsSuite writes a two-item suite scored by one contains dimension (weight 0.8) and
// a 40-word budget (0.2), passing at 0.8, and three runs of results: "a" always answers
// right; "b" answers "no idea" in the runs bWrong names, right in the others. It
// returns the config and the three results files.
func runsSuite(t *testing.T, bWrong ...int) (string, []string) {
	t.Helper()
	files := map[string]string{
		"suite.yaml": "name: s\nitems:\n  - {id: a, prompt: say A, expected_contains: [Alpha]}\n  - {id: b, prompt: say B, expected_contains: [Bravo]}\n",
		"evalgate.yaml": `name: s
suite: suite.yaml
scoring:
  version: scoringSystem/1.0.0
  dimensions:
    - {name: correctness, weight: 0.8, scorer: contains}
    - {name: conciseness, weight: 0.2, scorer: word_budget, max_words: 40}
  pass: {min_score: 0.8}
grading:
  version: gradingSystem/1.0.0
  gates:
    - {name: floor, metric: mean_score, min: 0.5, level: hard}
`}
	var runs []string
	for r := 1; r <= 3; r++ {
		b := `{"id": "b", "output": "Bravo."}`
		if slices.Contains(bWrong, r) {
			b = `{"id": "b", "output": "no idea"}`
		}
		name := fmt.Sprintf("run%d.jsonl", r)
		files[name] = `{"id": "a", "output": "Alpha."}` + "\n" + b + "\n"
		runs = append(runs, name)
	}
	dir := writeFiles(t, files)
	for k := range runs {
		runs[k] = filepath.Join(dir, runs[k])
	}
	return filepath.Join(dir, "evalgate.yaml"), runs
}

// writeFiles writes name → text into a new temporary folder, which it returns.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestWhyOfAnItemWithSeveralRunsCountsTheRuns: the "why" an item with several runs
// failed is not one run's score. Item b answers "no idea" in runs 1 and 2 (correctness
// 0, conciseness 1: score 0.8·0 + 0.2·1 = 0.200 < 0.8, failing) and right in run 3
// (score 1.000, passing): it fails 2 of 3 runs, mean score (0.2 + 0.2 + 1)/3 = 0.467.
// Its correctness, 1/3 on average, is 0 in no run's mean, so the reason is the pass
// rule's. The old why was run 1's "score 0.200 < 0.8"; the comment's table, which has
// no score column, adds the mean.
func TestWhyOfAnItemWithSeveralRunsCountsTheRuns(t *testing.T) {
	config, runs := runsSuite(t, 1, 2)
	r := checked(t, config, runs...)
	const want = "failed 2 of 3 runs, the first: score < 0.8"
	b := item(t, r, "b")
	if got := b.Reason(); got != want {
		t.Errorf("reason %q; want %q", got, want)
	}
	md := r.Markdown(report.MarkdownOptions{})
	if !strings.Contains(md, "failed 2 of 3 runs, the first: score &lt; 0.8; mean score 0.467") || strings.Contains(md, "0.200") {
		t.Errorf("the comment's why does not count the runs, or shows run 1's score:\n%s", md)
	}
}

// TestWhyOfADimensionZeroInEveryRun: b answers "no idea" in all three runs, so its
// correctness is 0 in each (mean 0) and it fails 3 of 3: the reason says so once,
// with the scorer's note: correctness = 0 in all 3 runs: output does not contain "Bravo".
func TestWhyOfADimensionZeroInEveryRun(t *testing.T) {
	config, runs := runsSuite(t, 1, 2, 3)
	r := checked(t, config, runs...)
	it := item(t, r, "b")
	if got, want := it.Reason(), `correctness = 0 in all 3 runs: output does not contain "Bravo"`; got != want {
		t.Errorf("reason %q; want %q", got, want)
	}
}

// TestGotOfAFailingItemIsFromARunThatFailed: b answers right in run 1 and "no idea" in
// runs 2 and 3, so it fails (1 pass of 3 < half): its output in the report, and the
// scorer's note beside it, are run 2's (the first that failed), with the why for it:
// "failed 2 of 3 runs, the first: score < 0.8" (mean score (1 + 0.2 + 0.2)/3 = 0.467).
// The old report showed run 1's passing "Bravo." beside a failing why. An item that
// fails one run of three (wrong in run 2 only) passes, and keeps run 1's output.
func TestGotOfAFailingItemIsFromARunThatFailed(t *testing.T) {
	for _, tc := range []struct {
		wrong    []int
		got, why string
		note     bool
	}{
		{[]int{2, 3}, "no idea", "failed 2 of 3 runs, the first: score < 0.8", true},
		{[]int{2}, "Bravo.", "", false},
	} {
		config, runs := runsSuite(t, tc.wrong...)
		r := checked(t, config, runs...)
		b := item(t, r, "b")
		why := ""
		if !b.Pass {
			why = b.Reason()
		}
		if b.Got != tc.got || why != tc.why || (b.Notes["correctness"] != "") != tc.note {
			t.Errorf("wrong in runs %v: got %q, why %q, notes %v; want %q, %q, a note %v", tc.wrong, b.Got, why, b.Notes, tc.got, tc.why, tc.note)
		}
		var js bytes.Buffer
		if err := r.WriteJSON(&js); err != nil {
			t.Fatal(err)
		}
		if want := `"got": "` + tc.got + `"`; !strings.Contains(js.String(), want) {
			t.Errorf("wrong in runs %v: the JSON report has no %s", tc.wrong, want)
		}
	}
}

// TestWhyPassesOverADimensionThatDoesNotApply: b's results carry no "format", a
// recorded dimension that is n/a by default, so format does not apply to b (its
// breakdown holds 0 for no value); b fails on correctness (output "no idea": 0). The
// why is correctness's, not "format = 0", which the old why named as the first
// dimension at 0; JUnit's breakdown says format is n/a, not 0.000.
func TestWhyPassesOverADimensionThatDoesNotApply(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"suite.yaml": "name: s\nitems:\n  - {id: b, prompt: say B, expected_contains: [Bravo]}\n",
		"run.jsonl":  `{"id": "b", "output": "no idea"}` + "\n",
		"evalgate.yaml": `name: s
suite: suite.yaml
scoring:
  version: scoringSystem/1.0.0
  dimensions:
    - {name: format, weight: 0.2, scorer: recorded, scale: unit, default: n/a}
    - {name: correctness, weight: 0.8, scorer: contains}
  pass: {min_score: 0.8}
grading:
  version: gradingSystem/1.0.0
`})
	r := checked(t, filepath.Join(dir, "evalgate.yaml"), filepath.Join(dir, "run.jsonl"))
	if len(r.Items) != 1 {
		t.Fatalf("%d items; want 1", len(r.Items))
	}
	if got, want := r.Items[0].Reason(), `correctness: output does not contain "Bravo"`; got != want {
		t.Errorf("reason %q; want %q", got, want)
	}
	var junit bytes.Buffer
	if err := r.WriteJUnit(&junit); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(junit.String(), "format: n/a\n") || strings.Contains(junit.String(), "format: 0.000") {
		t.Errorf("JUnit's breakdown does not say format is n/a:\n%s", junit.String())
	}
}

// TestEmptyOutputIsSaid: b timed out with nothing written (output ""), so it fails; the
// comment's Got cell says "(empty output)" where the old one was blank, which reads as
// a cell the table failed to fill.
func TestEmptyOutputIsSaid(t *testing.T) {
	config, runs := runsSuite(t)
	if err := os.WriteFile(runs[0], []byte(`{"id": "a", "output": "Alpha."}`+"\n"+`{"id": "b", "output": "", "timed_out": true}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	md := checked(t, config, runs[0]).Markdown(report.MarkdownOptions{})
	if !strings.Contains(md, "| `b`  | \\[\"Bravo\"\\] | (empty output) | timed out |") {
		t.Errorf("the empty output is not said:\n%s", md)
	}
}

// TestWhyCountsRunsWithNoResult: b answers "no idea" in run 1 (score 0.200, failing),
// has no result in run 2 (failing, score 0) and answers right in run 3: it fails 2 of
// 3 runs, one of them for want of a result, mean (0.2 + 0 + 1)/3 = 0.400.
func TestWhyCountsRunsWithNoResult(t *testing.T) {
	config, runs := runsSuite(t, 1)
	if err := os.WriteFile(runs[1], []byte(`{"id": "a", "output": "Alpha."}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := checked(t, config, runs...)
	it := item(t, r, "b")
	if got, want := it.ScoredReason(), "failed 2 of 3 runs (1 with no result), the first: score < 0.8; mean score 0.400"; got != want {
		t.Errorf("reason %q; want %q", got, want)
	}
}

// TestWhyOfTwoRuns: b answers "no idea" in both of two runs: "correctness = 0 in both
// runs", not "in all 2 runs".
func TestWhyOfTwoRuns(t *testing.T) {
	config, runs := runsSuite(t, 1, 2)
	r := checked(t, config, runs[:2]...)
	it := item(t, r, "b")
	if got, want := it.Reason(), `correctness = 0 in both runs: output does not contain "Bravo"`; got != want {
		t.Errorf("reason %q; want %q", got, want)
	}
}

// TestWhyOfADimensionZeroWithARunMissing: b answers "no idea" in runs 1 and 3 and has
// no result in run 2: correctness is 0 in each run (a missing run scores 0), and the
// why keeps the run with no result: "failed 3 of 3 runs (1 with no result):
// correctness = 0 in all 3 runs: …".
func TestWhyOfADimensionZeroWithARunMissing(t *testing.T) {
	config, runs := runsSuite(t, 1, 3)
	if err := os.WriteFile(runs[1], []byte(`{"id": "a", "output": "Alpha."}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	it := item(t, checked(t, config, runs...), "b")
	if got, want := it.Reason(), `failed 3 of 3 runs (1 with no result): correctness = 0 in all 3 runs: output does not contain "Bravo"`; got != want {
		t.Errorf("reason %q; want %q", got, want)
	}
}

// item is the report's item id.
func item(t *testing.T, r *report.Report, id string) report.Item {
	t.Helper()
	for _, it := range r.Items {
		if it.ID == id {
			return it
		}
	}
	t.Fatalf("no item %s", id)
	return report.Item{}
}
