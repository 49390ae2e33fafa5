package eval

import "bytes"

// DecodeObjectFast decodes a JSON object with the results decoder's one-pass scanner
// into the map encoding/json gives, or reports false where a record would take the
// full path (goccy/go-json, then encoding/json for the message). The decoder
// benchmarks (decoders_bench_test.go) measure it beside the libraries and hold it to
// encoding/json's values.
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

// DecodeValueFast decodes any JSON value with the one-pass scanner into the value
// encoding/json gives for an any, or reports false where the full path must say what
// is wrong (or where the scanner does not take the value).
func DecodeValueFast(data []byte) (any, bool) {
	d := jsonScan{s: string(bytes.TrimSpace(data))}
	if d.s == "" {
		return nil, false
	}
	v, ok := d.value()
	if d.ws(); !ok || d.i != len(d.s) {
		return nil, false
	}
	return v, true
}

// DecodeObjectKeysFast is DecodeObjectFast decoding only the top-level keys keep names:
// the others are checked, not built. A top-level key given twice makes it report false
// (encoding/json's last-wins is left to the full path).
func DecodeObjectKeysFast(data []byte, keep func(key string) bool) (map[string]any, bool) {
	d := jsonScan{s: string(bytes.TrimSpace(data))}
	if d.s == "" || d.s[0] != '{' {
		return nil, false
	}
	d.i, d.depth = 1, 1
	m := map[string]any{}
	var keys [32]string
	seen := keys[:0]
	d.ws()
	if d.i < len(d.s) && d.s[d.i] == '}' {
		d.i++
		d.ws()
		return m, d.i == len(d.s)
	}
	for {
		d.ws()
		if d.i >= len(d.s) || d.s[d.i] != '"' {
			return nil, false
		}
		k, ok := d.str()
		if !ok {
			return nil, false
		}
		for _, s := range seen {
			if s == k {
				return nil, false
			}
		}
		seen = append(seen, k)
		d.ws()
		if d.i >= len(d.s) || d.s[d.i] != ':' {
			return nil, false
		}
		d.i++
		d.discard = !keep(k)
		v, ok := d.value()
		if !ok {
			return nil, false
		}
		if !d.discard {
			m[k] = v
		}
		d.discard = false
		if !d.next('}') {
			return nil, false
		}
		if d.s[d.i-1] == '}' {
			d.ws()
			return m, d.i == len(d.s)
		}
	}
}
