package importer

import (
	"bufio"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	gojson "github.com/goccy/go-json"

	"github.com/evalgate/evalgate/internal/eval"
)

// MaxRuns bounds the runs one file may hold when it is converted (promptfoo --repeat,
// Inspect epochs): each run is a file open while the tool's file is read.
const MaxRuns = 1000

// Converted is another tool's results file written as evalgate JSONL in one pass, one
// temporary file per run, so the results are scored as a stream like evalgate's own
// files and never held in memory. Each run has a place file beside it: one line per
// record, its line in the tool's file and where it sits in a document, so messages
// name the tool's file, line and record, never the temporary file.
type Converted struct {
	File string   // the tool's file
	Meta *Meta    // what the file says about the run as a whole
	Runs []string // the runs' JSONL files, in run order
	// lines are, per run, each converted record's line in the tool's file (nil for a
	// document, whose records have none): 4 bytes a record, so a result's line is known
	// where it is decoded.
	lines [][]int32
	dir   string
	first int        // the tool's run number of Runs[0]: 1 when Direct hands on the first
	open  []*convRun // while the file is read
}

// Convert reads path (promptfoo, lm-eval or Inspect) record by record and writes its runs
// as evalgate JSONL into a new directory under dir ("" for the system's temporary
// directory). Remove deletes them.
func Convert(path string, opts Options, dir string) (*Converted, error) {
	c := &Converted{File: path}
	begin := func() { // a stopped pass's files go
		c.Remove()
		*c = Converted{File: path}
	}
	meta, err := ReadRestarting(path, opts, begin, func(rec Record) error { return c.add(rec, dir) })
	if cerr := c.finish(); err == nil {
		err = cerr
	}
	if err != nil {
		c.Remove()
		return nil, err
	}
	if len(c.Runs) == 0 {
		c.Remove()
		return nil, eval.Errorf(path, 0, "", "the %s file holds no results", meta.Format)
	}
	c.Meta = meta
	return c, nil
}

// add writes one record to its run's file (run number - first), the directory and the
// files made as they are needed.
func (c *Converted) add(rec Record, dir string) error {
	if rec.Run >= MaxRuns {
		return errAt(c.File, rec.Line, rec.Where, "", "run %d: the file holds more than %d runs (repeats or epochs), more than evalgate reads from one file", rec.Run+1, MaxRuns)
	}
	if c.dir == "" {
		tmp, err := os.MkdirTemp(dir, "evalgate-import-")
		if err != nil {
			return fmt.Errorf("cannot convert %s: %w", c.File, err)
		}
		c.dir = tmp
	}
	for len(c.open) <= rec.Run-c.first {
		r, err := c.newRun(len(c.open))
		if err != nil {
			return err
		}
		c.open = append(c.open, r)
	}
	return c.open[rec.Run-c.first].write(rec)
}

// finish closes the runs' files; nil does nothing.
func (c *Converted) finish() error {
	if c == nil {
		return nil
	}
	var first error
	for _, r := range c.open {
		c.lines = append(c.lines, r.lines)
		if err := r.close(); err != nil && first == nil {
			first = fmt.Errorf("cannot convert %s: %w", c.File, err)
		}
	}
	c.open = nil
	return first
}

// Remove deletes the converted files.
func (c *Converted) Remove() {
	if c != nil && c.dir != "" {
		for _, r := range c.open {
			r.close()
		}
		c.open = nil
		os.RemoveAll(c.dir)
	}
}

func placesOf(run string) string { return strings.TrimSuffix(run, ".jsonl") + ".places" }

// convRun writes one run: its records and their places.
type convRun struct {
	f, pf   *os.File
	w, pw   *bufio.Writer
	enc     *gojson.Encoder
	scratch []byte
	lines   []int32
	n       int
}

func (c *Converted) newRun(i int) (*convRun, error) {
	name := filepath.Join(c.dir, fmt.Sprintf("run-%d.jsonl", c.first+i+1))
	f, err := os.Create(name)
	if err != nil {
		return nil, fmt.Errorf("cannot convert %s: %w", c.File, err)
	}
	pf, err := os.Create(placesOf(name))
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("cannot convert %s: %w", c.File, err)
	}
	c.Runs = append(c.Runs, name)
	r := &convRun{f: f, pf: pf, w: bufio.NewWriterSize(f, 32<<10), pw: bufio.NewWriterSize(pf, 4<<10)}
	r.enc = gojson.NewEncoder(r.w) // as encoding/json writes it, in about half the time
	r.enc.SetEscapeHTML(false)
	return r, nil
}

