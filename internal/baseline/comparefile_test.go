package baseline_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/rubric"
	"github.com/evalgate/evalgate/internal/shellword"
	"github.com/evalgate/evalgate/internal/stats"
)

// TestCompareFileEqualsCompare: streaming the baseline file gives the comparison of the
// same baseline loaded whole and served from memory, through suite changes (changed, added, removed items), several
// runs, more than MaxBiggestDrops drops with ties, and a scoring change that re-scores
// the recorded outputs.
func TestCompareFileEqualsCompare(t *testing.T) {
	dir := t.TempDir()
	cfg, _ := setup(t, "scoringSystem/1.0.0")
	var ids30 []string
	for i := range 30 {
		ids30 = append(ids30, fmt.Sprintf("i%02d", i))
	}
	suite, err := eval.ParseSuite("suite.jsonl", []byte(suiteJSONL(ids30...)))
	if err != nil {
		t.Fatal(err)
	}
	baseScores, candScores := map[string]float64{}, map[string]float64{}
	for i, id := range ids30 {
		baseScores[id] = 1
		// Falls of 0.5 (i mod 3 = 0, ten items: ties) and 0.25 (i mod 3 = 1): more than
		// MaxBiggestDrops items fell, so the list is cut, ties kept in suite order.
		candScores[id] = []float64{0.5, 0.75, 1}[i%3]
	}
	flaky := map[string]float64{}
	for id, v := range baseScores {
		flaky[id] = v
	}
	flaky["i05"] = 0
	base := baseline.FromScored(score(t, cfg, suite, runOf(t, "r1", baseScores, ids30...), runOf(t, "r2", flaky, ids30...), runOf(t, "r3", baseScores, ids30...)), baseline.Options{})
	path := filepath.Join(dir, "b.json")
	if err := baseline.Save(path, base); err != nil {
		t.Fatal(err)
	}
	// The candidate's suite: i01 changed, i29 removed, new added.
	s2 := strings.Replace(suiteJSONL(ids30[:29]...), `"p-i01"`, `"changed"`, 1) + `{"id":"new","prompt":"p-new"}` + "\n"
	suite2, err := eval.ParseSuite("suite.jsonl", []byte(s2))
	if err != nil {
		t.Fatal(err)
	}
	candScores["new"] = 0
	cands := append(append([]string{}, ids30[:29]...), "new")
	for _, version := range []string{"scoringSystem/1.0.0", "scoringSystem/1.1.0"} {
		cfg2, _ := setup(t, version)
		cand := score(t, cfg2, suite2, runOf(t, "cand", candScores, cands...))
		loaded, err := baseline.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		want, err := compareMem(cand, loaded, path)
		if err != nil {
			t.Fatal(err)
		}
		got, head, err := baseline.CompareFile(context.Background(), cand, path, baseline.CompareOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got, ignoreUnexported); diff != "" {
			t.Errorf("%s: CompareFile differs from Compare over memory (-Load +file):\n%s", version, diff)
		}
		sameBaseScores(t, cand, want, got)
		if head.Mean != base.Mean || head.Outputs != nil || head.Items != nil {
			t.Errorf("%s: header mean %v, %d outputs, %d items; want %v and neither outputs nor items", version, head.Mean, len(head.Outputs), len(head.Items), base.Mean)
		}
		if len(got.BiggestDrops) != baseline.MaxBiggestDrops {
			t.Fatalf("%s: %d biggest drops; want %d", version, len(got.BiggestDrops), baseline.MaxBiggestDrops)
		}
		// The ten falls of 0.5 are i00, i03, …, i27 minus i29's removal: i00..i27 step 3
		// is ten items, all ahead of the 0.25 falls, in suite order.
		for k, ch := range got.BiggestDrops {
			if wantID := fmt.Sprintf("i%02d", 3*k); ch.ID != wantID {
				t.Errorf("%s: biggest drop %d is %s; want %s", version, k, ch.ID, wantID)
			}
		}
	}
}

