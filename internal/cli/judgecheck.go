package cli

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/evalgate/evalgate/internal/judgecheck"
	"github.com/evalgate/evalgate/internal/reliability"
	"github.com/evalgate/evalgate/internal/report"
)

// judgeCheck is `evalgate judge-check`: re-judge a sample of one run's outputs several
// times with the cache bypassed and print each judged dimension's self-agreement, and
// the judges' agreement with people on the config's calibration set.
func (c *CLI) judgeCheck(args []string) int {
	var o common
	var chk judgeCheckFlags
	fs := newFlagSet("judge-check", "judge-check [--config evalgate.yaml] [--results run.jsonl] [--sample 50] [--repeats 3] [--format table|markdown|json]\n\nRe-judges a sample of one run's outputs several times with the judge cache bypassed (it\ncalls the judges' models) and prints each judged dimension's self-agreement: Krippendorff's\nα, exact agreement and verdict noise; and the agreement with people on the calibration: set.\nevalgate baseline measures and stores the same.", c.Stderr)
	fs.StringVar(&o.Config, "config", "evalgate.yaml", "config `file`")
	fs.Var(&o.Results, "results", "results `file` whose outputs are re-judged (the first one given; default: the config's first)")
	fs.IntVar(&chk.Sample, "sample", reliability.DefaultSample, "outputs re-judged (all if fewer; at least 2)")
	fs.IntVar(&chk.Repeats, "repeats", reliability.DefaultRepeats, "judgments of each sampled output, cache bypassed (at least 2)")
	fs.StringVar(&o.Format, "format", "table", "output format: table, markdown or json")
	fs.IntVar(&o.Concurrency, "concurrency", 0, "llm_judge: items judged at once (default: the judge's, else 8)")
	registerQuiet(fs, &o.Quiet)
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if chk.Sample < 2 || chk.Repeats < 2 { // agreement needs two outputs judged twice
		fmt.Fprintf(c.Stderr, "evalgate: --sample %d --repeats %d; want at least 2 of each: agreement is measured between judgments of several outputs\n", chk.Sample, chk.Repeats)
		return ExitBadInput
	}
	if o.Format != "table" && o.Format != "markdown" && o.Format != "json" {
		fmt.Fprintf(c.Stderr, "evalgate: --format %q; want table, markdown or json\n", o.Format)
		return ExitBadInput
	}
	l, err := Load(CheckOptions{CheckPlan: CheckPlan{Config: o.Config, Results: o.Results}, CheckEnv: CheckEnv{Stdin: c.Stdin}})
	if err != nil {
		return c.fail(err)
	}
	l.Paths = l.Paths[:1] // one run's outputs are enough
	l.importOpts.FirstRun = true
	if err := l.LoadRuns(); err != nil {
		return c.fail(err)
	}
	items, results := judgeSample(l)
	m, err := judgecheck.Measure(context.Background(), judgecheck.Options{Fresh: c.freshJudges(l.Config, &o), Items: items, Results: results,
		Sample: chk.Sample, Repeats: chk.Repeats})
	if err != nil {
		return c.fail(err)
	}
	cal, err := c.calibrate(context.Background(), l, nil, &o)
	if err != nil {
		return c.fail(err)
	}
	floor := l.Config.Grading.Regression.AlphaFloor()
	switch o.Format {
	case "json":
		b, err := json.MarshalIndent(struct {
			*reliability.Measurement
			Calibration *reliability.Calibration `json:"calibration,omitempty"`
		}{m, cal}, "", "  ")
		if err != nil {
			return c.fail(err)
		}
		fmt.Fprintln(c.Stdout, string(b))
	case "markdown":
		for _, l := range report.ReliabilityLines(m, floor) {
			fmt.Fprintf(c.Stdout, "- %s\n", report.Escape(l))
		}
		printCalibration(c.Stdout, cal, true)
	default:
		for _, l := range report.ReliabilityLines(m, floor) {
			fmt.Fprintln(c.Stdout, l)
		}
		printCalibration(c.Stdout, cal, false)
	}
	return ExitPass
}
