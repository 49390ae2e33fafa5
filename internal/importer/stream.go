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

// MaxRecordBytes bounds one record: a JSONL line, one element of a JSON document's
// array, one sample of an Inspect archive. A document is decoded record by record, so
// memory stays near this bound whatever the file's size.
const MaxRecordBytes = 64 << 20

// windowReader fails a read once more than limit bytes were read since the last mark,
// so a decoder buffering one huge value cannot take unbounded memory.
type windowReader struct {
	r     io.Reader
	n     int64
	limit int64
}

var errRecordTooLarge = errors.New("record too large")

func (w *windowReader) Read(p []byte) (int, error) {
	if w.n > w.limit {
		return 0, errRecordTooLarge
	}
	n, err := w.r.Read(p)
	w.n += int64(n)
	return n, err
}

func (w *windowReader) mark() { w.n = 0 }

// docDecoder walks one large JSON document token by token.
type docDecoder struct {
	file string
	win  *windowReader
	dec  *json.Decoder
	raw  json.RawMessage // skipRecordValue's buffer, reused
}

func newDocDecoder(file string, r io.Reader) *docDecoder {
	win := &windowReader{r: r, limit: MaxRecordBytes + 1<<20}
	return &docDecoder{file: file, win: win, dec: json.NewDecoder(win)}
}

// err turns a decoding error into an input error naming where in the document it is.
func (d *docDecoder) err(where string, err error) error {
	var ie *eval.InputError
	if errors.As(err, &ie) {
		return err
	}
	switch {
	case errors.Is(err, errRecordTooLarge):
		return errAt(d.file, 0, where, "", "a record is larger than %d bytes", MaxRecordBytes)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return errAt(d.file, 0, where, "", "the JSON ends early (a truncated file?)")
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return errAt(d.file, 0, where, "", "malformed JSON at byte %d: %v", se.Offset, err)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field := te.Field
		if field == "" {
			return errAt(d.file, 0, where, "", "%s does not fit (want %s)", te.Value, te.Type)
		}
		return errAt(d.file, 0, where, "", "field %q is %s; want %s", field, te.Value, jsonKind(te.Type.Kind().String()))
	}
	return errAt(d.file, 0, where, "", "%v", err)
}

func jsonKind(k string) string {
	switch k {
	case "string":
		return "a string"
	case "float64", "int", "int64":
		return "a number"
	case "bool":
		return "a boolean"
	case "slice":
		return "a list"
	case "map", "struct", "ptr":
		return "an object"
	}
	return k
}

// delim reads the next token and checks it is the delimiter want.
func (d *docDecoder) delim(where string, want json.Delim) error {
	tok, err := d.dec.Token()
	if err != nil {
		return d.err(where, err)
	}
	if got, ok := tok.(json.Delim); !ok || got != want {
		kind := map[json.Delim]string{'{': "an object", '[': "a list"}[want]
		return errAt(d.file, 0, where, "", "want %s, found %s", kind, tokenDesc(tok))
	}
	return nil
}

func tokenDesc(tok json.Token) string {
	switch x := tok.(type) {
	case json.Delim:
		return map[json.Delim]string{'{': "an object", '[': "a list", '}': "the end of an object", ']': "the end of a list"}[x]
	}
	return eval.Describe(tok)
}

// object calls fn for each key of the object that starts at the next token; fn must
// consume the value (decode it or skip it).
func (d *docDecoder) object(where string, fn func(key string) error) error {
	if err := d.delim(where, '{'); err != nil {
		return err
	}
	for d.dec.More() {
		tok, err := d.dec.Token()
		if err != nil {
			return d.err(where, err)
		}
		key, _ := tok.(string)
		d.win.mark()
		if err := fn(key); err != nil {
			return err
		}
	}
	_, err := d.dec.Token() // '}'
	if err != nil {
		return d.err(where, err)
	}
	return nil
}

// array calls fn for each element of the list that starts at the next token.
func (d *docDecoder) array(where string, fn func(i int) error) error {
	if err := d.delim(where, '['); err != nil {
		return err
	}
	for i := 0; d.dec.More(); i++ {
		d.win.mark()
		if err := fn(i); err != nil {
			return err
		}
	}
	_, err := d.dec.Token() // ']'
	if err != nil {
		return d.err(where, err)
	}
	return nil
}

// decode decodes the next value into v, bounded by MaxRecordBytes.
func (d *docDecoder) decode(where string, v any) error {
	d.win.mark()
	if err := d.dec.Decode(v); err != nil {
		return d.err(where, err)
	}
	return nil
}

// skipRecordValue consumes the next value, a part of one record (bounded by
// MaxRecordBytes like the record), in one scan: much faster than skip's token by token.
func (d *docDecoder) skipRecordValue(where string) error {
	if err := d.dec.Decode(&d.raw); err != nil {
		return d.err(where, err)
	}
	if cap(d.raw) > 1<<20 {
		d.raw = nil // keep no huge buffer a huge value grew
	}
	return nil
}

// skip consumes the next value token by token, holding no more than one token.
func (d *docDecoder) skip(where string) error {
	depth := 0
	for {
		d.win.mark()
		tok, err := d.dec.Token()
		if err != nil {
			return d.err(where, err)
		}
		if dl, ok := tok.(json.Delim); ok {
			switch dl {
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			}
		}
		if depth == 0 {
			return nil
		}
	}
}

// jsonLines calls fn for each non-blank line of a JSONL stream with its decoded object;
// a line is bounded by MaxRecordBytes (safeio's line reader).
func jsonLines(file string, r io.Reader, fn func(line int, rec map[string]any) error) error {
	ls := safeio.NewLines(r, file, MaxRecordBytes)
	for ls.Next() {
		t := bytes.TrimSpace(ls.Bytes())
		if len(t) == 0 {
			continue
		}
		rec, err := decodeLine(file, ls.Line(), t)
		if err != nil {
			return err
		}
		if err := fn(ls.Line(), rec); err != nil {
			return err
		}
	}
	return ls.Err()
}

func decodeLine(file string, line int, text []byte) (map[string]any, error) {
	if text[0] != '{' {
		return nil, eval.Errorf(file, line, "", "want a JSON object on each line")
	}
	dec := json.NewDecoder(bytes.NewReader(text))
	var rec map[string]any
	if err := dec.Decode(&rec); err != nil {
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

// fieldErr is the message for a field of the wrong type.
func fieldErr(field string, v any, want string) string {
	return fmt.Sprintf("field %q is %s; want %s", field, eval.Describe(v), want)
}