// TestCompareFileRefusesRepeatedItems: a baseline that holds an item twice is refused
// naming both lines, for an item the candidate has and for one it lacks.
func TestCompareFileRefusesRepeatedItems(t *testing.T) {
	cfg, suite := setup(t, "scoringSystem/1.0.0")
	all := map[string]float64{"a": 1, "b": 1, "c": 1, "d": 1, "e": 1}
	b := baseline.FromScored(score(t, cfg, suite, runOf(t, "r", all, ids...)), baseline.Options{})
	cand := score(t, cfg, suite, runOf(t, "c", all, ids...))
	for _, tc := range []struct{ id, want string }{
		{"c", "b.json:7: item \"c\": duplicate item id; first on line 4"},
		{"zz", "b.json:8: item \"zz\": duplicate item id; first on line 7"},
	} {
		bb := *b
		bb.Items = append([]baseline.Item{}, b.Items...)
		extra := b.Items[2]
		extra.ID = tc.id
		if tc.id == "zz" {
			bb.Items = append(bb.Items, extra)
		}
		bb.Items = append(bb.Items, extra)
		path := filepath.Join(t.TempDir(), "b.json")
		var buf strings.Builder
		if err := baseline.Encode(&buf, &bb, nil); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(buf.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, err := baseline.CompareFile(context.Background(), cand, path, baseline.CompareOptions{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("repeated %s: err = %v; want %q", tc.id, err, tc.want)
		}
	}
}

// TestNewlyFailingListIsBounded: when more than MaxItemChanges items newly fail, the
// list keeps the MaxItemChanges that fell most, in suite order, and counts them all.
func TestNewlyFailingListIsBounded(t *testing.T) {
	cfg, _ := setup(t, "scoringSystem/1.0.0")
	n := baseline.MaxItemChanges + 5
	var all []string
	base, cand := map[string]float64{}, map[string]float64{}
	for i := range n {
		id := fmt.Sprintf("i%05d", i)
		all = append(all, id)
		base[id] = 1
		// Every item fails now (< 0.8); the first five fall least (to 0.7), the rest to 0.
		cand[id] = 0
		if i < 5 {
			cand[id] = 0.7
		}
	}
	suite, err := eval.ParseSuite("suite.jsonl", []byte(suiteJSONL(all...)))
	if err != nil {
		t.Fatal(err)
	}
	b := baseline.FromScored(score(t, cfg, suite, runOf(t, "base", base, all...)), baseline.Options{})
	c, err := compareMem(score(t, cfg, suite, runOf(t, "cand", cand, all...)), b, "b.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.NewlyFailing) != baseline.MaxItemChanges || c.NewlyFailingCount != n || c.NumNewlyFailing() != n {
		t.Fatalf("%d listed, count %d; want %d listed of %d", len(c.NewlyFailing), c.NewlyFailingCount, baseline.MaxItemChanges, n)
	}
	// The five that fell least (i00000..i00004) are the ones left out.
	if c.NewlyFailing[0].ID != "i00005" || c.NewlyFailing[len(c.NewlyFailing)-1].ID != all[n-1] {
		t.Errorf("list runs %s..%s; want i00005..%s", c.NewlyFailing[0].ID, c.NewlyFailing[len(c.NewlyFailing)-1].ID, all[n-1])
	}
	if c.NewlyPassingCount != 0 || c.NumNewlyPassing() != 0 {
		t.Errorf("newly passing count %d; want 0", c.NewlyPassingCount)
	}
}

// TestCompareFileWithoutOutputsRefusesRescoring: a version 2 file that kept no recorded
// outputs, under another scoring version, is refused as Compare refuses it.
func TestCompareFileWithoutOutputsRefusesRescoring(t *testing.T) {
	cfg, suite := setup(t, "scoringSystem/1.0.0")
	all := map[string]float64{"a": 1, "b": 1, "c": 1, "d": 1, "e": 1}
	b := baseline.FromScored(score(t, cfg, suite, runOf(t, "r", all, ids...)), baseline.Options{})
	b.Outputs = nil
	path := filepath.Join(t.TempDir(), "b.json")
	if err := baseline.Save(path, b); err != nil {
		t.Fatal(err)
	}
	cfg2, _ := setup(t, "scoringSystem/1.1.0")
	cand := score(t, cfg2, suite, runOf(t, "c", all, ids...))
	_, want := compareMem(cand, b, path)
	_, _, got := baseline.CompareFile(context.Background(), cand, path, baseline.CompareOptions{})
	var me *baseline.MismatchError
	if !errors.As(got, &me) || want == nil || got.Error() != want.Error() {
		t.Errorf("CompareFile: %v\nwant the MismatchError %v", got, want)
	}
}

// ignoreUnexported compares comparisons by their exported fields; sameBaseScores
// compares the per-item baseline scores they keep unexported.
var ignoreUnexported = cmpopts.IgnoreUnexported(stats.Prior{}, baseline.Comparison{})

// sameBaseScores checks that two comparisons of cand give each item the same baseline
// score.
func sameBaseScores(t *testing.T, cand *rubric.Scored, want, got *baseline.Comparison) {
	t.Helper()
	for i := range cand.NumItems() {
		id := cand.Suite.ID(i)
		w, wok := want.BaseScore(id)
		g, gok := got.BaseScore(id)
		if w != g || wok != gok {
			t.Errorf("%s: baseline score %v (%v) from one, %v (%v) from the other", id, w, wok, g, gok)
		}
	}
}

// The refresh command a version 1 baseline's note prints quotes the baseline's path:
// pasted into a shell, a path with a space or a glob character stays one argument.
func TestV1NoteQuotesPath(t *testing.T) {
	cfg, suite := setup(t, "scoringSystem/1.0.0")
	b := baseline.FromScored(score(t, cfg, suite, runOf(t, "base", map[string]float64{"a": 1, "b": 1, "c": 1, "d": 0.8, "e": 0.95}, ids...)), baseline.Options{})
	b1 := *b
	b1.SchemaVersion = 1
	data, err := json.MarshalIndent(&b1, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "my base*.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cand := score(t, cfg, suite, runOf(t, "cand", map[string]float64{"a": 1, "b": 1, "c": 1, "d": 0.8, "e": 0.95}, ids...))
	got, _, err := baseline.CompareFile(context.Background(), cand, path, baseline.CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := "--out " + shellword.Quote(path) + "`"
	found := false
	for _, n := range got.Notes {
		if strings.Contains(n, "refresh it with") {
			found = true
			if !strings.Contains(n, want) {
				t.Errorf("note %q: want the path quoted, %s", n, want)
			}
		}
	}
	if !found {
		t.Errorf("no refresh note among %q", got.Notes)
	}
}
