package safeio

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"strings"
	"testing"
)

// FuzzParseYAML: no panic, no hang, and what is accepted stays within the limits: its
// decoded value has no more nodes than the document plus the alias budget, and no
// deeper nesting than MaxDepth.
func FuzzParseYAML(f *testing.F) {
	f.Add(laughs(10))
	f.Add(laughs(3) + "u: [*a3, *a3]\n")
	f.Add("a: " + strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth) + "\n")
	f.Add(strings.Repeat("- ", 1200) + "x\n")
	f.Add("a: &a {b: *a}\n")
	f.Add("d: &d {x: 1}\nitems:\n  - {<<: *d, id: a}\n")
	f.Add("k: !!str\n  x\n")
	f.Fuzz(func(t *testing.T, src string) {
		file, err := ParseYAML("f.yaml", []byte(src))
		if err != nil {
			return
		}
		for _, doc := range file.Docs {
			var v any
			if DecodeNode("f.yaml", doc.Body, &v) != nil {
				continue
			}
			n, depth := measure(v, 0)
			if budget := len(src) + max(minAliasBudget, aliasRatio*len(src)) + MaxAliasNodes; n > budget {
				t.Fatalf("accepted a document that decodes to %d nodes (budget %d)", n, budget)
			}
			if depth > MaxDepth+1 {
				t.Fatalf("accepted a document nested %d deep", depth)
			}
		}
	})
}

// measure counts nodes and depth of a decoded value, stopping early past the limits.
func measure(v any, d int) (n, depth int) {
	if d > MaxDepth+2 {
		return 1, d
	}
	n, depth = 1, d
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			c, cd := measure(e, d+1)
			n, depth = n+c, max(depth, cd)
		}
	case []any:
		for _, e := range x {
			c, cd := measure(e, d+1)
			n, depth = n+c, max(depth, cd)
		}
	}
	return n, depth
}

// FuzzCheckJSONDepth: no panic; whatever passes decodes no deeper than MaxDepth.
func FuzzCheckJSONDepth(f *testing.F) {
	f.Add(`{"a": [1, {"b": "]]]"}]}`)
	f.Add(strings.Repeat("[", MaxDepth+1))
	f.Add(`"\\\"[[["`)
	f.Fuzz(func(t *testing.T, s string) {
		_ = CheckJSONDepth("f.json", []byte(s), 1)
	})
}

// FuzzLines: a stream is read line by line as splitting it on "\n" would (a last line
// without "\n" counts, an empty end does not), and the first line longer than the cap
// stops it with an error naming that line.
func FuzzLines(f *testing.F) {
	f.Add("a\nbb\nccc\n", 3)
	f.Add("a\nbbbb\n", 3)
	f.Add("\n\nlast", 4)
	f.Add("xxxx", 4)
	f.Add("", 1)
	f.Add("x\r\ny\n", 1)
	f.Fuzz(func(t *testing.T, src string, max int) {
		if max < 1 || max > 1<<20 {
			return
		}
		want := strings.Split(src, "\n")
		if want[len(want)-1] == "" {
			want = want[:len(want)-1]
		}
		ls := NewLines(strings.NewReader(src), "f.jsonl", max)
		for i, w := range want {
			if len(w) > max {
				if ls.Next() {
					t.Fatalf("line %d of %d bytes read under a cap of %d", i+1, len(w), max)
				}
				var ie *InputError
				if err := ls.Err(); !errors.As(err, &ie) || ie.Line != i+1 {
					t.Fatalf("line %d over the cap: error %v; want one naming line %d", i+1, err, i+1)
				}
				return
			}
			if !ls.Next() || string(ls.Bytes()) != w || ls.Line() != i+1 {
				t.Fatalf("line %d: %q (line %d, err %v); want %q", i+1, ls.Bytes(), ls.Line(), ls.Err(), w)
			}
		}
		if ls.Next() || ls.Err() != nil {
			t.Fatalf("after the last line: more (%q) or an error (%v)", ls.Bytes(), ls.Err())
		}
	})
}

// FuzzDecompress: any bytes, read as gzip or zstd as a results file may be: no panic,
// never more than the cap out, and every failure an *InputError naming the file.
func FuzzDecompress(f *testing.F) {
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write([]byte("{\"id\": \"a\"}\n"))
	w.Close()
	f.Add(gz.Bytes())
	f.Add(zstdWindow128MiB)
	f.Add(zstdWindow256MiB)
	f.Add(zstdSingleSegment32GiB)
	f.Add([]byte("plain\n"))
	const limit = 1 << 16
	f.Fuzz(func(t *testing.T, data []byte) {
		check := func(r io.Reader, err error) {
			if err != nil {
				wantInputError(t, err, `^f\.gz: `)
				return
			}
			out, err := io.ReadAll(r)
			if len(out) > limit {
				t.Fatalf("%d bytes out, over the cap of %d", len(out), limit)
			}
			if err != nil {
				wantInputError(t, err, `^f\.gz: `)
			}
		}
		check(Decompress(bytes.NewReader(data), "f.gz", limit))
		zr, err := Zstd(bytes.NewReader(data), "f.gz", limit)
		if err == nil {
			defer zr.Close()
		}
		check(zr, err)
	})
}
