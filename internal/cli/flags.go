package cli

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/report"
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
}

func newFlagSet(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("evalgate "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: evalgate %s\n\n", usage)
		fs.PrintDefaults()
	}
	return fs
}

func (o *common) register(fs *flag.FlagSet, withBaseline bool) {
	fs.StringVar(&o.Config, "config", config.DefaultFile, "config `file`")
	fs.Var(&o.Results, "results", "results `file` (JSONL), repeatable: one file per run; overrides the config")
	if withBaseline {
		fs.StringVar(&o.Baseline, "baseline", "", "baseline `file`; overrides the config")
	}
	fs.StringVar(&o.Format, "format", report.FormatTable, "output format: "+strings.Join(report.Formats, ", "))
	fs.StringVar(&o.Out, "out", "", "write the report to `file` instead of stdout")
}

// parse parses flags; it returns ok=false with the exit code on -h or a bad flag.
func parse(fs *flag.FlagSet, args []string) (int, bool) {
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return ExitPass, false
		}
		return ExitBadInput, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "evalgate: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return ExitBadInput, false
	}
	return 0, true
}

func checkFormat(format string) error {
	for _, f := range report.Formats {
		if f == format {
			return nil
		}
	}
	return fmt.Errorf("unknown --format %q; want %s", format, strings.Join(report.Formats, ", "))
}