// write adds one record (a line; the encoder ends it with "\n") and its place.
func (r *convRun) write(rec Record) error {
	if err := r.enc.Encode(rec.Fields); err != nil {
		return fmt.Errorf("cannot write a converted record: %w", err)
	}
	if rec.Line > 0 && r.lines == nil {
		r.lines = make([]int32, r.n, r.n+1024)
	}
	if r.lines != nil {
		r.lines = append(r.lines, int32(min(rec.Line, math.MaxInt32)))
	}
	r.n++
	r.scratch = strconv.AppendInt(r.scratch[:0], int64(rec.Line), 10)
	r.scratch = append(r.scratch, '\t')
	r.scratch = strconv.AppendQuote(r.scratch, rec.Where)
	r.scratch = append(r.scratch, '\n')
	_, err := r.pw.Write(r.scratch)
	return err
}

func (r *convRun) close() error {
	err := errors.Join(r.w.Flush(), r.pw.Flush())
	return errors.Join(err, r.f.Close(), r.pf.Close())
}

// Each is how a run's results are read: fn is called with every result in order, with
// what prep returned for it.
type Each = func(prep func(*eval.Result) any, fn func(*eval.Result, any) error) error

// Each wraps each, a reader of run i's JSONL file, so that every result carries its
// line in the tool's file (0 for one inside a document, as LoadRuns reads it) before
// prep and fn see it, and every input error names the tool's file, the record's line or
// place, and the item.
func (c *Converted) Each(i int, each Each) Each {
	return func(prep func(*eval.Result) any, fn func(*eval.Result, any) error) error {
		pf, err := os.Open(placesOf(c.Runs[i]))
		if err != nil {
			return fmt.Errorf("cannot read the conversion of %s: %w", c.File, err)
		}
		defer pf.Close()
		places := bufio.NewReaderSize(pf, 4<<10)
		var fixed error
		var wrapped func(*eval.Result) any
		if prep != nil {
			wrapped = func(res *eval.Result) any {
				res.Line = c.origLine(i, res.Line)
				return prep(res)
			}
		}
		at := 0 // the converted line: one record each
		err = each(wrapped, func(res *eval.Result, v any) error {
			at++
			line, where, err := nextPlace(places)
			if err != nil {
				return fmt.Errorf("cannot read the conversion of %s: %w", c.File, err)
			}
			res.Line = line
			if err := fn(res, v); err != nil {
				fixed = c.fix(i, err, at, line, where)
				return fixed
			}
			return nil
		})
		if err == nil || err == fixed {
			return err
		}
		return c.fixAt(i, err)
	}
}

// origLine is the line in the tool's file of run i's converted line at.
func (c *Converted) origLine(i, at int) int {
	if l := c.lines[i]; at >= 1 && at <= len(l) {
		return int(l[at-1])
	}
	return 0
}

// fix makes an input error about the converted line at name the tool's file and
// the record's line (or its place in a document).
func (c *Converted) fix(i int, err error, at, line int, where string) error {
	var ie *eval.InputError
	if !errors.As(err, &ie) || (ie.File != c.Runs[i] && ie.File != c.File) || (ie.Line != at && ie.Line != line) {
		return err
	}
	ie.File, ie.Line = c.File, line
	if where != "" && !strings.HasPrefix(ie.Msg, where+": ") {
		ie.Msg = where + ": " + ie.Msg
	}
	return err
}

// fixAt fixes an error the reader of run i's file returned about one of its lines.
func (c *Converted) fixAt(i int, err error) error {
	var ie *eval.InputError
	if !errors.As(err, &ie) || ie.File != c.Runs[i] {
		return err
	}
	if ie.Line <= 0 {
		ie.File = c.File
		return err
	}
	pf, oerr := os.Open(placesOf(c.Runs[i]))
	if oerr != nil {
		ie.File, ie.Line = c.File, 0
		return err
	}
	defer pf.Close()
	places := bufio.NewReaderSize(pf, 4<<10)
	for n := 1; ; n++ {
		line, where, perr := nextPlace(places)
		if perr != nil {
			ie.File, ie.Line = c.File, 0
			return err
		}
		if n == ie.Line {
			return c.fix(i, err, ie.Line, line, where)
		}
	}
}

// nextPlace reads one line of a place file.
func nextPlace(r *bufio.Reader) (int, string, error) {
	text, err := r.ReadString('\n')
	if err != nil {
		return 0, "", err
	}
	num, quoted, _ := strings.Cut(strings.TrimSuffix(text, "\n"), "\t")
	line, err := strconv.Atoi(num)
	if err != nil {
		return 0, "", err
	}
	where, err := strconv.Unquote(quoted)
	return line, where, err
}
