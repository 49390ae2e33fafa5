package runner

import (
	"context"
	"io"

	"golang.org/x/sync/errgroup"

	"github.com/evalgate/evalgate/internal/judge/progress"
)

// DefaultConcurrency is how many items run at once unless Options says otherwise.
const DefaultConcurrency = 8

// System is a system under test.
type System interface {
	// Run answers one item. Failures of the item (a non-zero exit, a timeout, an HTTP
	// error about this request) go in the Result; an error return stops the whole run
	// (ctx done, a command that cannot start, a bad API key) and the Result is dropped.
	Run(ctx context.Context, it Item) (Result, error)
}

// Checker is a System that can refuse items up front (openai mode: a field the prompt
// template reads is missing), so a run does not stop halfway on a hole in the suite.
type Checker interface {
	Check(items []Item) error
}

// Options tune Run.
type Options struct {
	// Concurrency bounds the items in flight; 0 means DefaultConcurrency.
	Concurrency int
	// Progress receives one Add per finished item; nil reports nothing.
	Progress *progress.Progress
}

// Summary counts what Run did.
type Summary struct {
	Items    int `json:"items"`
	Written  int `json:"written"`
	TimedOut int `json:"timed_out"`
	Errors   int `json:"errors"`
}

// Run runs sys over items and writes each Result to out as a JSON line as soon as it
// is ready (completion order). A System that is a Checker checks the items first. Run
// stops at the first run-ending error; the lines written by then stay valid.
func Run(ctx context.Context, sys System, items []Item, out io.Writer, opts Options) (Summary, error) {
	if c, ok := sys.(Checker); ok {
		if err := c.Check(items); err != nil {
			return Summary{Items: len(items)}, err
		}
	}
	limit := opts.Concurrency
	if limit <= 0 {
		limit = DefaultConcurrency
	}
	s := &sink{w: out}
	sum := Summary{Items: len(items)}
	counts := make(chan Result, len(items))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(limit)
	for _, it := range items {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			r, err := sys.Run(gctx, it)
			if err != nil {
				return err
			}
			if err := s.write(r); err != nil {
				return err
			}
			counts <- r
			opts.Progress.Add(1)
			return nil
		})
	}
	err := g.Wait()
	if err == nil {
		err = ctx.Err()
	}
	opts.Progress.Finish()
	close(counts)
	for r := range counts {
		sum.Written++
		switch {
		case r.TimedOut:
			sum.TimedOut++
		case r.Error != "":
			sum.Errors++
		}
	}
	return sum, err
}
