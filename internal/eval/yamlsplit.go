package eval

import (
	"bytes"
	"regexp"
)

// A large YAML suite is parsed one item at a time: goccy/go-yaml builds the whole
// file's tokens and tree before anything is decoded (2.8 GB for 200k items, against
// 1.4 GB for the same suite as JSONL). splitItems cuts the usual layout, a block list
// of items under `items:` or at the top, into one small document per item, found by
// indentation alone. Anything it does not recognize, and any error, falls back to the
// whole-file parse, which stays the authority on what is valid and what an error says.

// yamlItem is one item's lines: data, and how many lines of the file come before it.
type yamlItem struct {
	data []byte
	off  int
}

// itemsKey is the `items:` line: the key, then nothing but spaces and a comment, which
// YAML starts only after a space ("items:#x" is one plain scalar, not the key).
var itemsKey = regexp.MustCompile(`^items:([ ]*|[ ]+#.*)$`)

// splitItems returns the file with the items' lines blanked and `items: []` in place
// of the list (the skeleton, which keeps every other line where it was; nil for a
// top-level list), and the items; ok is false when the layout is not one it knows.
func splitItems(data []byte) (skeleton []byte, items []yamlItem, ok bool) {
	lines := bytes.SplitAfter(data, []byte("\n"))
	if n := len(lines); n > 0 && len(lines[n-1]) == 0 {
		lines = lines[:n-1]
	}
	i := 0
	next := func() { // to the next line that is neither blank nor a comment
		for i < len(lines) && isBlankOrComment(lines[i]) {
			i++
		}
	}
	next()
	if i == len(lines) {
		return nil, nil, false
	}
	topLevel := isEntry(lines[i], 0)
	itemsLine := -1
	if !topLevel {
		for ; i < len(lines); i++ {
			l := bytes.TrimRight(lines[i], "\n")
			if isMarker(l) {
				return nil, nil, false
			}
			if itemsKey.Match(l) {
				itemsLine = i
				break
			}
		}
		if itemsLine < 0 {
			return nil, nil, false
		}
		i++
		next()
		if i == len(lines) {
			return nil, nil, false
		}
	}
	indent := indentOf(lines[i])
	if indent < 0 || !isEntry(lines[i], indent) {
		return nil, nil, false
	}
	start := i
	var offsets []int
	end := len(lines)
	for ; i < len(lines); i++ {
		l := lines[i]
		switch {
		case isEntry(l, indent):
			offsets = append(offsets, i)
		case isBlankOrComment(l):
		case indentOf(l) > indent:
		case indentOf(l) < 0: // a tab in the indentation: not valid YAML, let the parser say so
			return nil, nil, false
		default:
			end = i
		}
		if end != len(lines) {
			break
		}
	}
	if topLevel && end != len(lines) {
		return nil, nil, false // something after a top-level list: the parser reports it
	}
	pos := make([]int, len(lines)+1) // byte offset of each line; the items are slices of data
	for j, l := range lines {
		pos[j+1] = pos[j] + len(l)
	}
	for k, first := range offsets {
		last := end
		if k+1 < len(offsets) {
			last = offsets[k+1]
		}
		items = append(items, yamlItem{data: data[pos[first]:pos[last]], off: first})
	}
	if topLevel {
		return nil, items, true
	}
	var sk bytes.Buffer
	for j, l := range lines {
		switch {
		case j == itemsLine:
			sk.WriteString("items: []\n")
		case j >= start && j < end:
			sk.WriteByte('\n')
		default:
			if isMarker(bytes.TrimRight(l, "\n")) {
				return nil, nil, false
			}
			sk.Write(l)
		}
	}
	return sk.Bytes(), items, true
}

// isEntry reports whether l starts a list entry ("- ..." or "-") at indent.
func isEntry(l []byte, indent int) bool {
	if indentOf(l) != indent {
		return false
	}
	rest := bytes.TrimRight(l[indent:], "\n")
	return bytes.Equal(rest, []byte("-")) || bytes.HasPrefix(rest, []byte("- "))
}

// indentOf counts leading spaces; -1 when a tab comes first.
func indentOf(l []byte) int {
	n := 0
	for n < len(l) && l[n] == ' ' {
		n++
	}
	if n < len(l) && l[n] == '\t' {
		return -1
	}
	return n
}

func isBlankOrComment(l []byte) bool {
	t := bytes.TrimLeft(l, " \t")
	return len(t) == 0 || t[0] == '\n' || t[0] == '#'
}

// isMarker reports a document marker or directive, which the skeleton cannot keep.
func isMarker(l []byte) bool {
	return bytes.HasPrefix(l, []byte("---")) || bytes.HasPrefix(l, []byte("...")) || bytes.HasPrefix(l, []byte("%"))
}
