package progress

// A Bar is the other kind of progress: a known number of tasks (judge calls, runner
// calls), drawn as an animated bar for a person at a terminal, or as plain lines for a
// CI log that cannot redraw a line.

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// lineSteps is how many plain lines a full run prints (one every 10 %), besides the
// final one: enough to show a CI log is alive, few enough not to bury it.
const lineSteps = 10

// Bar counts finished tasks out of a known total. A nil *Bar is valid and
// reports nothing, so callers never need to check.
type Bar struct {
	mu    sync.Mutex
	w     io.Writer
	bar   *progressbar.ProgressBar
	label string
	total int
	done  int
	next  int // the done count at which the next plain line is printed
	ended bool
}

// NewBar returns a Bar for total tasks written to w. When isTerminal reports true it
// draws a progress bar; otherwise it prints a line such as "judge: 300/1000 (30%)"
// every tenth of the way and at the end. A nil isTerminal means "not a terminal".
func NewBar(w io.Writer, isTerminal func() bool, label string, total int) *Bar {
	if w == nil {
		w = io.Discard
	}
	p := &Bar{w: w, label: label, total: total}
	if isTerminal != nil && isTerminal() {
		p.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription(label),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionOnCompletion(func() { fmt.Fprintln(w) }),
		)
		return p
	}
	p.next = p.step()
	return p
}

// step is the number of tasks between two plain lines, at least 1.
func (p *Bar) step() int {
	return max(1, (p.total+lineSteps-1)/lineSteps)
}

// Add records n more finished tasks.
func (p *Bar) Add(n int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += n
	if p.bar != nil {
		_ = p.bar.Add(n) // a progress bar that cannot draw must not stop the run
		return
	}
	if p.done >= p.next && p.done < p.total {
		p.line()
		for p.next <= p.done {
			p.next += p.step()
		}
	}
}

// Finish prints the final state once; later calls do nothing.
func (p *Bar) Finish() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended {
		return
	}
	p.ended = true
	if p.bar != nil {
		_ = p.bar.Finish()
		return
	}
	p.line()
}

func (p *Bar) line() {
	pct := 100
	if p.total > 0 {
		pct = p.done * 100 / p.total
	}
	fmt.Fprintf(p.w, "%s: %d/%d (%d%%)\n", p.label, p.done, p.total, pct)
}

// StderrIsTerminal reports whether os.Stderr is a terminal (a character device), which
// is the usual value for NewBar's isTerminal.
func StderrIsTerminal() bool {
	fi, err := os.Stderr.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
