package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/evalgate/evalgate/internal/eval"
)

// MaxRecordBytes bounds one record: a JSONL line, one element of a JSON document's
// array, one sample of an Inspect archive. A document is decoded record by record, so
// memory stays near this bound whatever the file's size.
const MaxRecordBytes = 64 << 20

// maxDepth is the nesting a document may have (encoding/json's bound).
const maxDepth = 10000

var errRecordTooLarge = errors.New("record too large")

// docDecoder walks one large JSON document in a single pass over a read buffer: the
// structure around the records is checked byte by byte, a value nothing reads is
// checked and dropped without being built, and a record's bytes are handed whole to the
// results decoder's one-pass scanner (eval.DecodeObjectFast; encoding/json where that
// one gives up, for its messages). Much faster than encoding/json's Decoder token by
// token, and holding no more than one record (MaxRecordBytes).
type docDecoder struct {
	file string
	r    io.Reader
	buf  []byte
	pos  int   // next byte in buf
	off  int64 // the file offset of buf[0]
	keep int   // start in buf of the value being kept, or -1
	rerr error // the reader's error once it has one
}

func newDocDecoder(file string, r io.Reader) *docDecoder {
	return &docDecoder{file: file, r: r, buf: make([]byte, 0, 64<<10), keep: -1}
}

// more reads into the buffer, keeping the value being kept; false at the end of input.
func (d *docDecoder) more() bool {
	if d.rerr != nil {
		return false
	}
	from := d.pos
	if d.keep >= 0 {
		from = d.keep
	}
	if from > 0 { // move what is still needed to the front
		n := copy(d.buf, d.buf[from:])
		d.buf = d.buf[:n]
		d.off += int64(from)
		d.pos -= from
		if d.keep >= 0 {
			d.keep = 0
		}
	}
	if d.keep >= 0 && len(d.buf) > MaxRecordBytes {
		d.rerr = errRecordTooLarge
		return false
	}
	if len(d.buf) == cap(d.buf) {
		nb := make([]byte, len(d.buf), min(2*cap(d.buf), MaxRecordBytes+64<<10))
		copy(nb, d.buf)
		d.buf = nb
	}
	for {
		n, err := d.r.Read(d.buf[len(d.buf):cap(d.buf)])
		d.buf = d.buf[:len(d.buf)+n]
		if err != nil {
			d.rerr = err
			return n > 0
		}
		if n > 0 {
			return true
		}
	}
}

// peek is the next byte; ok is false at the end of input.
func (d *docDecoder) peek() (byte, bool) {
	if d.pos >= len(d.buf) && !d.more() {
		return 0, false
	}
	return d.buf[d.pos], true
}

// ws skips white space and says what follows.
func (d *docDecoder) ws() (byte, bool) {
	for {
		c, ok := d.peek()
		if !ok {
			return 0, false
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return c, true
		}
	}
}

// syntaxErr is a malformed-JSON error at byte off of the file, counted from 1 (as
// encoding/json's SyntaxError.Offset counts the bytes read up to the fault).
type syntaxErr struct {
	off int64
	msg string
}

// at is the current byte's place in the file, counted from 1.
func (d *docDecoder) at() int64 { return d.off + int64(d.pos) + 1 }

func (e *syntaxErr) Error() string { return e.msg }

func (d *docDecoder) bad(what string) error {
	if c, ok := d.peek(); ok {
		return &syntaxErr{d.at(), fmt.Sprintf("invalid character %s %s", quoteChar(c), what)}
	}
	return d.eof()
}

func (d *docDecoder) eof() error {
	if d.rerr != nil && d.rerr != io.EOF {
		return d.rerr
	}
	return io.ErrUnexpectedEOF
}

func quoteChar(c byte) string {
	if c == '\'' {
		return `'\''`
	}
	if c == '"' {
		return `'"'`
	}
	s := fmt.Sprintf("%q", string(rune(c)))
	return "'" + s[1:len(s)-1] + "'"
}

