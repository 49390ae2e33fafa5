package importer_test

import (
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/importer"
)

// An Inspect scorer's explanation comes along as the note (score_notes) of each of its
// values below 1 (I, P, a dict value's failing key, an unscored NaN), in a `.eval`
// archive and a `.json` log, imported and read directly; a full score's is not kept.
func TestInspectKeepsExplanationOfFailedScores(t *testing.T) {
	header := `{"version": 2, "status": "success", "eval": {"task": "t", "model": "m"}, "results": {"scores": [{"name": "match"}]}}`
	a := `{"id": "a", "epoch": 1, "input": "q", "target": "t", "output": {"completion": "x"},
		"scores": {"match": {"value": "C", "explanation": "matches"}, "quality": {"value": {"grade": "I", "concise": true}, "explanation": "<b>wrong</b>"}}}`
	b := `{"id": "b", "epoch": 1, "input": "q", "target": "t", "output": {"completion": "x"},
		"scores": {"match": {"value": "P", "explanation": "half of it"}, "judge": {"value": NaN, "explanation": "judge refused"}}}`
	want := []map[string]string{
		{"quality_grade": "<b>wrong</b>"}, // match C and quality_concise true are full scores
		{"match": "half of it", "judge": "judge refused"},
	}
	for _, path := range inspectLogs(t, header, a, b) {
		for how, rs := range readBothWays(t, path) {
			for i, w := range want {
				if !maps.Equal(rs[i].ScoreNotes, w) {
					t.Errorf("%s, %s, %s: notes %q; want %q", filepath.Base(path), how, rs[i].ID, rs[i].ScoreNotes, w)
				}
			}
		}
	}
}

// inspectLogs writes the samples (one epoch each, named by their ids a, b, ...) under
// header both as a `.eval` archive and as a `.json` log, and returns the two paths.
func inspectLogs(t *testing.T, header string, samples ...string) []string {
	t.Helper()
	members := []string{"header.json", header}
	for i, s := range samples {
		members = append(members, "samples/"+string(rune('a'+i))+"_epoch_1.json", s)
	}
	jsonPath := filepath.Join(t.TempDir(), "log.json")
	doc := strings.Replace(header, `"results"`, `"samples": [`+strings.Join(samples, ", ")+`], "results"`, 1)
	if err := os.WriteFile(jsonPath, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return []string{writeEval(t, members...), jsonPath}
}

// readBothWays is the first run's results of path as import reads it and as check reads
// the file directly.
func readBothWays(t *testing.T, path string) map[string][]*eval.Result {
	t.Helper()
	runs, _, err := importer.LoadRuns(path, importer.Options{})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	direct, _ := directRuns(t, path, nil)
	return map[string][]*eval.Result{"imported": runs[0].Results, "read directly": direct[0]}
}
