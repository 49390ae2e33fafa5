package importer

import (
	"errors"

	"github.com/evalgate/evalgate/internal/eval"
)

// ErrReread says a direct read learned something about its file that changes the records
// already handed on (the file holds several runs, or its promptfoo tests are named by
// their vars): the caller starts the scoring again, and Direct reads the file with what
// it learned.
var ErrReread = errors.New("importer: read the file again with what was learned of it")

// Direct reads another tool's results file for scoring as it is decoded: the first run's
// records go straight to the scorer (no temporary copy, one read of the file), and only
// the later runs of a file that holds several (promptfoo --repeat, Inspect epochs) wait
// in temporary evalgate JSONL files (Converted) until their turn.
type Direct struct {
	File string
	Meta *Meta // once the first run is read
	opts Options
	// several: the file holds more than one run, so the first is not the last and the
	// later ones are kept for Later (learned by a read that stopped with ErrReread).
	several bool
	dir     string // where later runs go ("" for the system's temporary directory)
	later   *Converted
	// keep: the first run's records are written as evalgate JSONL too (kept), as they
	// are handed on (KeepFirst).
	keep bool
	kept *Converted
}

// KeepFirst makes First write the first run's records as evalgate JSONL as well, as it
// hands them on, for a caller that copies every run's records (a baseline's recorded
// outputs: Files).
func (d *Direct) KeepFirst() { d.keep = true }

// Files are the runs' records as evalgate JSONL, in run order, after First with
// KeepFirst: the first run's, then the later runs'.
func (d *Direct) Files() []string {
	var out []string
	if d.kept != nil {
		out = append(out, d.kept.Runs...)
	}
	if d.later != nil {
		out = append(out, d.later.Runs...)
	}
	return out
}

// NewDirect prepares a direct read of path; dir holds the later runs' files.
func NewDirect(path string, opts Options, dir string) *Direct {
	return &Direct{File: path, opts: opts, dir: dir}
}

// Several says whether the file is known to hold several runs (a read learned it).
func (d *Direct) Several() bool { return d.several }

// First calls fn with the first run's records in file order, each a Result whose Fields
// keep the keys keep names (nil: all) and prepared by prep on the other cores (see
// eval.ScanDecoded). An input error names the tool's file, the record's line or place,
// and the item. It returns ErrReread when the read learned that it must start again.
func (d *Direct) First(keep func(string) bool, prep func(*eval.Result) any, fn func(*eval.Result, any) error) error {
	d.Remove()
	opts := d.opts
	opts.onePass = true
	var warnings []string // given once the read is not to start again
	opts.Warn = func(msg string) { warnings = append(warnings, msg) }
	var later, kept *Converted
	if d.several {
		later = &Converted{File: d.File, first: 1}
	}
	if d.keep {
		kept = &Converted{File: d.File}
	}
	produce := func(emit func(eval.Decoded) error) error {
		n := 0
		meta, err := Read(d.File, opts, func(rec Record) error {
			if rec.Run == 0 {
				n++
				if kept != nil { // written before the scoring takes the record's fields
					if err := kept.add(rec, d.dir); err != nil {
						return err
					}
				}
				return emit(eval.Decoded{Line: rec.Line, Where: rec.Where, Fields: rec.Fields})
			}
			if later == nil {
				return errRereadRuns
			}
			return later.add(rec, d.dir)
		})
		if ferr := later.finish(); err == nil {
			err = ferr
		}
		if ferr := kept.finish(); err == nil {
			err = ferr
		}
		if err == nil && n == 0 {
			err = eval.Errorf(d.File, 0, "", "the %s file holds no results", meta.Format)
		}
		d.Meta = meta
		return err
	}
	err := eval.ScanDecoded(d.File, produce, eval.ScanOptions{Prep: prep, Fields: keep, ItemKeys: ItemKey}, func(res *eval.Result, where string, p any) error {
		if err := fn(res, p); err != nil {
			var ie *eval.InputError
			if errors.As(err, &ie) && ie.File == d.File && ie.Line == res.Line && where != "" && ie.Line == 0 {
				ie.Msg = where + ": " + ie.Msg
			}
			return err
		}
		return nil
	})
	d.later, d.kept = later, kept
	if !errors.Is(err, errRereadRuns) && !errors.Is(err, errReread) && !errors.Is(err, errRereadMerged) && d.opts.Warn != nil {
		for _, w := range warnings {
			d.opts.Warn(w)
		}
	}
	switch {
	case errors.Is(err, errRereadRuns):
		d.several = true
		d.Remove()
		return ErrReread
	case errors.Is(err, errReread):
		d.opts.idsByVars = true
		d.Remove()
		return ErrReread
	case errors.Is(err, errRereadMerged):
		d.opts.lmMerged = true
		d.Remove()
		return ErrReread
	case err != nil:
		d.Remove()
		return err
	}
	return nil
}

// errRereadRuns: a record of a later run came while the first was taken for the only one;
// errRereadMerged: a second lm-eval filter came while the file was taken for one with one.
var (
	errRereadRuns   = errors.New("importer: the file holds several runs")
	errRereadMerged = errors.New("importer: the lm-eval samples hold several filters")
)

// Later are the later runs' files (evalgate JSONL, in run order) after First, with
// Converted.Each to read them as the tool's file; nil when the file holds one run.
func (d *Direct) Later() *Converted {
	if d.later == nil || len(d.later.Runs) == 0 {
		return nil
	}
	return d.later
}

// Remove deletes the later runs' files (and the first's, with KeepFirst).
func (d *Direct) Remove() {
	if d.later != nil {
		d.later.Remove()
		d.later = nil
	}
	if d.kept != nil {
		d.kept.Remove()
		d.kept = nil
	}
}
