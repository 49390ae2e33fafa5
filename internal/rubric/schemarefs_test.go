package rubric

import (
	"reflect"
	"slices"
	"testing"
)

func TestSchemaRefs(t *testing.T) {
	doc := `{"$ref": "defs.json#/$defs/a", "properties": {
		"x": {"$ref": "#/$defs/local"},
		"y": {"items": [{"$ref": "sub/more%20defs.json"}, {"$ref": "defs.json"}]},
		"z": {"$ref": "https://example.com/s.json"},
		"w": {"$ref": "/etc/s.json"},
		"$ref": {"type": "string"}}}`
	if got, want := SchemaRefs([]byte(doc)), []string{"defs.json", "sub/more defs.json"}; !reflect.DeepEqual(slices.Sorted(slices.Values(got)), want) {
		t.Errorf("SchemaRefs = %q; want %q", got, want)
	}
	if got := SchemaRefs([]byte("not json")); got != nil {
		t.Errorf("SchemaRefs(not json) = %q; want none", got)
	}
}
