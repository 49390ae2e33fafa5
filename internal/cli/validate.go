package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"strings"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/pathglob"
)

func (c *CLI) validate(args []string) int {
	var o common
	fs := newFlagSet("validate", "validate [--config evalgate.yaml] [--results run.jsonl ...] [RESULTS...]\n\nChecks the config (its run: block as evalgate run would), the suite and the results given\nwithout scoring them, runs the rubric tests, and judges the calibration: set (exit 1\nwhen a judge agrees with people less than calibration.min_alpha).\nResults files may also be given as arguments, each as one --results.", c.Stderr)
	fs.StringVar(&o.Config, "config", "evalgate.yaml", "config `file`")
	fs.Var(&o.Results, "results", "results `file` or quoted pattern to check too (repeatable)")
	o.Import.register(fs)
	registerQuiet(fs, &o.Quiet) // the calibration set is judged: its progress
	files, code, ok := parseWithFiles(fs, args, true)
	if !ok {
		return code
	}
	o.Results = append(o.Results, files...)
	imp, err := o.Import.options(c.Stderr)
	if err != nil {
		fmt.Fprintf(c.Stderr, "evalgate: %v\n", err)
		return ExitBadInput
	}
	l, pending, err := loadForValidate(CheckOptions{CheckPlan: CheckPlan{Config: o.Config, Results: o.Results, Import: imp}, CheckEnv: CheckEnv{Stdin: c.Stdin}})
	if err != nil {
		return c.fail(err)
	}
	if l.Config.Run != nil { // the errors `evalgate run` would stop on
		if _, _, err := runSystem(l.Config, c.Getenv); err != nil {
			return c.fail(err)
		}
	}
	runs := 0
	if len(l.Paths) > 0 {
		if runs, err = l.validateResults(); err != nil {
			return c.fail(err)
		}
	}
	if err := l.RunRubricTests(context.Background(), c.notice); err != nil {
		return c.fail(err)
	}
	cal, err := c.calibrate(context.Background(), l, nil, &o)
	if err != nil {
		return c.fail(err)
	}
	cfg := l.Config
	sum := 0.0
	for _, d := range cfg.Scoring.Dimensions {
		sum += d.Weight
	}
	fmt.Fprintf(c.Stdout, "%s: ok: %s, %s; %s (weights sum to %.3f), %s; ",
		cfg.File, cfg.Scoring.Version, cfg.Grading.Version, count(len(cfg.Scoring.Dimensions), "dimension"), math.Round(sum*1000)/1000, count(len(cfg.Grading.Gates), "gate"))
	if l.Suite != nil {
		fmt.Fprintf(c.Stdout, "suite %s: %d items; ", l.Suite.File, l.Suite.Len())
	}
	fmt.Fprintf(c.Stdout, "%d results file(s)", runs)
	if n := len(cfg.RubricCases); n > 0 {
		fmt.Fprintf(c.Stdout, "; %d rubric test(s) pass", n)
	}
	if cal != nil {
		fmt.Fprintf(c.Stdout, "; calibration: %d labelled output(s) judged", cal.Outputs)
	}
	if len(pending) > 0 {
		who := "`evalgate run` writes them"
		if cfg.Run == nil { // run would refuse: there is no run: block to run
			who = "the system under test writes them (or add a `run:` block, and `evalgate run` does)"
		}
		fmt.Fprintf(c.Stdout, "\nno results yet (%s): %s; validate checks them once they are there", strings.Join(pending, ", "), who)
	}
	fmt.Fprintln(c.Stdout)
	printCalibration(c.Stdout, cal, false)
	if under := cal.Failures(); len(under) > 0 {
		for _, u := range under {
			fmt.Fprintf(c.Stderr, "evalgate: calibration: %s\n", u)
		}
		return ExitGateFailed
	}
	return ExitPass
}

// loadForValidate loads the config and the suite as check does, but without results
// when there are none yet: a new project lints before its first run. It returns the
// results files named (by the config or --results, not patterns) that do not exist
// yet, left out of l.Paths. With no suite file and no results, there is no suite to
// read: that is still an error.
func loadForValidate(opts CheckOptions) (*Loaded, []string, error) {
	cl, err := loadConfigOnly(opts)
	if err != nil {
		return nil, nil, err
	}
	cfg := cl.Config
	names := opts.Results
	if len(names) == 0 {
		for _, p := range cfg.Results {
			names = append(names, cfg.Path(p))
		}
	}
	var present, pending []string
	for _, p := range names {
		if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) && !pathglob.HasMeta(p) {
			pending = append(pending, p)
			continue
		}
		present = append(present, p)
	}
	if len(names) == 0 {
		pending = []string{"no `results:` in the config"}
	}
	if len(present) > 0 {
		opts.Results = present
		l, err := Load(opts)
		return l, pending, err
	}
	if cfg.Suite == "" {
		return nil, nil, fmt.Errorf("%s: no suite and no results yet: list `suite:` in the config, or run the system to have results carrying the suite's fields", cfg.File)
	}
	l := &Loaded{Config: cfg}
	if l.Suite, err = eval.LoadSuite(cfg.Path(cfg.Suite)); err != nil {
		return nil, nil, err
	}
	return l, pending, nil
}

// count is "1 dimension", "2 dimensions": n and the noun, plural but for one.
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
