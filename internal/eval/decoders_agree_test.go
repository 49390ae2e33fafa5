package eval_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/bytedance/sonic"
	jsonv2 "github.com/go-json-experiment/json"
	goccy "github.com/goccy/go-json"

	"github.com/evalgate/evalgate/internal/eval"
)

// candidates are the decoders measured in decoders_test.go, by name.
var candidates = map[string]func([]byte, *map[string]any) error{
	"go-json-experiment/json": func(d []byte, m *map[string]any) error { return jsonv2.Unmarshal(d, m) },
	"goccy/go-json":           func(d []byte, m *map[string]any) error { return goccy.Unmarshal(d, m) },
	"bytedance/sonic":         func(d []byte, m *map[string]any) error { return sonic.Unmarshal(d, m) },
	"bytedance/sonic std":     func(d []byte, m *map[string]any) error { return sonic.ConfigStd.Unmarshal(d, m) },
	"evalgate one-pass":       decodeOnePass,
}

// decodeOnePass is evalgate's own scanner (internal/eval/fastjson.go); a line it
// leaves to the full path is an error here, so every test record must take it.
func decodeOnePass(d []byte, m *map[string]any) error {
	v, ok := eval.DecodeObjectFast(d)
	if !ok {
		return errors.New("left to the full path")
	}
	*m = v
	return nil
}

// TestDecodersAgree: every candidate decodes every record of the examples' results (and
// of $DECODE_DATA, the bench data, when set) to the very values encoding/json gives, so
// each would give every item the same scores (scoring reads only those values).
func TestDecodersAgree(t *testing.T) {
	files, _ := filepath.Glob("../../examples/*/results/*.jsonl")
	if len(files) == 0 {
		t.Fatal("no example results files")
	}
	if p := os.Getenv("DECODE_DATA"); p != "" {
		files = append(files, p)
	}
	records := 0
	for _, p := range files {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		s := bufio.NewScanner(f)
		s.Buffer(nil, 1<<26)
		for n := 1; s.Scan(); n++ {
			var want map[string]any
			if err := json.Unmarshal(s.Bytes(), &want); err != nil {
				t.Fatalf("%s:%d: %v", p, n, err)
			}
			for name, dec := range candidates {
				var got map[string]any
				if err := dec(s.Bytes(), &got); err != nil {
					t.Errorf("%s:%d: %s: %v", p, n, name, err)
				} else if !reflect.DeepEqual(got, want) {
					t.Errorf("%s:%d: %s decodes %v; encoding/json %v", p, n, name, got, want)
				}
			}
			records++
		}
		f.Close()
	}
	t.Logf("%d records from %d files agree", records, len(files))
}
