package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/pricing"
	"github.com/evalgate/evalgate/internal/progress"
	"github.com/evalgate/evalgate/internal/runner"
)

// runOptions are the flags of `evalgate run`.
type runOptions struct {
	Config, Out, OutDir string
	Only                multiFlag
	OnlyFrom            string
	Runs, Concurrency   int
	MaxCostUSD          float64
	Resume              bool
	Quiet               bool // no progress on stderr
	Shard               string
}

func (c *CLI) runCmd(args []string) int {
	fs := newFlagSet("run", "run [--config evalgate.yaml] (--out results.jsonl | --runs N --out-dir DIR) [--resume] [--concurrency N] [--only IDS | --only-from REPORT]\n\nRuns the system under test (the config's `run:` block: exec or openai) over the suite\nand writes one JSONL result per item as it finishes, so an interrupted run keeps its work.\nWith --runs N --out-dir DIR it runs the suite N times, one after the other, into\nDIR/run1.jsonl ... DIR/runN.jsonl (what `evalgate baseline` and the action's glob read).", c.Stderr)
	var o runOptions
	fs.StringVar(&o.Config, "config", config.DefaultFile, "config `file`")
	fs.StringVar(&o.Out, "out", "", "results `file` to write (JSONL; default: the config's first results file)")
	fs.StringVar(&o.OutDir, "out-dir", "", "write one results file per run into `dir`: run1.jsonl ... runN.jsonl")
	fs.IntVar(&o.Runs, "runs", 1, "how many times to run the suite (with --out-dir)")
	fs.BoolVar(&o.Resume, "resume", false, "keep the items already written and run only the others (with --out-dir: finished run files are skipped, a partial one is completed; --runs must be the same)")
	fs.IntVar(&o.Concurrency, "concurrency", 0, "items run at once (default: the config's, else 8)")
	floatVar(fs, &o.MaxCostUSD, "max-cost-usd", 0, "stop starting items once this many US `dollars` could be spent (openai mode; default: the config's run.max_cost_usd, else no cap); what ran is kept: go on with --resume")
	fs.Var(&o.Only, "only", "run only these items: `ids`, comma-separated or one --only each (repeatable; a value that is an item's id whole is that item, commas and all): a re-run to settle an inconclusive verdict; check it with --rerun FILE")
	fs.StringVar(&o.OnlyFrom, "only-from", "", "run only the items a JSON `report` (check --format json) names as its regression evidence")
	registerQuiet(fs, &o.Quiet)
	fs.StringVar(&o.Shard, "shard", "", "run only part `i/n` of the suite (1-based; items split by a hash of their id), for a CI matrix; score it with evalgate score --shard i/n")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	switch {
	case o.Out != "" && o.OutDir != "":
		return c.fail(fmt.Errorf("--out and --out-dir both given; --out writes one run, --out-dir one file per run: keep one"))
	case o.Runs < 1:
		return c.fail(fmt.Errorf("--runs is %d; want 1 or more", o.Runs))
	case o.Runs > 1 && o.OutDir == "":
		return c.fail(fmt.Errorf("--runs %d writes one results file per run: give --out-dir DIR (it gets run1.jsonl ... run%d.jsonl)", o.Runs, o.Runs))
	}
	cfg, err := config.Load(o.Config, nil)
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
	if suite, err = onlyItems(suite, o.Only, o.OnlyFrom); err != nil {
		return c.fail(err)
	}
	if o.Shard != "" {
		sh, err := eval.ParseShard(o.Shard)
		if err != nil {
			return c.fail(fmt.Errorf("--shard: %w", err))
		}
		suite = suite.Subset(sh)
	}
	if o.Concurrency > 0 {
		cfg.Run.Concurrency = o.Concurrency
	}
	if !pricing.ValidCap(o.MaxCostUSD) {
		return c.fail(fmt.Errorf("--max-cost-usd is %v; want a positive amount of US dollars", o.MaxCostUSD))
	}
	if o.MaxCostUSD > 0 {
		cfg.Run.MaxCostUSD = o.MaxCostUSD
	}
	sys, rb, err := runSystem(cfg, c.Getenv)
	if err != nil {
		return c.fail(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if o.OutDir != "" {
		return c.runSeries(ctx, sys, cfg, suite, o, rb)
	}
	path := o.Out
	if path == "" {
		if len(cfg.Results) == 0 {
			return c.fail(fmt.Errorf("no --out and no `results:` in %s: say where to write the results", cfg.File))
		}
		path = cfg.Path(cfg.Results[0])
	}
	code, _ := c.runOnce(ctx, sys, cfg, suite, path, o.Resume, "run", o.Quiet, rb, resumeCommand(o))
	return code
}

// runOnce runs the suite once into path (appending to it with resume) and reports;
// cut says its budget stopped it (the exit code is then 0: what ran is valid). again
// is the command that goes on where it stops (resumeCommand).
func (c *CLI) runOnce(ctx context.Context, sys runner.System, cfg *config.Config, suite *eval.Suite, path string, resume bool, label string, quiet bool, rb *runBudget, again string) (code int, cut bool) {
	items := make([]runner.Item, 0, suite.Len())
	var f *os.File
	var err error
	if resume {
		var done map[string]bool
		f, done, err = runner.OpenResume(path)
		if err != nil {
			return c.fail(err), false
		}
		for _, it := range suite.All() {
			if !done[it.ID] {
				items = append(items, runner.Item{ID: it.ID, Fields: it.Fields})
			}
		}
		fmt.Fprintf(c.Stderr, "resuming %s: %d item(s) done, %d to run\n", path, len(done), len(items))
	} else {
		// The config's results path (runs/latest.jsonl) may name a folder not made yet.
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return c.fail(err), false
		}
		f, err = os.Create(path)
		if err != nil {
			return c.fail(err), false
		}
		for _, it := range suite.All() {
			items = append(items, runner.Item{ID: it.ID, Fields: it.Fields})
		}
	}
	defer f.Close()
	var prog *progress.Bar
	if !quiet {
		prog = progress.NewBar(c.Stderr, progress.StderrIsTerminal, label, len(items))
	}
	opts := runner.Options{Concurrency: cfg.Run.Concurrency, Progress: prog}
	if rb != nil {
		opts.Budget, opts.Price = rb.budget, rb.price
	}
	sum, err := runner.Run(ctx, sys, items, f, opts)
	if err != nil {
		fmt.Fprintf(c.Stderr, "evalgate run: stopped after %d result(s), kept in %s; go on with `%s`\n", sum.Written, path, again)
		return c.fail(err), false
	}
	if err := f.Close(); err != nil {
		return c.fail(err), false
	}
	if sum.BudgetCut {
		note := runner.BudgetNote{MaxCostUSD: rb.budget.Max(), SpentUSD: rb.budget.Spent(), NotRun: sum.NotRun, Items: suite.Len()}
		if err := runner.WriteBudgetNote(path, note); err != nil {
			return c.fail(err), false
		}
		fmt.Fprintf(c.Stdout, "wrote %s: %d result(s), %d timed out, %d error(s); cut by its budget: %s spent of max_cost_usd %s, %d item(s) not run; go on with `%s` (give --max-cost-usd a budget for the items not run)\n",
			path, sum.Written, sum.TimedOut, sum.Errors, pricing.Dollars(note.SpentUSD), pricing.Dollars(note.MaxCostUSD), sum.NotRun, again)
		return ExitPass, true
	}
	if err := runner.RemoveBudgetNote(path); err != nil {
		return c.fail(err), false
	}
	fmt.Fprintf(c.Stdout, "wrote %s: %d result(s), %d timed out, %d error(s)%s\n", path, sum.Written, sum.TimedOut, sum.Errors, rb.spent())
	return ExitPass, false
}

// runBudget is the cap of one `evalgate run` and the price of the system's calls.
type runBudget struct {
	budget *pricing.Budget
	price  pricing.Price
}

// runSystem checks the config's `run:` block as `evalgate run` uses it and builds the
// system under test and its budget. `evalgate validate` calls it too, so it reports
// the same errors run would, each at its line of the config.
func runSystem(cfg *config.Config, getenv func(string) string) (runner.System, *runBudget, error) {
	sys, err := cfg.Run.System(getenv)
	if err != nil {
		return nil, nil, eval.Errorf(cfg.File, cfg.Line("$.run"), "", "%v", err)
	}
	rb, err := newRunBudget(cfg, sys)
	return sys, rb, err
}

// newRunBudget builds the run's budget from run.max_cost_usd (nil when 0). The
// system's model must have a price: a budget cannot hold without one.
func newRunBudget(cfg *config.Config, sys runner.System) (*runBudget, error) {
	if cfg.Run.MaxCostUSD == 0 {
		return nil, nil
	}
	line := cfg.Line("$.run.max_cost_usd")
	b, err := pricing.NewBudget(cfg.Run.MaxCostUSD)
	if err != nil {
		return nil, eval.Errorf(cfg.File, line, "", "run: %v", err)
	}
	oa, ok := sys.(*runner.OpenAI)
	if !ok {
		return nil, eval.Errorf(cfg.File, line, "", "run: max_cost_usd needs openai mode, whose calls can be priced before they start; an exec command records no tokens")
	}
	price, _, ok := cfg.Prices.Lookup(oa.Model())
	if !ok {
		return nil, eval.Errorf(cfg.File, line, "", "run: max_cost_usd: cost unknown: %s; add its price under `pricing:` (%s has none)", oa.Model(), cfg.Prices.Name())
	}
	return &runBudget{budget: b, price: price}, nil
}

// spent says what the budget spent so far, for the summary line.
func (rb *runBudget) spent() string {
	if rb == nil {
		return ""
	}
	return fmt.Sprintf("; %s spent of max_cost_usd %s", pricing.Dollars(rb.budget.Spent()), pricing.Dollars(rb.budget.Max()))
}
