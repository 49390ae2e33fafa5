package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"

	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/judge/progress"
	"github.com/evalgate/evalgate/internal/runner"
)

func (c *CLI) runCmd(args []string) int {
	fs := newFlagSet("run", "run [--config evalgate.yaml] --out results.jsonl [--resume] [--concurrency N]\n\nRuns the system under test (the config's `run:` block: exec or openai) over the suite\nand writes one JSONL result per item as it finishes, so an interrupted run keeps its work.", c.Stderr)
	cfgPath := fs.String("config", config.DefaultFile, "config `file`")
	out := fs.String("out", "", "results `file` to write (JSONL; default: the config's first results file)")
	resume := fs.Bool("resume", false, "keep the items already in --out and run only the others")
	conc := fs.Int("concurrency", 0, "items run at once (default: the config's, else 8)")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	cfg, err := config.Load(*cfgPath, nil)
	if err != nil {
		return c.fail(err)
	}
	if cfg.Run == nil {
		return c.fail(eval.Errorf(cfg.File, 0, "", "no `run:` block: say how to run the system under test (run: {exec: {command: [python3, sut.py]}} or run: {openai: {model: ...}})"))
	}
	if cfg.Suite == "" {
		return c.fail(eval.Errorf(cfg.File, 0, "", "no `suite:`: evalgate run needs the suite to run"))
	}
	suite, err := eval.LoadSuite(cfg.Path(cfg.Suite))
	if err != nil {
		return c.fail(err)
	}
	path := *out
	if path == "" {
		if len(cfg.Results) == 0 {
			return c.fail(fmt.Errorf("no --out and no `results:` in %s: say where to write the results", cfg.File))
		}
		path = cfg.Path(cfg.Results[0])
	}
	if *conc > 0 {
		cfg.Run.Concurrency = *conc
	}
	sys, err := cfg.Run.System(c.Getenv)
	if err != nil {
		return c.fail(eval.Errorf(cfg.File, 0, "", "%v", err))
	}
	items := make([]runner.Item, 0, len(suite.Items))
	var f *os.File
	if *resume {
		var done map[string]bool
		f, done, err = runner.OpenResume(path)
		if err != nil {
			return c.fail(err)
		}
		for _, it := range suite.Items {
			if !done[it.ID] {
				items = append(items, runner.Item{ID: it.ID, Fields: it.Fields})
			}
		}
		fmt.Fprintf(c.Stderr, "resuming %s: %d item(s) done, %d to run\n", path, len(done), len(items))
	} else {
		f, err = os.Create(path)
		if err != nil {
			return c.fail(err)
		}
		for _, it := range suite.Items {
			items = append(items, runner.Item{ID: it.ID, Fields: it.Fields})
		}
	}
	defer f.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	sum, err := runner.Run(ctx, sys, items, f, runner.Options{Concurrency: cfg.Run.Concurrency,
		Progress: progress.New(c.Stderr, progress.StderrIsTerminal, "run", len(items))})
	if err != nil {
		fmt.Fprintf(c.Stderr, "evalgate run: stopped after %d result(s), kept in %s (rerun with --resume)\n", sum.Written, path)
		return c.fail(err)
	}
	if err := f.Close(); err != nil {
		return c.fail(err)
	}
	fmt.Fprintf(c.Stdout, "wrote %s: %d result(s), %d timed out, %d error(s)\n", path, sum.Written, sum.TimedOut, sum.Errors)
	return ExitPass
}