// value checks the next value, moving past it.
func (d *docDecoder) value(depth int) error {
	c, ok := d.ws()
	if !ok {
		return d.eof()
	}
	switch c {
	case '{', '[':
		if depth >= maxDepth {
			return &syntaxErr{d.at(), "exceeded max depth"}
		}
		d.pos++
		if c == '{' {
			return d.objectBody(depth+1, nil)
		}
		return d.arrayBody(func(int) error { return d.value(depth + 1) })
	case '"':
		return d.str()
	}
	return d.literal()
}

// objectBody reads an object's members after its '{': each key, then its value by fn
// (nil: checked and dropped).
func (d *docDecoder) objectBody(depth int, fn func(key string) error) error {
	c, ok := d.ws()
	if !ok {
		return d.eof()
	}
	if c == '}' {
		d.pos++
		return nil
	}
	for {
		if c != '"' {
			return d.bad("looking for beginning of object key string")
		}
		key, err := d.key(fn != nil)
		if err != nil {
			return err
		}
		if c, ok = d.ws(); !ok {
			return d.eof()
		}
		if c != ':' {
			return d.bad("after object key")
		}
		d.pos++
		if fn == nil {
			err = d.value(depth)
		} else {
			err = fn(key)
		}
		if err != nil {
			return err
		}
		if c, ok = d.ws(); !ok {
			return d.eof()
		}
		switch c {
		case '}':
			d.pos++
			return nil
		case ',':
			d.pos++
		default:
			return d.bad("after object key:value pair")
		}
		if c, ok = d.ws(); !ok {
			return d.eof()
		}
	}
}

// arrayBody reads a list's elements after its '[', each by fn.
func (d *docDecoder) arrayBody(fn func(i int) error) error {
	c, ok := d.ws()
	if !ok {
		return d.eof()
	}
	if c == ']' {
		d.pos++
		return nil
	}
	for i := 0; ; i++ {
		if err := fn(i); err != nil {
			return err
		}
		if c, ok = d.ws(); !ok {
			return d.eof()
		}
		switch c {
		case ']':
			d.pos++
			return nil
		case ',':
			d.pos++
		default:
			return d.bad("after array element")
		}
	}
}

// key reads an object key; decoded only when want is set.
func (d *docDecoder) key(want bool) (string, error) {
	if !want {
		return "", d.str()
	}
	start := d.pos
	d.keep = start
	err := d.str()
	start, d.keep = d.keep, -1
	if err != nil {
		return "", err
	}
	raw := d.buf[start:d.pos]
	for _, c := range raw[1 : len(raw)-1] {
		if c == '\\' || c >= 0x80 {
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				return "", err
			}
			return s, nil
		}
	}
	return string(raw[1 : len(raw)-1]), nil
}

// str checks the string whose opening quote is next, moving past it.
func (d *docDecoder) str() error {
	d.pos++
	for {
		if d.pos >= len(d.buf) && !d.more() {
			return d.eof()
		}
		// the bytes that need no look: most of a string
		b := d.buf[d.pos:]
		i := 0
		for i < len(b) && b[i] != '"' && b[i] != '\\' && b[i] >= 0x20 {
			i++
		}
		d.pos += i
		if i == len(b) {
			continue
		}
		switch c := b[i]; {
		case c == '"':
			d.pos++
			return nil
		case c < 0x20:
			return d.bad("in string literal")
		}
		d.pos++ // the backslash
		c, ok := d.peek()
		if !ok {
			return d.eof()
		}
		switch c {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			d.pos++
		case 'u':
			d.pos++
			for range 4 {
				h, ok := d.peek()
				if !ok {
					return d.eof()
				}
				if !isHex(h) {
					return d.bad("in \\u hexadecimal character escape")
				}
				d.pos++
			}
		default:
			return d.bad("in string escape code")
		}
	}
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// literal checks the number, true, false or null that is next, moving past it.
func (d *docDecoder) literal() error {
	start := d.at()
	var tok [32]byte
	n := 0
	for {
		c, ok := d.peek()
		if !ok || !isLiteralByte(c) {
			break
		}
		if n < len(tok) {
			tok[n] = c
		}
		n++
		d.pos++
	}
	if n == 0 {
		return d.bad("looking for beginning of value")
	}
	t := tok[:min(n, len(tok))]
	switch string(t) {
	case "true", "false", "null", "NaN", "Infinity", "-Infinity": // the last three: see nonFiniteToNull
		return nil
	}
	if n > len(tok) || !isNumber(t) {
		if t[0] == '-' || '0' <= t[0] && t[0] <= '9' {
			return &syntaxErr{start, fmt.Sprintf("malformed number %q", clip(string(t), 20))}
		}
		return &syntaxErr{start, fmt.Sprintf("invalid literal %q", clip(string(t), 20))}
	}
	return nil
}

func isLiteralByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '+' || c == '.'
}

