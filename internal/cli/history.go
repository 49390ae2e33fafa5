package cli

import (
	"fmt"

	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/history"
	"github.com/evalgate/evalgate/internal/report"
)

// HistoryOptions are the inputs of `evalgate history`.
type HistoryOptions struct {
	Config string
	File   string
	Format string
	Last   int
}

func (c *CLI) historyCmd(args []string) int {
	var o HistoryOptions
	fs := newFlagSet("history", "history [--config evalgate.yaml | --file baselines/SUITE.history.jsonl] [--format table|json] [--last N]\n\nPrints the score's history that evalgate baseline keeps beside the baseline\n(baselines/SUITE.history.jsonl): one line per baseline refresh.", c.Stderr)
	fs.StringVar(&o.Config, "config", config.DefaultFile, "config `file`: the history beside its baseline")
	fs.StringVar(&o.File, "file", "", "history `file` to read instead of the config's")
	fs.StringVar(&o.Format, "format", report.FormatTable, "output format: table, json")
	fs.IntVar(&o.Last, "last", 0, "show only the last `N` records (0: all)")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if o.Format != report.FormatTable && o.Format != report.FormatJSON {
		fmt.Fprintf(c.Stderr, "evalgate: unknown --format %q; want table, json\n", o.Format)
		return ExitBadInput
	}
	if o.Last < 0 {
		fmt.Fprintf(c.Stderr, "evalgate: --last %d; want 0 or more\n", o.Last)
		return ExitBadInput
	}
	path := o.File
	if path == "" {
		cfg, err := config.Load(o.Config, nil)
		if err != nil {
			return c.fail(err)
		}
		p, err := historyPath(cfg)
		if err != nil {
			return c.fail(err)
		}
		path = p
	}
	recs, err := history.Load(path)
	if err != nil {
		return c.fail(err)
	}
	if o.Last > 0 && len(recs) > o.Last {
		recs = recs[len(recs)-o.Last:]
	}
	if err := report.RenderHistory(c.Stdout, recs, o.Format); err != nil {
		return c.fail(err)
	}
	return ExitPass
}

// historyPath is the config's history file, beside its baseline.
func historyPath(cfg *config.Config) (string, error) {
	if cfg.Baseline == "" {
		return "", fmt.Errorf("%s sets no `baseline:`, so there is no history beside it; pass --file", cfg.File)
	}
	return history.PathFor(cfg.Path(cfg.Baseline)), nil
}
