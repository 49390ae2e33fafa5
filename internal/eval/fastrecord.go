package eval

import (
	"bytes"
	"strings"
)

// decodeResultFast builds the Result of one results line in one pass (fastjson.go),
// or reports false when the line needs the full path: any error, and anything the fast
// decoder does not take, is left to decodeRecord and newResult, so users see the same
// messages. The Result it builds is the one newResult gives for the same line, without
// Record; it keeps the line so ItemFromResult can hash the item's fields from it.
// keep, when set, names the top-level keys to decode into Fields: the others are only
// checked (and hashed with the item).
func decodeResultFast(file string, line int, text []byte, d *jsonScan, keep func(key string) bool) (*Result, bool) {
	if len(text) > MaxLineBytes {
		return nil, false
	}
	trimmed := bytes.TrimSpace(text)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, false
	}
	d.s, d.i, d.depth = string(trimmed), 1, 1
	r := &Result{Line: line, raw: d.s}
	var keys [16]string
	seen := keys[:0]
	hasID, hasOutput := false, false
	d.ws()
	if d.i < len(d.s) && d.s[d.i] == '}' {
		return nil, false // no id: newResult says so
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
				return nil, false // a repeated key: refused on the full path
			}
		}
		seen = append(seen, k)
		d.ws()
		if d.i >= len(d.s) || d.s[d.i] != ':' {
			return nil, false
		}
		d.i++
		other := !resultKeys[k]
		unread := other && keep != nil && !keep(k)
		d.discard = unread
		v, ok := d.value()
		d.discard = false
		if !ok {
			return nil, false
		}
		switch {
		case unread: // checked, not decoded
		case other:
			if r.Fields == nil {
				r.Fields = make(map[string]any, 4)
			}
			r.Fields[k] = v
		case k == "id":
			id, ok := v.(string)
			if !ok || strings.TrimSpace(id) == "" {
				return nil, false
			}
			r.ID = strings.Clone(id) // kept for the whole suite: not a slice of the line
			hasID = true
		default:
			hasOutput = hasOutput || k == "output"
			if v != nil || k == "output" { // null means not recorded
				if r.set(file, line, k, v) != nil {
					return nil, false
				}
			}
		}
		if !d.next('}') {
			return nil, false
		}
		if d.s[d.i-1] == '}' {
			break
		}
	}
	d.ws()
	if d.i != len(d.s) || !hasID || (!hasOutput && r.Error == "" && !r.TimedOut) || r.checkCached(file, line) != nil {
		return nil, false
	}
	if r.Fields == nil {
		r.Fields = map[string]any{}
	}
	return r, true
}
