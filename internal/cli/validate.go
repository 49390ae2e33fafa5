package cli

import (
	"context"
	"fmt"
	"math"
)

func (c *CLI) validate(args []string) int {
	var o common
	fs := newFlagSet("validate", "validate [--config evalgate.yaml] [--results run.jsonl ...]", c.Stderr)
	fs.StringVar(&o.Config, "config", "evalgate.yaml", "config `file`")
	fs.Var(&o.Results, "results", "results `file` or quoted pattern to check too (repeatable)")
	o.Import.register(fs)
	if code, ok := parse(fs, args); !ok {
		return code
	}
	imp, err := o.Import.options(c.Stderr)
	if err != nil {
		fmt.Fprintf(c.Stderr, "evalgate: %v\n", err)
		return ExitBadInput
	}
	l, err := Load(CheckOptions{Config: o.Config, Results: o.Results, Stdin: c.Stdin, Import: imp})
	if err != nil {
		return c.fail(err)
	}
	if err := l.LoadRuns(); err != nil {
		return c.fail(err)
	}
	for _, run := range l.Runs {
		if err := run.CheckAgainst(l.Suite); err != nil {
			return c.fail(err)
		}
	}
	if err := l.RunRubricTests(context.Background(), c.notice); err != nil {
		return c.fail(err)
	}
	cfg := l.Config
	sum := 0.0
	for _, d := range cfg.Scoring.Dimensions {
		sum += d.Weight
	}
	fmt.Fprintf(c.Stdout, "%s: ok: %s, %s; %d dimensions (weights sum to %.3f), %d gates; suite %s: %d items; %d results file(s)",
		cfg.File, cfg.Scoring.Version, cfg.Grading.Version, len(cfg.Scoring.Dimensions), math.Round(sum*1000)/1000,
		len(cfg.Grading.Gates), l.Suite.File, l.Suite.Len(), len(l.Runs))
	if n := len(cfg.Fixtures); n > 0 {
		fmt.Fprintf(c.Stdout, "; %d rubric test(s) pass", n)
	}
	fmt.Fprintln(c.Stdout)
	return ExitPass
}
