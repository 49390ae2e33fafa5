package importer_test

import (
	"maps"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/importer"
)

// promptfoo's reason for a failed assertion (gradingResult.componentResults[i].reason)
// comes along as the note of the score it failed (score_notes), and the test's reason
// (gradingResult.reason) as that of success and score; a passing assertion's reason
// ("Assertion passed") is not kept. The files are promptfoo 0.123.1's own.
func TestPromptfooKeepsFailedReasons(t *testing.T) {
	const madrid = `Expected output to contain "Madrid"`
	want := map[string]map[string]string{
		"capital of france": nil, // every assertion passed
		// correctness failed; brevity scored 0.?? but passed (promptfoo's pass decides)
		"wrong capital": {"correctness": madrid, "success": madrid, "score": madrid},
		"broken json": {"format": "Expected output to be valid JSON", "success": "Expected output to be valid JSON",
			"score": "Expected output to be valid JSON"},
		"weighted checks": {"units": `Expected output to contain "Fahrenheit"`, "success": `Expected output to contain "Fahrenheit"`,
			"score": `Expected output to contain "Fahrenheit"`},
	}
	for _, name := range []string{"results-0.123.1.json", "results-0.123.1.jsonl"} {
		runs, _, err := importer.LoadRuns(pfFile(name), importer.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for id, notes := range want {
			r, ok := runs[0].Result(id)
			if !ok {
				t.Fatalf("%s: no item %q", name, id)
			}
			if !maps.Equal(r.ScoreNotes, notes) {
				t.Errorf("%s %q: score notes %q; want %q", name, id, r.ScoreNotes, notes)
			}
		}
	}
}

// Several failed assertions of one metric give their reasons in order, and a reason
// longer than eval.MaxNoteRunes (300) is cut to 300 runes ending " … (cut)".
func TestPromptfooReasonsJoinedAndCut(t *testing.T) {
	long := strings.Repeat("é", 400)
	rec := `{"testCase":{"description":"t","vars":{}},"response":{"output":"x"},"success":false,"score":0,` +
		`"namedScores":{"correctness":0},"gradingResult":{"pass":false,"reason":"first","componentResults":[` +
		`{"pass":false,"score":0,"reason":"first","assertion":{"type":"contains","metric":"correctness"}},` +
		`{"pass":false,"score":0,"reason":"second","assertion":{"type":"contains","metric":"correctness"}},` +
		`{"pass":true,"score":1,"reason":"Assertion passed","assertion":{"type":"contains","metric":"tone"}},` +
		`{"pass":false,"score":0,"reason":"` + long + `","assertion":{"type":"icontains"}}]}}`
	path := writeLines(t, "r.jsonl", rec)
	runs, _, err := importer.LoadRuns(path, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := runs[0].Results[0].ScoreNotes
	if n["correctness"] != "first; second" || n["tone"] != "" {
		t.Errorf("notes %q; want correctness \"first; second\" and none for the passing tone", n)
	}
	// 300 runes: 292 of the reason, then the 8 of " … (cut)".
	if cut := n["icontains"]; cut != strings.Repeat("é", 292)+" … (cut)" {
		t.Errorf("long reason gives %d runes %q; want 292 é then \" … (cut)\"", len([]rune(cut)), cut)
	}
}
