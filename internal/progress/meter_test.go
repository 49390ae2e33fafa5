package progress

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// clock is a fake clock moved by hand.
type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }

func newClock() *clock { return &clock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)} }

// feed adds n records one at a time, as the scan loop does, moving the clock by per
// before each.
func feed(m *Meter, c *clock, n int, per time.Duration) {
	for range n {
		c.advance(per)
		m.Add(1)
	}
}

func lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

func TestShortStepPrintsNothing(t *testing.T) {
	t.Parallel()
	c := newClock()
	var buf bytes.Buffer
	m := New(&buf, "scoring", "records", Options{Now: c.now})
	// 10,000 records at 100 µs each = 1 s, under the 2 s delay.
	feed(m, c, 10000, 100*time.Microsecond)
	m.Done()
	if buf.Len() != 0 {
		t.Errorf("a 1 s step printed %q; want nothing", buf.String())
	}
}

func TestPlainLinesEveryFewSeconds(t *testing.T) {
	t.Parallel()
	c := newClock()
	var buf bytes.Buffer
	m := New(&buf, "scoring r.jsonl", "records", Options{Now: c.now})
	// 1 ms per record: the clock is read every 256 records (0.256 s). The first look at
	// or past 2 s is after 2,048 records (2.048 s): rate 2,048/2.048 = 1,000/s. The next
	// line is due at 2.048+5 = 7.048 s, first looked at after 7,168 records (7.168 s),
	// then due 12.168 s, seen at 12,288 records (12.288 s).
	feed(m, c, 13000, time.Millisecond)
	m.Done() // at 13.0 s: 13,000 records
	want := []string{
		"scoring r.jsonl: 2,048 records, 1,000/s, 2s elapsed",
		"scoring r.jsonl: 7,168 records, 1,000/s, 7.2s elapsed",
		"scoring r.jsonl: 12,288 records, 1,000/s, 12.3s elapsed",
		"scoring r.jsonl: 13,000 records in 13s (1,000/s)",
	}
	if diff := cmp.Diff(want, lines(buf.String())); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	m.Done() // a second Done prints nothing more
	if got := len(lines(buf.String())); got != len(want) {
		t.Errorf("after a second Done: %d lines; want %d", got, len(want))
	}
}

func TestStepRelabelsAndKeepsCounting(t *testing.T) {
	t.Parallel()
	c := newClock()
	var buf bytes.Buffer
	m := New(&buf, "scoring", "records", Options{Now: c.now, Delay: time.Second, Every: time.Second, Next: "building the report"})
	m.Step("scoring a.jsonl (run 1 of 2)")
	// 5 ms per record: the clock is read at 256 records (1.28 s), past the 1 s delay.
	feed(m, c, 300, 5*time.Millisecond) // ends at 1.5 s
	c.advance(time.Second)
	m.Step("scoring b.jsonl (run 2 of 2)") // 2.5 s, due since 2.28 s: prints at once
	m.Done()
	want := []string{
		// 256 records in 1.28 s = 200/s.
		"scoring a.jsonl (run 1 of 2): 256 records, 200/s, 1.3s elapsed",
		// 300 records in 2.5 s = 120/s.
		"scoring b.jsonl (run 2 of 2): 300 records, 120/s, 2.5s elapsed",
		// The last line counts every step's records, under the meter's own label.
		"scoring: 300 records in 2.5s (120/s); building the report…",
	}
	if diff := cmp.Diff(want, lines(buf.String())); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	if m.Count() != 300 {
		t.Errorf("Count = %d; want 300", m.Count())
	}
}

func TestTerminalRedrawsOneLine(t *testing.T) {
	t.Parallel()
	c := newClock()
	var buf bytes.Buffer
	m := New(&buf, "scoring", "records", Options{Now: c.now, Terminal: true})
	// 10 ms per 256-record look: lines at 2.0 s and then every 250 ms.
	for range 300 {
		c.advance(10 * time.Millisecond)
		m.Add(checkEvery)
	}
	m.Done()
	out := buf.String()
	if strings.Count(out, "\n") != 1 || !strings.HasSuffix(out, "\n") {
		t.Errorf("terminal output has %d newlines; want one, at the end: %q", strings.Count(out, "\n"), out)
	}
	redraws := strings.Count(out, "\r")
	// From 2.0 s to 3.0 s: a redraw at 2.0 s then one every 250 ms (2.25, 2.5, 2.75,
	// 3.0) = 5, plus the final line's.
	if redraws != 6 {
		t.Errorf("%d redraws; want 6: %q", redraws, out)
	}
	last := out[strings.LastIndex(out, "\r")+1:]
	if want := "scoring: 76,800 records in 3s (25,600/s)\x1b[K\n"; last != want {
		t.Errorf("final line = %q; want %q", last, want)
	}
}

func TestNilMeterIsSilent(t *testing.T) {
	t.Parallel()
	var m *Meter
	m.Add(1) // must not panic
	m.Step("x")
	m.Done()
	if m.Count() != 0 {
		t.Error("nil meter counted")
	}
}

func TestGroupAndElapsed(t *testing.T) {
	t.Parallel()
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -12345: "-12,345"} {
		if got := Group(n); got != want {
			t.Errorf("Group(%d) = %q; want %q", n, got, want)
		}
	}
	for d, want := range map[time.Duration]string{
		1234 * time.Millisecond:   "1.2s",
		59940 * time.Millisecond:  "59.9s",
		125400 * time.Millisecond: "2m5s",
	} {
		if got := Elapsed(d); got != want {
			t.Errorf("Elapsed(%v) = %q; want %q", d, got, want)
		}
	}
}

// A step stopped by an error gives its count but does not announce what would follow.
func TestEndAfterAnError(t *testing.T) {
	t.Parallel()
	c := newClock()
	var buf bytes.Buffer
	m := New(&buf, "scoring", "records", Options{Now: c.now, Next: "building the report"})
	// 10 ms per record: the look at 256 records is at 2.56 s, past the 2 s delay.
	feed(m, c, 300, 10*time.Millisecond) // ends at 3 s
	m.End(errors.New("over --max-memory"))
	m.Done() // ignored: the step has ended
	want := []string{
		"scoring: 256 records, 100/s, 2.6s elapsed",
		"scoring: 300 records in 3s (100/s)",
	}
	if diff := cmp.Diff(want, lines(buf.String())); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}

// A read that starts over is not counted twice: Restart drops the records counted so
// far, the clock goes on.
func TestRestartCountsTheRecordsOnce(t *testing.T) {
	t.Parallel()
	c := newClock()
	var buf bytes.Buffer
	m := New(&buf, "scoring", "records", Options{Now: c.now, Delay: time.Second, Every: time.Second})
	feed(m, c, 300, 5*time.Millisecond) // 1.5 s; a line at 256 records (1.28 s)
	m.Restart()
	feed(m, c, 500, 5*time.Millisecond) // 4 s; the clock is read at 256 records (2.78 s)
	m.Done()
	want := []string{
		// 256 records in 1.28 s = 200/s.
		"scoring: 256 records, 200/s, 1.3s elapsed",
		// After the restart, 256 records at 2.78 s: 256 / 2.78 = 92.09/s.
		"scoring: 256 records, 92/s, 2.8s elapsed",
		// 500 records (not 800) in 4 s = 125/s.
		"scoring: 500 records in 4s (125/s)",
	}
	if diff := cmp.Diff(want, lines(buf.String())); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	if m.Count() != 500 {
		t.Errorf("Count = %d; want 500", m.Count())
	}
	var nilMeter *Meter
	nilMeter.Restart() // a nil meter stays silent
}
