package cli

import (
	"flag"
	"fmt"
	"os"

	"github.com/evalgate/evalgate/internal/eval"

	"github.com/evalgate/evalgate/internal/progress"
	"github.com/evalgate/evalgate/internal/rubric"
)

// quietUsage is the --quiet flag's help, the same on every command that has it.
const quietUsage = "print no progress on stderr (shown only for long steps: a line redrawn in place at a terminal, a line every few seconds in a CI log)"

// registerQuiet adds --quiet, and -q for it, to fs.
func registerQuiet(fs *flag.FlagSet, quiet *bool) {
	fs.BoolVar(quiet, "quiet", false, quietUsage)
	fs.BoolVar(quiet, "q", false, "short for --quiet")
}

// meter starts a progress meter on stderr, on the CLI's clock (tests with a fixed
// clock never see a line); nil when quiet. next names what follows the count.
func (c *CLI) meter(quiet bool, label, noun, next string) *progress.Meter {
	if quiet {
		return nil
	}
	return progress.New(c.Stderr, label, noun, progress.Options{Terminal: c.Stderr == os.Stderr && progress.StderrIsTerminal(), Now: c.Now, Next: next})
}

// withProgress counts every record the scoring reads from srcs on m, naming the file
// being read. The count happens where records are delivered in order, so the meter is
// used by one goroutine at a time.
func withProgress(srcs []rubric.RunSource, m *progress.Meter) []rubric.RunSource {
	if m == nil {
		return srcs
	}
	full := 0
	for _, src := range srcs {
		if !src.Partial {
			full++
		}
	}
	out := make([]rubric.RunSource, len(srcs))
	for i, src := range srcs {
		label := "scoring " + src.File
		switch {
		case src.Partial:
			label += " (re-run)"
		case full > 1:
			label += fmt.Sprintf(" (run %d of %d)", i+1, full)
		}
		out[i] = counted(src, label, m)
	}
	return out
}

// counted is src counting its records on m under label, and the runs found while it is
// read (a tool's later repeats) too.
func counted(src rubric.RunSource, label string, m *progress.Meter) rubric.RunSource {
	each := src.Each
	src.Each = func(prep func(*eval.Result) any, fn func(*eval.Result, any) error) error {
		m.Step(label)
		return each(prep, func(res *eval.Result, v any) error {
			m.Add(1)
			return fn(res, v)
		})
	}
	if then := src.Then; then != nil {
		src.Then = func() []rubric.RunSource {
			more := then()
			for k := range more {
				more[k] = counted(more[k], fmt.Sprintf("%s (repeat %d)", label, k+2), m)
			}
			return more
		}
	}
	return src
}
