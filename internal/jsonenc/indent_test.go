package jsonenc

import (
	"bytes"
	"encoding/json"
	"testing"
)

var indentSeeds = []string{
	`{}`, `[]`, `{"a":[]}`, `{"a":{},"b":[1,2,{"c":null}]}`, `"x"`, `1.5`, `true`,
	`{"k\"ey":"va\\\"l,ue:{[","n":-0.5e10,"e":[[],[{}]]}`,
	`{"got":"{\"english\": \"Found.\"}","score":1,"breakdown":{"english":1,"json":0}}`,
}

func checkIndent(t *testing.T, src []byte) {
	var compact bytes.Buffer
	if json.Compact(&compact, src) != nil || !bytes.Equal(compact.Bytes(), src) {
		return // AppendIndent takes compact JSON, as Append writes it
	}
	var want bytes.Buffer
	if err := json.Indent(&want, src, "    ", "  "); err != nil {
		return
	}
	if got := AppendIndent(nil, src, "    ", "  "); !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("AppendIndent(%q):\n%s\nwant (json.Indent):\n%s", src, got, want.Bytes())
	}
}

func TestAppendIndentMatchesJSONIndent(t *testing.T) {
	for _, s := range indentSeeds {
		checkIndent(t, []byte(s))
	}
}

func FuzzAppendIndent(f *testing.F) {
	for _, s := range indentSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) { checkIndent(t, src) })
}
