package baseline

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzItemLine: whenever the fast item parser accepts a line, encoding/json (strict,
// as Reader decodes) accepts it too and gives the very same Item; the fast parser
// accepts every item line Encode writes.
//
//	go test -run x -fuzz FuzzItemLine -fuzztime 60s ./internal/baseline
func FuzzItemLine(f *testing.F) {
	paths, _ := filepath.Glob("../../baselines/*.json")
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 1<<20)
		for n := 0; sc.Scan(); n++ {
			if n > 0 && bytes.HasPrefix(sc.Bytes(), []byte(`{"id"`)) {
				f.Add(append([]byte(nil), sc.Bytes()...))
			}
		}
	}
	for _, s := range []string{
		`{"id":"a","hash":"h","tags":["x","y"],"runs":3,"score":0.5,"score_std":0.1,"pass_rate":0.666666667,"pass_bits":"101","breakdown":{"q":0.5},"breakdown_std":{"q":0.1}}`,
		`{"id":"a","tags":[],"runs":1,"score":1e-3,"score_std":0,"pass_rate":1,"breakdown":{}}`,
		`{"id":"é","runs":01,"score":1}`, `{"id":"a","runs":1.0}`, `{"id":"a","score":-0}`, `{"id":"a","score":1E+2}`,
		`{"id":"a","score":1e999}`, `{"id":"a","id":"b"}`, `{"id":"a","breakdown":{"q":1,"q":2}}`, `{"ID":"a"}`,
		`{"id":"a\u00e9"}`, "{\"id\":\"\xff\"}", `{"id":"a"} `, `{"id":"a"}{}`, `{"id":"a","extra":1}`, `{"id":"a",}`,
		`{"id":"a","tags":["x",]}`, `{"id":"a","runs":-1}`, `{"id":"a","score":.5}`, `{"id":"a","score":5.}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var p itemParser
		var fast Item
		if !p.parse(line, &fast) {
			return
		}
		var strict Item
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&strict); err != nil || dec.More() {
			t.Fatalf("fast parser accepted %q; encoding/json: %v (more: %v)", line, err, dec.More())
		}
		if diff := cmp.Diff(strict, fast); diff != "" {
			t.Fatalf("%q: fast parse differs (-json +fast):\n%s", line, diff)
		}
		// What Encode writes of it, the fast parser reads back.
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(&fast); err != nil {
			t.Fatal(err)
		}
		var again Item
		if !p.parse(bytes.TrimSuffix(buf.Bytes(), []byte("\n")), &again) {
			t.Fatalf("fast parser refuses Encode's line %s", buf.Bytes())
		}
	})
}
