package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/safeio"
)

// keys names the parts of a record to decode: the top-level keys top names, or those
// paths lists with the parts of their values it names (eval.Paths); all of it when both
// are nil. The others are checked, not built.
type keys struct {
	top   func(key string) bool
	paths eval.Paths
}

func keySet(names ...string) keys {
	set := map[string]bool{}
	for _, n := range names {
		set[n] = true
	}
	return keys{top: func(k string) bool { return set[k] }}
}

// jsonLines calls fn for each non-blank line of a JSONL stream with its decoded object
// (the keys keep names, nil for all); a line is bounded by MaxRecordBytes (safeio's line
// reader).
// Lines are decoded on the machine's cores while the next ones are read (ahead); fn runs
// on one goroutine, in order.
func jsonLines(file string, r io.Reader, keep keys, fn func(line int, rec map[string]any) error) error {
	return jsonLinesPrep(file, r, keep, nil, func(line int, rec map[string]any, _ any) error { return fn(line, rec) })
}

// jsonLinesPrep is jsonLines with prep run on the decoding cores (see ahead).
func jsonLinesPrep(file string, r io.Reader, keep keys, prep func(line int, where string, rec map[string]any) any, fn func(line int, rec map[string]any, prepped any) error) error {
	a := newAhead(file, keep, prep, func(line int, _ string, rec map[string]any, p any) error { return fn(line, rec, p) })
	ls := safeio.NewLines(r, file, MaxRecordBytes)
	for ls.Next() {
		t := bytes.TrimSpace(ls.Bytes())
		if len(t) == 0 {
			continue
		}
		if err := a.add(ls.Line(), "", aheadLine, t); err != nil {
			return a.close(err)
		}
	}
	return a.close(ls.Err())
}

func decodeLine(file string, line int, text []byte, keep keys, scratch *eval.Scratch) (map[string]any, error) {
	if text[0] != '{' {
		return nil, eval.Errorf(file, line, "", "want a JSON object on each line")
	}
	if rec, ok := decodeFast(text, keep, scratch); ok { // one pass; the full path for messages
		return rec, nil
	}
	dec := json.NewDecoder(bytes.NewReader(text))
	var rec map[string]any
	if err := dec.Decode(&rec); err != nil {
		if fixed, ok := nonFiniteToNull(text); ok {
			return decodeLine(file, line, fixed, keep, scratch)
		}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, eval.Errorf(file, line, "", "%s is out of range; want a finite number", te.Value)
		}
		return nil, eval.Errorf(file, line, "", "malformed JSON: %v", err)
	}
	if rest := bytes.TrimSpace(text[dec.InputOffset():]); len(rest) > 0 {
		return nil, eval.Errorf(file, line, "", "more than one JSON value on the line; JSONL holds one object per line")
	}
	return rec, nil
}

// decodeFast decodes a record's keys with the results decoder's one-pass scanner, or
// says the record takes encoding/json's path (all keys; its messages). scratch (nil:
// none) lends the maps of the objects keep.paths filters (eval.DecodeObjectPathsFast).
func decodeFast(text []byte, keep keys, scratch *eval.Scratch) (map[string]any, bool) {
	switch {
	case keep.paths != nil:
		return eval.DecodeObjectPathsFast(text, keep.paths, scratch)
	case keep.top != nil:
		return eval.DecodeObjectKeysFast(text, keep.top)
	}
	return eval.DecodeObjectFast(text)
}

// fieldErr is the message for a field of the wrong type.
func fieldErr(field string, v any, want string) string {
	return fmt.Sprintf("field %q is %s; want %s", field, eval.Describe(v), want)
}
