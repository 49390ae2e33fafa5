package importer

import (
	"errors"

	"github.com/evalgate/evalgate/internal/eval"
)

// Read converts a results file into evalgate records, calling emit once per record in
// file order. The format is opts.Format, or detected from the content when empty.
func Read(path string, opts Options, emit func(Record) error) (*Meta, error) {
	format := opts.Format
	if format == "" {
		var err error
		if format, err = Detect(path); err != nil {
			return nil, err
		}
	}
	switch format {
	case Promptfoo:
		return readPromptfoo(path, &opts, emit)
	case LMEval:
		return readLMEval(path, &opts, emit)
	case Inspect:
		return readInspect(path, &opts, emit)
	case Evalgate:
		return readEvalgate(path, emit)
	}
	_, err := ParseFormat(string(format))
	return nil, err
}

func readEvalgate(path string, emit func(Record) error) (*Meta, error) {
	f, err := openInput(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var dims dimTracker
	err = jsonLines(path, f, keys{}, func(line int, rec map[string]any) error {
		if s, ok := rec["scores"].(map[string]any); ok {
			dims.see(s)
		}
		return emit(Record{Line: line, Fields: rec})
	})
	if err != nil {
		return nil, err
	}
	return &Meta{Format: Evalgate, Dimensions: dims.list()}, nil
}

// LoadRuns reads one results file as evalgate runs: one run for evalgate's own JSONL, a
// run per repeat (promptfoo --repeat) or epoch (Inspect) for the others.
func LoadRuns(path string, opts Options) ([]*eval.Run, *Meta, error) {
	format := opts.Format
	if format == "" {
		var err error
		if format, err = Detect(path); err != nil {
			return nil, nil, err
		}
	}
	if format == Evalgate {
		run, err := eval.LoadRun(path)
		if err != nil {
			return nil, nil, err
		}
		return []*eval.Run{run}, &Meta{Format: Evalgate}, nil
	}
	opts.Format = format
	var runs []*eval.Run
	meta, err := ReadRestarting(path, opts, func() { runs = nil }, func(rec Record) error {
		if opts.FirstRun && rec.Run > 0 {
			return nil
		}
		for len(runs) <= rec.Run {
			runs = append(runs, eval.NewRun(path))
		}
		if err := runs[rec.Run].AddRecord(rec.Line, rec.Fields, ItemKey); err != nil {
			var ie *eval.InputError
			if errors.As(err, &ie) && ie.Line == 0 && rec.Where != "" {
				ie.Msg = rec.Where + ": " + ie.Msg
			}
			return err
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	if len(runs) == 0 {
		return nil, nil, eval.Errorf(path, 0, "", "the %s file holds no results", format)
	}
	return runs, meta, nil
}

// ReadRestarting is Read in one pass of the file where Read would first read the keys
// that say how to read it (promptfoo's test names, lm-eval's filters): the pass assumes
// the common case, and when a record shows otherwise (errReread, errRereadMerged) the
// file is read again knowing it. begin is called before each pass: the caller drops what
// the records of a stopped pass gave it. The warnings of a stopped pass are not given.
func ReadRestarting(path string, opts Options, begin func(), emit func(Record) error) (*Meta, error) {
	opts.onePass = true
	warn := opts.Warn
	for {
		var warnings []string
		opts.Warn = func(msg string) { warnings = append(warnings, msg) }
		begin()
		meta, err := Read(path, opts, emit)
		switch {
		case errors.Is(err, errReread) && !opts.idsByVars:
			opts.idsByVars = true
			continue
		case errors.Is(err, errRereadMerged) && !opts.lmMerged:
			opts.lmMerged = true
			continue
		}
		if warn != nil {
			for _, w := range warnings {
				warn(w)
			}
		}
		return meta, err
	}
}
