package importer

import (
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// readDoc walks {"results": [...]} with the document scanner, decoding each record's
// keep keys, from r.
func readDoc(t *testing.T, r io.Reader, keep keys) ([]map[string]any, error) {
	t.Helper()
	d := newDocDecoder("doc.json", r)
	var got []map[string]any
	err := d.object("", func(key string) error {
		if key != "results" {
			return d.skip(key)
		}
		return d.array("results", func(i int) error {
			var m map[string]any
			if err := d.decodeKeys("results", keep, &m); err != nil {
				return err
			}
			got = append(got, m)
			return nil
		})
	})
	return got, err
}

// The scanner finds each record's end through escaped quotes and runs of backslashes
// (also where a buffer refill splits them: one byte a read), skips what is not read,
// and gives the values encoding/json gives.
func TestDocScannerMatchesEncodingJSON(t *testing.T) {
	doc := `{"skipped": {"a": [1, 2.5e3, "x\"}]", {"b": null}], "c": "\\"}, "results": [
		{"id": "q\\\"1", "text": "she said \"}\" and left\\", "n": -0.5, "list": [{"k": "\u00e9"}, true, false, null], "drop": "a\\\\"},
		{"id": "q2", "nested": {"deep": [[[{"x": "]"}]]]}, "drop": 1e400}
	], "after": [true]}`
	ok := strings.Replace(doc, "1e400", "1", 1)
	var want struct{ Results []map[string]any }
	if err := json.Unmarshal([]byte(ok), &want); err != nil {
		t.Fatal(err)
	}
	for name, r := range map[string]func() io.Reader{
		"whole":        func() io.Reader { return strings.NewReader(ok) },
		"byte by byte": func() io.Reader { return iotest.OneByteReader(strings.NewReader(ok)) },
	} {
		got, err := readDoc(t, r(), keySet("id", "text", "n", "list", "nested"))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, w := range want.Results {
			delete(w, "drop")
		}
		if !reflect.DeepEqual(got, want.Results) {
			t.Errorf("%s: got %v\nwant %v", name, got, want.Results)
		}
	}
	// Only the keys read are built; the others are still checked (1e400 is out of range).
	got, err := readDoc(t, strings.NewReader(doc), keySet("id", "n"))
	if err == nil || !strings.Contains(err.Error(), "1e400") {
		t.Errorf("out-of-range number in an unread key: %v, %v; want it refused", got, err)
	}
	got, err = readDoc(t, strings.NewReader(ok), keySet("id", "n"))
	wantKeys := []map[string]any{{"id": `q\"1`, "n": -0.5}, {"id": "q2"}}
	if err != nil || !reflect.DeepEqual(got, wantKeys) {
		t.Errorf("keys: %v, %v; want %v", got, err, wantKeys)
	}
}

// Malformed and truncated documents are refused with where the fault is: the byte
// offset is the fault's offset in the file.
func TestDocScannerErrors(t *testing.T) {
	for _, c := range []struct{ name, doc, want string }{
		{"truncated record", `{"results": [{"id": "a", "x": [1, 2`, "results: the JSON ends early"},
		{"truncated string", `{"results": [{"id": "a\"`, "results: the JSON ends early"},
		// bytes counted from 1: the 24th is the ']' closing the object
		{"wrong bracket", `{"results": [{"id": "a"]]}`, "results: malformed JSON at byte 24: invalid character ']' after object key:value pair"},
		{"bad literal in a skipped value", `{"other": [tru], "results": []}`, `other: malformed JSON at byte 12: invalid literal "tru"`},
		{"bad number in a skipped value", `{"other": 01, "results": []}`, `other: malformed JSON at byte 11: malformed number "01"`},
		{"control character", "{\"other\": \"a\x01\", \"results\": []}", "other: malformed JSON at byte 13: invalid character '\\x01' in string literal"},
		{"missing colon", `{"results" []}`, "malformed JSON at byte 12: invalid character '[' after object key"},
		{"not a list", `{"results": {}}`, "results: want a list, found an object"},
		{"record not an object", `{"results": [1]}`, "results: want an object, found a number"},
	} {
		_, err := readDoc(t, strings.NewReader(c.doc), keys{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want %q", c.name, err, c.want)
		}
	}
}
