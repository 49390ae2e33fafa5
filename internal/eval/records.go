package eval

// NewRun starts an empty run for records decoded elsewhere (an importer of another
// tool's results); file names it in messages.
func NewRun(file string) *Run {
	return &Run{File: file, byID: map[string]*Result{}}
}

// AddRecord validates one decoded results record and adds it to the run. line is its
// line in the file, 0 when it has none (a record inside a JSON document or an archive).
// item names the keys that describe the record's item, as ScanOptions.ItemKeys does
// (nil: every key but a result's).
func (r *Run) AddRecord(line int, fields map[string]any, item func(key string) bool) error {
	res, err := newResult(r.File, line, fields)
	if err != nil {
		return err
	}
	if item != nil {
		res.hashFrom = map[string]any{"id": res.ID}
		for k, v := range fields {
			if !resultKeys[k] && item(k) {
				res.hashFrom[k] = v
			}
		}
	}
	if prev, dup := r.byID[res.ID]; dup {
		if prev.Line > 0 {
			return Errorf(r.File, line, res.ID, "duplicate result for the item; first on line %d", prev.Line)
		}
		return Errorf(r.File, line, res.ID, "duplicate result for the item")
	}
	r.byID[res.ID] = res
	r.Results = append(r.Results, res)
	return nil
}

// NewResult validates one decoded results record (a baseline's recorded output) as a
// Result; file and line name it in messages.
func NewResult(file string, line int, fields map[string]any) (*Result, error) {
	return newResult(file, line, fields)
}
