package cli

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/judge"
	"github.com/evalgate/evalgate/internal/judge/live"
	"github.com/evalgate/evalgate/internal/progress"
	"github.com/evalgate/evalgate/internal/report"
	"github.com/evalgate/evalgate/internal/rubric"
	"github.com/evalgate/evalgate/internal/suggest"
)

// multiFlag is a repeatable string flag.
type multiFlag []string

func (m *multiFlag) String() string { return strings.Join(*m, ",") }

// Set appends one value.
func (m *multiFlag) Set(v string) error {
	*m = append(*m, v)
	return nil
}

// common are the flags most commands share.
type common struct {
	Config   string
	Results  multiFlag
	Baseline string
	Format   string
	Out      string
	// judge flags
	NoCache     bool
	Replay      bool
	Concurrency int
	MaxCostUSD  float64 // the judges' max_cost_usd (--max-cost-usd, the action's max-cost-usd)
	// Import reads results other tools wrote (--results-format, ...).
	Import importFlags
	// Quiet turns progress on stderr off (--quiet).
	Quiet bool
}

// flagSetMade, when set (by a test), sees every command's flag set as it prints its help.
var flagSetMade func(*flag.FlagSet)

func newFlagSet(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("evalgate "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: evalgate %s\n\n", usage)
		fs.PrintDefaults()
		printDocs(stderr, name)
		if flagSetMade != nil {
			flagSetMade(fs)
		}
	}
	return fs
}

func (o *common) register(fs *flag.FlagSet, withBaseline bool) {
	fs.StringVar(&o.Config, "config", config.DefaultFile, "config `file`")
	fs.Var(&o.Results, "results", "results `file` (JSONL) or quoted pattern ('runs/*.jsonl', 'runs/**/*.jsonl'), repeatable: one file per run (- reads standard input, once); overrides the config")
	if withBaseline {
		fs.StringVar(&o.Baseline, "baseline", "", "baseline `file`; overrides the config")
	}
	fs.StringVar(&o.Format, "format", report.FormatTable, "output format: "+strings.Join(report.Formats, ", "))
	fs.StringVar(&o.Out, "out", "", "write the report to `file` (- or none: stdout; a device or FIFO is written through)")
	fs.BoolVar(&o.NoCache, "no-cache", false, "llm_judge: neither read nor write the judge cache")
	fs.BoolVar(&o.Replay, "judge-replay", false, "llm_judge: answer from the judge cache only; a miss is an error (offline CI)")
	fs.IntVar(&o.Concurrency, "concurrency", 0, "llm_judge: items judged at once (default: the judge's, else 8)")
	floatVar(fs, &o.MaxCostUSD, "max-cost-usd", 0, "llm_judge: stop calling each judge once its calls could cost more than these US `dollars` (default: the judge's max_cost_usd, else no cap); the verdicts made stay cached")
	o.Import.register(fs)
	registerQuiet(fs, &o.Quiet)
}

// judgeEnv builds the judges' environment from the judge flags: progress on stderr,
// and the cache and concurrency overrides.
func (c *CLI) judgeEnv(o *common) *rubric.Env { return c.judgeEnvAs(o, "") }

// judgeEnvAs is judgeEnv with the judges' progress labelled label (the judge's own
// label when empty).
func (c *CLI) judgeEnvAs(o *common, label string) *rubric.Env {
	progressTo := c.Stderr
	if o.Quiet {
		progressTo = io.Discard
	}
	return &rubric.Env{Judges: &rubric.Judges{
		Options: []judge.Option{judge.WithGetenv(c.Getenv), live.ProgressAs(progressTo, progress.StderrIsTerminal, label), live.Calls()},
		Override: func(cfg *judge.Config) {
			if o.NoCache {
				cfg.NoCache = true
			}
			if o.Replay {
				cfg.Replay = true
			}
			if o.Concurrency > 0 {
				cfg.Concurrency = o.Concurrency
			}
			if o.MaxCostUSD != 0 {
				cfg.MaxCostUSD = o.MaxCostUSD // a negative value is refused by the judge's config check
			}
		},
	}}
}

// parse parses flags, which may come before or after positional arguments; it returns
// ok=false with the exit code on -h, a bad flag or any positional argument.
func parse(fs *flag.FlagSet, args []string) (int, bool) {
	_, code, ok := parseWithFiles(fs, args, false)
	return code, ok
}

// parseWithFiles is parse for a command that also takes results files as positional
// arguments (`evalgate check results.json --config x`), the same as --results each.
func parseWithFiles(fs *flag.FlagSet, args []string, files bool) ([]string, int, bool) {
	if err := fs.Parse(interspersed(fs, args)); err != nil {
		if err == flag.ErrHelp {
			return nil, ExitPass, false
		}
		return nil, ExitBadInput, false
	}
	if fs.NArg() > 0 && !files {
		fmt.Fprintf(fs.Output(), "evalgate: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return nil, ExitBadInput, false
	}
	return fs.Args(), 0, true
}

func checkFormat(format string) error {
	for _, f := range report.Formats {
		if f == format {
			return nil
		}
	}
	return fmt.Errorf("unknown --format %q; %swant %s", format, suggest.DidYouMean(format, report.Formats), strings.Join(report.Formats, ", "))
}
