package eval

import "bytes"

// DecodeObjectFast decodes a JSON object with the results decoder's one-pass scanner
// into the map encoding/json gives, or reports false where a record would take the
// full path (goccy/go-json, then encoding/json for the message). bench/decoders
// measures it beside the libraries and holds it to encoding/json's values.
func DecodeObjectFast(data []byte) (map[string]any, bool) {
	d := jsonScan{s: string(bytes.TrimSpace(data))}
	if d.s == "" || d.s[0] != '{' {
		return nil, false
	}
	v, ok := d.value()
	if d.ws(); !ok || d.i != len(d.s) {
		return nil, false
	}
	m, ok := v.(map[string]any)
	return m, ok
}

// DecodeResultFast is the decoder of a results record's known keys: the Result of one
// line with only the top-level keys keep names decoded into Fields (all when keep is
// nil), or false where the line takes the full path.
func DecodeResultFast(line []byte, keep func(key string) bool) (*Result, bool) {
	var d jsonScan
	return decodeResultFast("", 1, line, &d, keep)
}
