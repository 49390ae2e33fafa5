package importer

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/evalgate/evalgate/internal/eval"
)

// detectBytes is how much of a file detection reads.
const detectBytes = 1 << 20

// Detect tells a results file's format from its content, decompressed when it is gzip or
// zstd: a zip archive is an Inspect `.eval` log; otherwise the keys of the first record (or of the document) say which
// tool wrote it. When they do not, the error says so and asks for --results-format.
// A file that is not even readable JSON text is evalgate's, whose loader says exactly
// what is wrong with it.
func Detect(path string) (Format, error) {
	if IsLFSPointer(path) {
		return "", lfsError(path)
	}
	head, err := readHead(path, detectBytes)
	if err != nil {
		if in, oerr := openInput(path); oerr == nil {
			// It opens, but its compressed data breaks off or is damaged within the
			// head: say so, rather than read what came before as evalgate's JSONL.
			in.Close()
			return "", err
		}
		return Evalgate, nil // evalgate's loader says what is wrong with it
	}
	if isZip(head) {
		return Inspect, nil
	}
	unsure := func(why string) (Format, error) {
		return "", eval.Errorf(path, 0, "", "cannot tell which tool wrote this results file (%s); pass --results-format with one of %s", why, FormatNames())
	}
	body := bytes.TrimLeft(head, " \t\r\n")
	if len(body) == 0 || body[0] != '{' {
		return Evalgate, nil
	}
	line := body
	if i := bytes.IndexByte(body, '\n'); i >= 0 {
		line = body[:i]
	}
	var keys map[string]json.RawMessage
	if json.Unmarshal(line, &keys) == nil {
		if f := classify(keys); f != "" {
			return f, nil
		}
		if _, ok := keys["id"]; ok || evalgateShaped(keys) || bytes.Count(body, []byte("\n")) > 0 && len(line) < len(body)-1 {
			// JSONL with an id, an evalgate record missing its id, or several records:
			// evalgate's loader says what is missing (file:line)
			return Evalgate, nil
		}
		return unsure("the first record's keys match no known format")
	}
	// One document over several lines: its first keys say which.
	in, err := openInput(path)
	if err != nil {
		return "", err
	}
	defer in.Close()
	d := newDocDecoder(path, io.LimitReader(in, 64<<20))
	seen := map[string]json.RawMessage{}
	var found Format
	errStop := &eval.InputError{}
	err = d.object("", func(key string) error {
		seen[key] = nil
		if found = classify(seen); found != "" {
			return errStop
		}
		return d.skip(key)
	})
	if found != "" {
		return found, nil
	}
	if err != nil && err != errStop {
		return Evalgate, nil // not JSON: evalgate's loader says where it breaks
	}
	if len(line) == len(body) && evalgateShaped(seen) {
		return Evalgate, nil // a first record longer than the head, missing its id
	}
	return unsure("its top-level keys match no known format")
}

// evalgateShaped reports whether a record no other format claims has a key only an
// evalgate result has besides its id (output, error, timed_out, scores): a record
// missing its id, which evalgate's loader names by file and line.
func evalgateShaped(keys map[string]json.RawMessage) bool {
	for _, k := range []string{"output", "error", "timed_out", "scores"} {
		if _, ok := keys[k]; ok {
			return true
		}
	}
	return false
}

// classify names the format a record's (or a document's) keys belong to, or "".
func classify(keys map[string]json.RawMessage) Format {
	has := func(names ...string) bool {
		for _, n := range names {
			if _, ok := keys[n]; ok {
				return true
			}
		}
		return false
	}
	switch {
	case has("evalId"), has("testCase", "gradingResult", "promptIdx"):
		return Promptfoo
	case has("doc_id") && has("resps", "filtered_resps", "arguments"):
		return LMEval
	case has("eval") && has("samples", "status", "plan", "version"), has("plan") && has("eval"):
		return Inspect
	case has("id") && has("output", "error", "timed_out", "scores"):
		return Evalgate
	}
	return ""
}
