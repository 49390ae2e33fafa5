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

// Paths names the parts of a JSON object to build: each key listed, with the parts of
// its value to build (nil: all of it; a list's elements each take the same Paths). The
// keys not listed are checked, not built.
type Paths map[string]Paths

// DecodeObjectKeysFast is DecodeObjectFast decoding only the top-level keys keep names:
// the others are checked, not built. A top-level key given twice makes it report false
// (encoding/json's last-wins is left to the full path).
func DecodeObjectKeysFast(data []byte, keep func(key string) bool) (map[string]any, bool) {
	return decodeObjectKeys(data, keep, nil, nil)
}

// DecodeObjectPathsFast is DecodeObjectKeysFast building only the parts of the object
// paths names: the top-level keys it lists, of each only the parts paths[key] names.
// With scratch, the object and every object paths filters are maps scratch lends (the
// values kept whole are the decoder's own).
func DecodeObjectPathsFast(data []byte, paths Paths, scratch *Scratch) (map[string]any, bool) {
	return decodeObjectKeys(data, nil, paths, scratch)
}

// decodeObjectKeys decodes the top-level keys keep names, or with keep nil those paths
// lists, and of a kept key's value the parts paths[key] names.
func decodeObjectKeys(data []byte, keep func(key string) bool, paths Paths, scratch *Scratch) (map[string]any, bool) {
	d := jsonScan{s: string(bytes.Trim(data, " \t\r\n")), scratch: scratch} // JSON's white space only
	if d.s == "" || d.s[0] != '{' {
		return nil, false
	}
	d.i, d.depth = 1, 1
	var m map[string]any
	switch {
	case keep != nil:
		m = map[string]any{}
	case scratch != nil:
		m = scratch.get()
	default:
		m = make(map[string]any, len(paths))
	}
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
		if keep != nil {
			d.discard = !keep(k)
			d.paths = paths[k]
		} else {
			var want bool
			d.paths, want = paths[k]
			d.discard = !want
		}
		v, ok := d.value()
		if !ok {
			return nil, false
		}
		if !d.discard {
			m[k] = v
		}
		d.discard, d.paths = false, nil
		if !d.next('}') {
			return nil, false
		}
		if d.s[d.i-1] == '}' {
			d.ws()
			return m, d.i == len(d.s)
		}
	}
}

// Scratch lends a decoder (DecodeObjectPathsFast) the maps of the objects its Paths
// filter, to be used again for the next record: a caller that reads a record's filtered
// objects only until it has taken what it needs from them (copying the values, or taking
// the values kept whole) saves allocating them for every record. Not for concurrent use.
type Scratch struct{ free, lent []map[string]any }

func (s *Scratch) get() map[string]any {
	var m map[string]any
	if n := len(s.free); n > 0 {
		m = s.free[n-1]
		s.free = s.free[:n-1]
	} else {
		m = map[string]any{}
	}
	s.lent = append(s.lent, m)
	return m
}

// Release takes back, emptied, every map lent since the last Release: the records
// decoded with s until now must no longer be read, but what was taken from them stays.
func (s *Scratch) Release() {
	for _, m := range s.lent {
		clear(m)
	}
	s.free = append(s.free, s.lent...)
	clear(s.lent)
	s.lent = s.lent[:0]
}
