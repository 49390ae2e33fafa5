package eval

import (
	"io"
)

// Run is one run of the system under test over the suite: one results file.
type Run struct {
	File    string
	Results []*Result
	byID    map[string]*Result
}

// Result returns the run's result for an item id.
func (r *Run) Result(id string) (*Result, bool) {
	res, ok := r.byID[id]
	return res, ok
}

// LoadRun reads a results file (JSONL, one record per line; *.gz and *.zst are
// decompressed) into memory. Only a regular file is read. Check streams large results
// instead (ScanRun).
func LoadRun(path string) (*Run, error) {
	run := &Run{File: path, byID: map[string]*Result{}}
	if err := ScanRun(path, ScanOptions{KeepRecord: true}, run.add); err != nil {
		return nil, err
	}
	return run, nil
}

// ReadRun reads results from a stream (a file, standard input) into memory; name
// labels it in errors. Each line is checked (UTF-8, no CR, no NUL) and decoded as it
// is read.
func ReadRun(name string, r io.Reader) (*Run, error) {
	run := &Run{File: name, byID: map[string]*Result{}}
	if err := ScanReader(name, r, ScanOptions{KeepRecord: true}, run.add); err != nil {
		return nil, err
	}
	return run, nil
}

func (r *Run) add(res *Result, _ any) error {
	if prev, dup := r.Result(res.ID); dup {
		return Errorf(r.File, res.Line, res.ID, "duplicate result for the item; first on line %d", prev.Line)
	}
	r.byID[res.ID] = res
	r.Results = append(r.Results, res)
	return nil
}

// CheckAgainst refuses results for ids the suite lacks.
func (r *Run) CheckAgainst(s *Suite) error {
	for _, res := range r.Results {
		if _, ok := s.Item(res.ID); !ok {
			return Errorf(r.File, res.Line, res.ID, "no such item in suite %s", s.File)
		}
	}
	return nil
}

// SuiteFromRun builds a suite from suite fields carried on a results file's records,
// for teams that keep items and outputs together.
func SuiteFromRun(r *Run) (*Suite, error) {
	s := NewSuite(r.File)
	for _, res := range r.Results {
		if _, err := s.AddResult(res); err != nil {
			return nil, err
		}
	}
	s.Finish()
	return s, nil
}

// NewSuite starts a suite built from a results file's records (AddResult, then Finish).
func NewSuite(file string) *Suite { return newSuite(file) }

// AddResult adds the item whose suite fields a result record carries.
func (s *Suite) AddResult(res *Result) (*Item, error) {
	it, err := ItemFromResult(s.File, res)
	if err != nil {
		return nil, err
	}
	return it, s.AddItem(it)
}

// ItemFromResult builds (and hashes) the item a result record carries, without adding
// it to a suite: safe to call in parallel.
func ItemFromResult(file string, res *Result) (*Item, error) {
	fields := make(map[string]any, len(res.Fields)+1)
	fields["id"] = res.ID
	for k, v := range res.Fields {
		fields[k] = v
	}
	hash := ""
	if res.raw != "" {
		hash = itemHashOfLine(res.raw)
	} else if res.hashFrom != nil {
		hash = hashFields(res.hashFrom)
	}
	return newItemHashed(file, res.Line, fields, hash)
}

// AddItem adds an item built by ItemFromResult, refusing a repeated id.
func (s *Suite) AddItem(it *Item) error {
	if err := s.Index.Add(it); err != nil {
		return err
	}
	s.items = append(s.items, it)
	return nil
}

// RunFromRecords rebuilds a run from decoded records (a baseline's recorded outputs).
// name labels the run in messages.
func RunFromRecords(name string, records []map[string]any) (*Run, error) {
	run := &Run{File: name, byID: map[string]*Result{}}
	for i, rec := range records {
		res, err := newResult(name, i+1, rec)
		if err != nil {
			return nil, err
		}
		if _, dup := run.byID[res.ID]; dup {
			return nil, Errorf(name, i+1, res.ID, "duplicate result for the item")
		}
		run.byID[res.ID] = res
		run.Results = append(run.Results, res)
	}
	return run, nil
}
