package eval

import (
	"reflect"
	"testing"
)

// TestLookup follows dotted paths through nested objects, and stops at anything that
// is not an object or has no such key (empty parts included).
func TestLookup(t *testing.T) {
	m := map[string]any{"a": map[string]any{"b": []any{"x"}, "": 1.0}, "c": "s", "d.e": 2.0}
	for _, tc := range []struct {
		path string
		want any
		ok   bool
	}{
		{"a.b", []any{"x"}, true}, {"c", "s", true}, {"a", m["a"], true}, {"a.", 1.0, true},
		{"a.b.c", nil, false}, {"c.x", nil, false}, {"x", nil, false}, {"d.e", nil, false}, {"", nil, false},
	} {
		got, ok := Lookup(m, tc.path)
		if ok != tc.ok || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Lookup(%q) = %v, %v; want %v, %v", tc.path, got, ok, tc.want, tc.ok)
		}
	}
}
