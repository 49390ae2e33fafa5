package cli

import (
	"context"
	"testing"
	"time"
)

// A check's scoring releases the suite's items; what reads items after it (settle's
// `run:` re-runs, a second scoring) reads them again, with their fields, rather than
// the stripped entries of the index.
func TestSuiteAgainAfterACheck(t *testing.T) {
	const ex = "../../examples/tutor-capstone/"
	opts := CheckOptions{CheckPlan: CheckPlan{Config: ex + "evalgate.yaml", Results: []string{ex + "results/pr.jsonl"}, NoBaseline: true},
		CheckEnv: CheckEnv{Now: time.Unix(0, 0)}}
	l, err := Load(opts)
	if err != nil {
		t.Fatal(err)
	}
	r, err := l.Check(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if l.Suite != nil || l.Index == nil || l.Index.Len() == 0 {
		t.Fatalf("after the check: items held %v, index %v; want none held, the index kept", l.Suite != nil, l.Index)
	}
	s, err := l.suiteAgain()
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != l.Index.Len() {
		t.Fatalf("%d items read again; the index has %d", s.Len(), l.Index.Len())
	}
	for i := range s.Len() {
		it := s.At(i)
		if it == nil || it.ID != l.Index.ID(i) || len(it.Fields) < 2 || it.Prompt == "" {
			t.Fatalf("item %d read again: %+v; want %q with its prompt and fields", i, it, l.Index.ID(i))
		}
	}
}
