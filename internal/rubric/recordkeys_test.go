package rubric

import "testing"

// TestRecordKeys: the keys a rubric reads are the item fields every item shows, its
// dimensions' expected paths (top segment) and recorded keys; a scorer that may read
// anything makes every key read.
func TestRecordKeys(t *testing.T) {
	sys := &System{Dimensions: []Dimension{
		{Name: "english", Scorer: "contains", Expected: "expected_contains.english"},
		{Name: "answer", Scorer: "exact", Expected: "reference.text"},
		{Name: "human", Scorer: "recorded", Key: "grades.accuracy"},
		{Name: "json", Scorer: "json_schema"},
	}}
	keys := sys.RecordKeys()
	for _, k := range []string{"prompt", "input", "context", "tags", "expected", "expected_contains", "reference", "grades", "human", "evaluator_error"} {
		if !keys(k) {
			t.Errorf("key %q not read; want read", k)
		}
	}
	for _, k := range []string{"meta", "notes", "english.x", "reference.text"} {
		if keys(k) {
			t.Errorf("key %q read; want unread", k)
		}
	}
	sys.Dimensions = append(sys.Dimensions, Dimension{Name: "x", Scorer: "a_new_scorer"})
	if sys.RecordKeys() != nil {
		t.Error("a scorer outside the known list: want every key read (nil)")
	}
}
