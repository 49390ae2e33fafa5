package eval

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzLeadingID: the id a malformed line's error names is read from the line's first
// 4 KiB only, and is the string value of its first key when that key is "id"; any
// other line names none. No line makes it panic.
func FuzzLeadingID(f *testing.F) {
	for _, seed := range []string{
		`{"id":"e-1","output":`, `{"id": "a\"b\u202e", "x": }`, `{"output":"x","id":"late"`,
		`{"id":1}`, `{"id":"   "`, `[{"id":"a"}]`, `{"id":"` + strings.Repeat("x", 5000) + `"}`,
		`{"i\u0064":"escaped key"`, ``, `{`, `{"id"`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		id := leadingID(line)
		if id == "" {
			return
		}
		if strings.TrimSpace(id) == "" {
			t.Fatalf("leadingID(%q) = %q: a blank id", line, id)
		}
		head := line[:min(len(line), leadingIDBytes)]
		dec := json.NewDecoder(strings.NewReader(string(head)))
		if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
			t.Fatalf("leadingID(%q) = %q from a line that is no object", line, id)
		}
		if k, err := dec.Token(); err != nil || k != "id" {
			t.Fatalf("leadingID(%q) = %q though the first key is %v", line, id, k)
		}
		if v, err := dec.Token(); err != nil || v != id {
			t.Fatalf("leadingID(%q) = %q; the first 4 KiB say %v", line, id, v)
		}
	})
}