// isNumber says whether t is a JSON number.
func isNumber(t []byte) bool {
	i := 0
	if i < len(t) && t[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(t) && '0' <= t[i] && t[i] <= '9' {
			i++
			n++
		}
		return n
	}
	switch {
	case i < len(t) && t[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(t) && t[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(t) && (t[i] == 'e' || t[i] == 'E') {
		i++
		if i < len(t) && (t[i] == '+' || t[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(t)
}

// err turns a decoding error into an input error naming where in the document it is.
func (d *docDecoder) err(where string, err error) error {
	var ie *eval.InputError
	if errors.As(err, &ie) || errors.Is(err, errReread) || errors.Is(err, errRereadRuns) || errors.Is(err, errAheadStopped) {
		return err
	}
	switch {
	case errors.Is(err, errRecordTooLarge):
		return errAt(d.file, 0, where, "", "a record is larger than %d bytes", MaxRecordBytes)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return errAt(d.file, 0, where, "", "the JSON ends early (a truncated file?)")
	}
	var se *syntaxErr
	if errors.As(err, &se) {
		return errAt(d.file, 0, where, "", "malformed JSON at byte %d: %s", se.off, se.msg)
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

// open reads the delimiter that starts an object or a list.
func (d *docDecoder) open(where string, want byte) error {
	c, ok := d.ws()
	if !ok {
		return d.err(where, d.eof())
	}
	if c != want {
		kind := map[byte]string{'{': "an object", '[': "a list"}[want]
		return errAt(d.file, 0, where, "", "want %s, found %s", kind, d.found(c))
	}
	d.pos++
	return nil
}

// found describes the value starting with c, for a message.
func (d *docDecoder) found(c byte) string {
	switch c {
	case '{':
		return "an object"
	case '[':
		return "a list"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	case '}':
		return "the end of an object"
	case ']':
		return "the end of a list"
	}
	if c == '-' || '0' <= c && c <= '9' {
		return "a number"
	}
	return "invalid character " + quoteChar(c)
}

// object calls fn for each key of the object that starts next; fn must consume the
// value (decode it or skip it).
func (d *docDecoder) object(where string, fn func(key string) error) error {
	if err := d.open(where, '{'); err != nil {
		return err
	}
	if err := d.objectBody(1, fn); err != nil {
		return d.err(where, err)
	}
	return nil
}

// array calls fn for each element of the list that starts next.
func (d *docDecoder) array(where string, fn func(i int) error) error {
	if err := d.open(where, '['); err != nil {
		return err
	}
	if err := d.arrayBody(fn); err != nil {
		return d.err(where, err)
	}
	return nil
}

// skip checks and drops the next value, holding none of it.
func (d *docDecoder) skip(where string) error {
	if err := d.value(1); err != nil {
		return d.err(where, err)
	}
	return nil
}

// raw is the next value's bytes (valid until the next read), bounded by MaxRecordBytes,
// and its offset in the file.
func (d *docDecoder) raw() ([]byte, int64, error) {
	if _, ok := d.ws(); !ok {
		return nil, 0, d.eof()
	}
	d.keep = d.pos
	var err error
	if c := d.buf[d.pos]; c == '{' || c == '[' {
		err = d.span()
	} else {
		err = d.value(1)
	}
	start := d.keep
	d.keep = -1
	if err != nil {
		return nil, 0, err
	}
	return d.buf[start:d.pos], d.off + int64(start), nil
}

// span moves past the kept object or list that starts next, following only strings and
// brackets to find its end: its bytes are checked by the decoder they go to, so a
// record is read once to find it and once to decode it.
func (d *docDecoder) span() error {
	depth := 0
	inStr := false
	for {
		if d.pos >= len(d.buf) && !d.more() {
			return d.eof()
		}
		if inStr { // to the closing quote: one not escaped by an odd run of backslashes
			j := bytes.IndexByte(d.buf[d.pos:], '"')
			if j < 0 {
				d.pos = len(d.buf)
				continue
			}
			q := d.pos + j
			d.pos = q + 1
			n := 0
			for k := q - 1; k >= d.keep && d.buf[k] == '\\'; k-- {
				n++
			}
			inStr = n%2 == 1
			continue
		}
		b := d.buf[d.pos:]
		i := 0
	scan:
		for ; i < len(b); i++ {
			switch b[i] {
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					d.pos += i + 1
					return nil
				}
			case '"':
				inStr = true
				i++
				break scan
			}
		}
		d.pos += i
	}
}

// decode decodes the next value into v, bounded by MaxRecordBytes.
func (d *docDecoder) decode(where string, v any) error {
	return d.decodeKeys(where, keys{}, v)
}

// decodeKeys decodes the next value into v; an object into a map gets only the
// top-level keys keep names (nil: all).
func (d *docDecoder) decodeKeys(where string, keep keys, v any) error {
	raw, at, err := d.raw()
	if err != nil {
		return d.err(where, err)
	}
	switch p := v.(type) {
	case *map[string]any:
		if c := raw[0]; c != '{' && c != 'n' {
			return errAt(d.file, 0, where, "", "want an object, found %s", d.found(c))
		}
		if m, ok := decodeFast(raw, keep, nil); ok {
			*p = m
			return nil
		}
	case *any:
		if x, ok := eval.DecodeValueFast(raw); ok {
			*p = x
			return nil
		}
	}
	if err := json.Unmarshal(raw, v); err != nil {
		if fixed, ok := nonFiniteToNull(raw); ok && json.Unmarshal(fixed, v) == nil {
			return nil
		}
		var se *json.SyntaxError
		if errors.As(err, &se) {
			err = &syntaxErr{at + se.Offset, se.Error()} // at counts from 0, Offset from 1
		}
		return d.err(where, err)
	}
	return nil
}

// nonFiniteToNull is raw with each NaN, Infinity and -Infinity outside strings made null,
// and whether it held any. Python's json module writes a non-finite float so, and reads
// it back; Inspect AI writes its logs that way (a metric over no samples, a score made
// with Score.unscored()), so a value evalgate reads is one nothing could score.
func nonFiniteToNull(raw []byte) ([]byte, bool) {
	var out []byte
	from, inStr := 0, false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if inStr {
			switch c {
			case '\\':
				i++
			case '"':
				inStr = false
			}
			continue
		}
		var n int
		switch {
		case c == '"':
			inStr = true
		case c == 'N' && bytes.HasPrefix(raw[i:], []byte("NaN")):
			n = len("NaN")
		case c == 'I' && bytes.HasPrefix(raw[i:], []byte("Infinity")):
			n = len("Infinity")
		case c == '-' && bytes.HasPrefix(raw[i:], []byte("-Infinity")):
			n = len("-Infinity")
		}
		if n > 0 {
			out = append(append(out, raw[from:i]...), "null"...)
			from = i + n
			i += n - 1
		}
	}
	if out == nil {
		return raw, false
	}
	return append(out, raw[from:]...), true
}
