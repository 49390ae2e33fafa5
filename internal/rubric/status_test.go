package rubric_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/rubric"
)

// TestItemStatusAgreesWithItemAt: the outcome read from the flags alone (pass, missing
// runs, runs, pending) is the one the full aggregation gives, and ItemInto (reused
// scratch space) gives what ItemAt does, over several runs with flaky, failing and
// missing items and a partial re-run that leaves items out.
func TestItemStatusAgreesWithItemAt(t *testing.T) {
	cfg := loadConfig(t, seed001Config)
	suite, err := eval.ParseSuite("suite.yaml", []byte(suiteOf("steady", "flaky", "once", "gone", "rerun")))
	if err != nil {
		t.Fatal(err)
	}
	good := func(id string) string { return rec001(id, "2", "2", 1000, 1000, 100, "") }
	bad := func(id string) string { return rec001(id, "0", "2", 1000, 1000, 100, "") }
	texts := []string{
		good("steady") + good("flaky") + good("once") + good("gone") + bad("rerun"),
		good("steady") + bad("flaky") + bad("once") + bad("rerun"),
		good("steady") + good("flaky") + bad("once") + good("rerun"),
		good("rerun"), // a partial re-run of one item
	}
	var srcs []rubric.RunSource
	for i, text := range texts {
		run, err := eval.ReadRun(fmt.Sprintf("run%d.jsonl", i+1), strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		src := rubric.MemoryRun(run)
		src.Partial = i == len(texts)-1
		srcs = append(srcs, src)
	}
	sc, err := rubric.ScoreRuns(context.Background(), &cfg.Scoring, suite, srcs, rubric.ScoreOptions{DropFields: true})
	if err != nil {
		t.Fatal(err)
	}
	var buf []rubric.Sample
	var scr rubric.ItemScratch
	passed := 0
	for i := range sc.NumItems() {
		is := sc.ItemAt(i, &buf)
		if diff := cmp.Diff(is, *sc.ItemInto(i, &scr)); diff != "" {
			t.Errorf("item %s: ItemInto differs from ItemAt (-ItemAt +ItemInto):\n%s", is.Item.ID, diff)
		}
		pass, missing, runs, pending := sc.ItemStatus(i)
		if pass != is.Pass || missing != is.Missing || runs != is.Runs || pending != is.Pending {
			t.Errorf("item %s: status pass %v missing %d/%d pending %v; ItemAt says %v %d/%d %v",
				is.Item.ID, pass, missing, runs, pending, is.Pass, is.Missing, is.Runs, is.Pending)
		}
		if pass {
			passed++
		}
	}
	// steady passes 3/3, flaky 2/3, rerun 2/4 (its partial run counts); once 1/3 and
	// gone 1/3 (missing twice) fail.
	if passed != 3 {
		t.Errorf("%d items pass; want 3 (steady, flaky, rerun)", passed)
	}
}
