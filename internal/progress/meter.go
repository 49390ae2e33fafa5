// Package progress tells a person waiting on a long step over many records (scoring a
// million results, merging shards) that it is moving and how fast: on stderr, a line
// redrawn in place at a terminal, a plain line every few seconds in a CI log.
//
// A short step prints nothing at all: the first line appears only once the step has
// run for Options.Delay (2 s by default), so quick runs, examples and tests keep their
// output unchanged. Stdout is never written.
//
// It imports no evalgate package. A Meter counts records whose total is usually unknown
// until the end (a results file is streamed); a Bar counts a known number of tasks
// (the judge's and the runner's calls).
package progress

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"time"
)

// Defaults of Options.
const (
	// DefaultDelay is how long a step runs before its first line: shorter steps
	// print nothing.
	DefaultDelay = 2 * time.Second
	// TerminalEvery is how often the line is redrawn at a terminal.
	TerminalEvery = 250 * time.Millisecond
	// LogEvery is how often a plain line is printed when stderr is not a terminal
	// (a CI log): often enough to show the job is alive, rarely enough not to bury it.
	LogEvery = 5 * time.Second
)

// checkEvery is how many records pass between two looks at the clock, so counting
// costs a few nanoseconds per record, not a clock read.
const checkEvery = 256

// Options tune a Meter; the zero value is a plain-line meter on the real clock.
type Options struct {
	// Terminal redraws one line in place (carriage return) instead of printing lines.
	Terminal bool
	// Now is the clock; nil means time.Now. Tests pass a fake one.
	Now func() time.Time
	// Delay is how long the step runs before the first line (0: DefaultDelay).
	Delay time.Duration
	// Every is the time between two lines (0: TerminalEvery or LogEvery).
	Every time.Duration
	// Next names what follows the counted step ("building the report"), which the last
	// line announces, so a pause after it is not mistaken for a hang.
	Next string
}

// Meter counts the records of one long step and reports on w. A nil *Meter is valid
// and reports nothing, so callers never check. A Meter is used by one goroutine at a
// time (the ordered end of a pipeline), like the loop that feeds it.
type Meter struct {
	w        io.Writer
	opts     Options
	noun     string
	base     string // the step's name, for the last line
	label    string // what is being done now (Step)
	start    time.Time
	next     time.Time // when the next line is due
	n        int64
	nextLook int64 // the count at which the clock is read again
	shown    bool  // a line was printed, so Done prints the final one
	done     bool
}

// New starts a meter of records called noun ("records", "items") at the current time.
// The label says what is being done ("scoring"); Step changes it.
func New(w io.Writer, label, noun string, opts Options) *Meter {
	if w == nil {
		w = io.Discard
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Delay <= 0 {
		opts.Delay = DefaultDelay
	}
	if opts.Every <= 0 {
		opts.Every = LogEvery
		if opts.Terminal {
			opts.Every = TerminalEvery
		}
	}
	m := &Meter{w: w, opts: opts, noun: noun, base: label, label: label}
	m.start = opts.Now()
	m.next = m.start.Add(opts.Delay)
	m.nextLook = checkEvery
	return m
}

// Step says what the meter counts from now on ("scoring runs/pr.jsonl (run 2 of 3)");
// the count goes on across steps, and the last line names the meter's own label.
func (m *Meter) Step(label string) {
	if m == nil {
		return
	}
	m.label = label
	m.look()
}

// Add counts n more records. It reads the clock only every few hundred records.
func (m *Meter) Add(n int) {
	if m == nil {
		return
	}
	m.n += int64(n)
	if m.n < m.nextLook {
		return
	}
	m.nextLook = m.n + checkEvery
	m.look()
}

// Restart says the step starts over from its first record (a read that stopped to begin
// again with what it learned): the records counted so far will be counted again, so the
// count goes back to 0; the clock and the label go on.
func (m *Meter) Restart() {
	if m == nil {
		return
	}
	m.n = 0
	m.nextLook = checkEvery
}

// Count is the number of records counted so far.
func (m *Meter) Count() int64 {
	if m == nil {
		return 0
	}
	return m.n
}

// look prints a line when one is due.
func (m *Meter) look() {
	if m.done {
		return
	}
	now := m.opts.Now()
	if now.Before(m.next) {
		return
	}
	m.next = now.Add(m.opts.Every)
	m.shown = true
	line := fmt.Sprintf("%s: %s %s, %s/s, %s elapsed", m.label, Group(m.n), m.noun, Group(m.rate(now)), Elapsed(now.Sub(m.start)))
	if m.opts.Terminal {
		fmt.Fprintf(m.w, "\r%s\x1b[K", line)
		return
	}
	fmt.Fprintln(m.w, line)
}

// Done ends the step: when it printed anything, a last line gives the count, time
// and rate, and what follows (Options.Next), ending the redrawn line at a terminal; a
// short step stays silent. Later calls (of Done or End) do nothing.
func (m *Meter) Done() { m.End(nil) }

// End ends the step as Done does; after an error (err not nil) the last line does not
// announce what would have followed, and ends the redrawn line so the error message
// starts on a line of its own.
func (m *Meter) End(err error) {
	if m == nil || m.done {
		return
	}
	m.done = true
	if !m.shown {
		return
	}
	now := m.opts.Now()
	line := fmt.Sprintf("%s: %s %s in %s (%s/s)", m.base, Group(m.n), m.noun, Elapsed(now.Sub(m.start)), Group(m.rate(now)))
	if m.opts.Next != "" && err == nil {
		line += "; " + m.opts.Next + "…"
	}
	if m.opts.Terminal {
		fmt.Fprintf(m.w, "\r%s\x1b[K\n", line)
		return
	}
	fmt.Fprintln(m.w, line)
}

// rate is records per second since the start, rounded; 0 before any time has passed.
func (m *Meter) rate(now time.Time) int64 {
	d := now.Sub(m.start).Seconds()
	if d <= 0 {
		return 0
	}
	return int64(math.Round(float64(m.n) / d))
}

// Group writes n with thousands separators: 1234567 → "1,234,567".
func Group(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := ""
	if n < 0 {
		neg, s = "-", s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return neg + s
}

// Elapsed writes a duration for a person: tenths of a second under a minute
// ("12.5s"), whole seconds above ("2m5s").
func Elapsed(d time.Duration) string {
	if d < time.Minute {
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}
