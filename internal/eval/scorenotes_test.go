package eval_test

import (
	"maps"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/eval"
)

// score_notes is a typed result key: an object of strings (a null one is not recorded),
// cut to eval.MaxNoteRunes; anything else is refused naming the line, the item and the
// field; the fast decoder takes the same line to the same notes.
func TestScoreNotes(t *testing.T) {
	line := `{"id": "q", "output": "x", "scores": {"c": 0}, "score_notes": {"c": "Expected output to contain '4'", "d": null}}`
	run, err := eval.ReadRun("r.jsonl", strings.NewReader(line+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"c": "Expected output to contain '4'"}
	if got := run.Results[0].ScoreNotes; !maps.Equal(got, want) {
		t.Errorf("notes %q; want %q", got, want)
	}
	if _, has := run.Results[0].Fields["score_notes"]; has {
		t.Error("score_notes kept among the item's fields: it would enter the item's hash")
	}
	fast, ok := eval.DecodeResultFast([]byte(line), nil)
	if !ok || !maps.Equal(fast.ScoreNotes, want) {
		t.Errorf("fast decoder: ok %v, notes %q; want %q", ok, fast.ScoreNotes, want)
	}
	for _, c := range []struct{ notes, msg string }{
		{`"why"`, `r.jsonl:1: item "q": field "score_notes" is the string "why"; want an object`},
		{`{"c": 0}`, `r.jsonl:1: item "q": field "score_notes.c" is a number; want a string`},
	} {
		_, err := eval.ReadRun("r.jsonl", strings.NewReader(`{"id": "q", "output": "x", "score_notes": `+c.notes+"}\n"))
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("score_notes %s: error %v; want %q", c.notes, err, c.msg)
		}
	}
}

// A note over 300 runes keeps its first 292 and ends " … (cut)" (8 runes): 300 in all.
func TestClipNote(t *testing.T) {
	if s := strings.Repeat("a", 300); eval.ClipNote(s) != s {
		t.Error("a 300-rune note was cut")
	}
	got := eval.ClipNote(strings.Repeat("ü", 301))
	if got != strings.Repeat("ü", 292)+" … (cut)" || len([]rune(got)) != 300 {
		t.Errorf("301 runes gave %d: %q", len([]rune(got)), got)
	}
}
