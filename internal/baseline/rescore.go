package baseline

import (
	"context"
	"fmt"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/rubric"
)

// recorded is how a re-scoring reads a baseline's recorded outputs, once per recorded
// run: each calls fn with every output in turn, never holding them unless the baseline
// is held whole already (a version 1 file, or one given in memory), whose runs are
// known up front (0 otherwise: counted while reading).
type recorded struct {
	runs int
	held bool
	each func(fn func(run int, rec map[string]any) error) error
}

// recorded is the re-scoring's source of r's recorded outputs: the outputs held with a
// baseline read whole, or the file reopened and read past its items on each pass.
func (r *Reader) recorded() recorded {
	if r.v1 != nil {
		return recorded{runs: len(r.outs), held: true, each: r.EachOutput}
	}
	path := r.path
	return recorded{each: func(fn func(run int, rec map[string]any) error) error {
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
		return r.EachOutput(fn)
	}}
}

// rescore re-scores the baseline's recorded outputs under the candidate's scoring
// system as a stream — one pass over the outputs per recorded run, compact scores only
// — and puts each item's figures in bs. It returns how many recorded runs it read.
func rescore(ctx context.Context, cand *rubric.Scored, suite *eval.Suite, b *Baseline, rec recorded, file string, bs *baseSide, maxMemory int64) (int, error) {
	sys := cand.System
	if rec.held && rec.runs == 0 {
		return 0, noOutputsError(file, b, sys)
	}
	runs := rec.runs // highest recorded run index seen, plus one, when not known
	nsrc := max(len(b.Runs), 1)
	if rec.held {
		nsrc = rec.runs
	}
	srcs := recordedSources(rec, suite, file, nsrc, &runs)
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
		if x, ok := cand.Suite.Find(it.ID); ok {
			bs.override(x, &it)
		}
	}
	return runs, nil
}

// recordedSources are the baseline's recorded runs as run sources to score: nsrc of
// them, each reading rec on every pass and keeping its own run's outputs of the suite's
// items. *runs is raised to the highest recorded run index seen, plus one.
func recordedSources(rec recorded, suite *eval.Suite, file string, nsrc int, runs *int) []rubric.RunSource {
	srcs := make([]rubric.RunSource, nsrc)
	for i := range srcs {
		name := fmt.Sprintf("%s (recorded run %d)", file, i+1)
		srcs[i] = rubric.RunSource{File: name, Each: func(prep func(*eval.Result) any, fn func(*eval.Result, any) error) error {
			n := 0
			return rec.each(func(run int, out map[string]any) error {
				*runs = max(*runs, run+1)
				if run != i {
					return nil
				}
				if id, _ := out["id"].(string); id == "" {
					return nil
				} else if _, ok := suite.Item(id); !ok {
					return nil
				}
				n++
				res, err := eval.NewResult(name, n, out)
				if err != nil {
					return err
				}
				return fn(res, prep(res))
			})
		}}
	}
	return srcs
}
