package cli

import (
	"context"
	"fmt"

	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/runner"
)

// runSeries runs the suite o.Runs times, one run after the other, into
// o.OutDir/run1.jsonl ... runN.jsonl. With o.Resume a run file that already holds every
// suite item is skipped and a partial one is completed; the directory remembers N, and a
// different N is refused rather than mixing two series.
func (c *CLI) runSeries(ctx context.Context, sys runner.System, cfg *config.Config, suite *eval.Suite, o runOptions, rb *runBudget) int {
	removed, err := runner.PrepareOutDir(o.OutDir, o.Runs, o.Resume)
	if err != nil {
		return c.fail(err)
	}
	for _, p := range removed {
		fmt.Fprintf(c.Stderr, "removed %s (starting over; --resume keeps finished runs)\n", p)
	}
	for k := 1; k <= o.Runs; k++ {
		path := runner.RunFile(o.OutDir, k)
		label := fmt.Sprintf("run %d/%d", k, o.Runs)
		if o.Resume && complete(path, suite) {
			fmt.Fprintf(c.Stderr, "%s: %s holds every item, skipped\n", label, path)
			continue
		}
		code, cut := c.runOnce(ctx, sys, cfg, suite, path, o.Resume, label, o.Quiet, rb, resumeCommand(o))
		if code != ExitPass || cut {
			fmt.Fprintf(c.Stderr, "evalgate run: stopped in run %d of %d; `%s` goes on from there\n", k, o.Runs, resumeCommand(o))
			return code
		}
	}
	return ExitPass
}

// complete reports whether the results file at path has a line for every suite item.
func complete(path string, suite *eval.Suite) bool {
	done, err := runner.CompletedFile(path)
	if err != nil {
		return false
	}
	for i := range suite.Len() {
		if !done[suite.ID(i)] {
			return false
		}
	}
	return true
}
