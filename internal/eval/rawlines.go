package eval

import "io"

// EachLine calls fn with every non-blank line of a results file (JSONL, optionally .gz
// or .zst) as read, undecoded, and its 1-based number; the bytes are valid only during
// the call. A baseline copies a release's records into its recorded outputs this way.
func EachLine(path string, fn func(text []byte, line int) error) error {
	r, closeFn, err := openResults(path)
	if err != nil {
		return err
	}
	defer closeFn()
	lr := newLineReader(path, "results", r)
	for {
		text, n, err := lr.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := fn(text, n); err != nil {
			return err
		}
	}
}
