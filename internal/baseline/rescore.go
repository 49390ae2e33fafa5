package baseline

import (
	"context"
	"fmt"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/rubric"
)

// rescoreStream re-scores the recorded outputs of the baseline file at path under the
// candidate's scoring system as a stream — one pass over the outputs per recorded run,
// compact scores only, never the outputs held — and puts each item's figures in bs. It
// returns how many recorded runs it read (as Baseline.Outputs would count them).
func rescoreStream(ctx context.Context, cand *rubric.Scored, suite *eval.Suite, b *Baseline, path, file string, bs *baseSide, maxMemory int64) (int, error) {
	sys := cand.System
	runs := 0 // highest recorded run index seen, plus one
	srcs := make([]rubric.RunSource, max(len(b.Runs), 1))
	for i := range srcs {
		name := fmt.Sprintf("%s (recorded run %d)", file, i+1)
		srcs[i] = rubric.RunSource{File: name, Each: func(prep func(*eval.Result) any, fn func(*eval.Result, any) error) error {
			r, err := Open(path)
			if err != nil {
				return err
			}
			defer r.Close()
			r.skipRepeats = true // the comparison refused repeats already
			for {
				_, ok, err := r.Next()
				if err != nil {
					return err
				}
				if !ok {
					break
				}
			}
			n := 0
			return r.EachOutput(func(run int, rec map[string]any) error {
				runs = max(runs, run+1)
				if run != i {
					return nil
				}
				if id, _ := rec["id"].(string); id == "" {
					return nil
				} else if _, ok := suite.Item(id); !ok {
					return nil
				}
				n++
				res, err := eval.NewResult(name, n, rec)
				if err != nil {
					return err
				}
				return fn(res, prep(res))
			})
		}}
	}
	sc, err := rubric.ScoreRuns(ctx, sys, suite, srcs, rubric.ScoreOptions{MaxMemory: maxMemory})
	if err != nil {
		return 0, &MismatchError{Msg: fmt.Sprintf("re-scoring baseline %s under %s failed: %v; refresh it with `evalgate baseline`", file, sys.Version, err)}
	}
	if runs == 0 {
		return 0, noOutputsError(file, b, sys)
	}
	var s itemScratch
	var buf []rubric.Sample
	for i := range sc.NumItems() {
		if is := sc.ItemAt(i, &buf); is.Missing == is.Runs {
			continue // item added since the baseline: no recorded output
		}
		it := itemOf(sc, i, &s)
		if x, ok := cand.Suite.Item(it.ID); ok {
			bs.override(x.Index, &it)
		}
	}
	return runs, nil
}
