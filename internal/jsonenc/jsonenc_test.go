package jsonenc

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

// stdlib encodes v as encoding/json does: Marshal (escapeHTML) or an Encoder with
// SetEscapeHTML(false).
func stdlib(t testing.TB, v any, html bool) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(html)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

var cases = []any{
	nil, true, false, 0.0, -0.0, 1.0, 0.1, 1.0 / 3, 1e-6, 9.99e-7, 1e-7, 1.5e-9, 1e20, 1e21, 1.2345e300, -2.5e-300,
	math.MaxFloat64, math.SmallestNonzeroFloat64, 123456789.0, 0.85, 0.949999999,
	0, 42, -7, int64(1) << 60,
	"", "plain", "quote \" back \\ slash", "tab\tnew\nline\rcr\bbs\fff", "\x00\x01\x1f\x7f", "<a href=\"x\">&amp;</a>",
	"é ñ 日本 🎉", "\u2028\u2029", "bad \xff utf8 \xc3", "Conjugate 'eat' — past simple",
	[]any{}, []any{1.0, "a", nil, []any{true}}, []string{"x", "<y>"}, []string(nil), []any(nil),
	map[string]any{}, map[string]any{"b": 1.0, "a": []any{"x"}, "é": map[string]any{"z": nil, "<": ">"}},
	map[string]string{"k": "v", "a": "\n"}, map[string]float64{"english": 1, "json": 0.1},
	map[string]any(nil), map[string]string(nil),
	json.RawMessage(`{"a":1}`),
}

// TestMatchesEncodingJSON: every supported value encodes byte for byte as
// encoding/json encodes it, with and without HTML escaping.
func TestMatchesEncodingJSON(t *testing.T) {
	for _, v := range cases {
		for _, html := range []bool{true, false} {
			got, ok := Append(nil, v, html)
			if !ok {
				t.Fatalf("%#v: not handled", v)
			}
			if want := stdlib(t, v, html); !bytes.Equal(got, want) {
				t.Errorf("%#v (html %v):\n got %s\nwant %s", v, html, got, want)
			}
		}
	}
}

// TestRefuses: NaN, infinities and other types are left to the caller, dst unchanged.
func TestRefuses(t *testing.T) {
	for _, v := range []any{math.NaN(), math.Inf(1), struct{}{}, []any{math.Inf(-1)}, map[string]any{"a": struct{}{}}} {
		got, ok := Append([]byte("x"), v, true)
		if ok || string(got) != "x" {
			t.Errorf("%#v: got %q, %v; want refused, dst unchanged", v, got, ok)
		}
	}
}

// FuzzString: any string (valid UTF-8 or not) escapes as encoding/json escapes it.
func FuzzString(f *testing.F) {
	for _, c := range cases {
		if s, ok := c.(string); ok {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, html := range []bool{true, false} {
			if got, want := AppendString(nil, s, html), stdlib(t, s, html); !bytes.Equal(got, want) {
				t.Fatalf("%q (html %v): got %s want %s", s, html, got, want)
			}
		}
	})
}

// FuzzFloat: any finite float64 formats as encoding/json formats it.
func FuzzFloat(f *testing.F) {
	for _, c := range cases {
		if x, ok := c.(float64); ok {
			f.Add(x)
		}
	}
	f.Fuzz(func(t *testing.T, x float64) {
		got, ok := Append(nil, x, false)
		if math.IsNaN(x) || math.IsInf(x, 0) {
			if ok {
				t.Fatalf("%v accepted", x)
			}
			return
		}
		if want := stdlib(t, x, false); !bytes.Equal(got, want) {
			t.Fatalf("%v: got %s want %s", x, got, want)
		}
	})
}
