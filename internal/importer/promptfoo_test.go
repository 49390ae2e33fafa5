package importer_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/importer"
)

func pfFile(name string) string { return filepath.Join("testdata", "promptfoo", name) }

// Files written by promptfoo 0.123.1 itself (testdata/promptfoo/*-0.123.1.*).
func TestPromptfooCommittedOutput(t *testing.T) {
	for _, name := range []string{"results-0.123.1.json", "results-0.123.1.jsonl"} {
		runs, meta, err := importer.LoadRuns(pfFile(name), importer.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(runs) != 1 || len(runs[0].Results) != 5 || meta.Format != importer.Promptfoo {
			t.Fatalf("%s: %d runs, meta %+v", name, len(runs), meta)
		}
		r, ok := runs[0].Result("weighted checks")
		if !ok {
			t.Fatalf("%s: no item named by its description", name)
		}
		// (3 × contains "100" = 1 + 1 × contains "Fahrenheit" = 0 + 1 × brevity 0.92) / 5 = 0.784
		if r.Scores["score"] != 0.784 || r.Scores["success"] != false || r.Scores["units"] != 0.0 || r.Scores["brevity"] != 0.92 {
			t.Errorf("%s: scores %v", name, r.Scores)
		}
		// An assertion that failed is a failed item, not an errored one.
		if r.Error != "" {
			t.Errorf("%s: error %q; an assertion failure is not a system error", name, r.Error)
		}
	}
	runs, _, err := importer.LoadRuns(pfFile("repeat-0.123.1.jsonl"), importer.Options{})
	if err != nil || len(runs) != 2 {
		t.Fatalf("--repeat 2: %d runs, %v; want 2", len(runs), err)
	}
}

func TestPromptfooSeveralPrompts(t *testing.T) {
	_, _, err := importer.LoadRuns(pfFile("multi-0.123.1.jsonl"), importer.Options{})
	if err == nil || !strings.Contains(err.Error(), "4 prompt/provider pairs") || !strings.Contains(err.Error(), "--promptfoo-prompt") ||
		!strings.Contains(err.Error(), `3: provider "echo" (label "echo-b"), prompt "Answer: {{output}}"`) {
		t.Fatalf("error %v; want the list of pairs and the flag", err)
	}
	runs, _, err := importer.LoadRuns(pfFile("multi-0.123.1.jsonl"), importer.Options{Prompt: "3"})
	if err != nil {
		t.Fatal(err)
	}
	// No descriptions: ids are a hash of the vars.
	if len(runs[0].Results) != 2 || !strings.HasPrefix(runs[0].Results[0].ID, "vars-") || runs[0].Results[0].Output != "Answer: Paris" {
		t.Errorf("results %+v", runs[0].Results[0])
	}
	runs, _, err = importer.LoadRuns(pfFile("multi-0.123.1.jsonl"), importer.Options{Prompt: "echo-b", IDField: "qid"})
	if err == nil {
		t.Errorf("echo-b matches pairs 2 and 3; want an error")
	}
	runs, _, err = importer.LoadRuns(pfFile("multi-0.123.1.jsonl"), importer.Options{Prompt: "0", IDField: "qid"})
	if err != nil || runs[0].Results[0].ID != "fr-1" {
		t.Fatalf("--id-field qid: %v, %v", err, runs)
	}
	// Two unnamed assertions of one type: contains, contains_2.
	es, _ := runs[0].Result("es-1")
	if es.Scores["contains"] != 1.0 || es.Scores["contains_2"] != 0.0 {
		t.Errorf("es-1 scores %v", es.Scores)
	}
	_, _, err = importer.LoadRuns(pfFile("multi-0.123.1.jsonl"), importer.Options{Prompt: "0", IDField: "nope"})
	if err == nil || !strings.Contains(err.Error(), `--id-field "nope": the test has no such variable`) {
		t.Errorf("--id-field nope: %v", err)
	}
}

func TestPromptfooBadInput(t *testing.T) {
	ok := `{"testIdx": 0, "promptIdx": 0, "provider": {"id": "echo"}, "prompt": {"raw": "p"}, "testCase": {"description": "a", "vars": {"x": 1}}, "response": {"output": "o"}, "success": true, "score": 1, "latencyMs": 3}`
	for _, tt := range []struct{ name, text, want string }{
		{"no testCase", `{"promptIdx": 0, "response": {"output": "o"}, "success": true, "score": 1}`, `:1: record has no "testCase"`},
		{"vars a list", strings.Replace(ok, `"vars": {"x": 1}`, `"vars": [1]`, 1), `:1: field "testCase.vars" is a list; want an object`},
		{"no response", strings.Replace(ok, `"response": {"output": "o"}, `, "", 1), `:1: item "a": record has no "response" and no "error"`},
		{"score a string", strings.Replace(ok, `"score": 1`, `"score": "high"`, 1), `:1: item "a": field "score" is the string "high"; want a number`},
		{"success a number", strings.Replace(ok, `"success": true`, `"success": 1`, 1), `:1: item "a": field "success" is a number; want true or false`},
		{"latency negative", strings.Replace(ok, `"latencyMs": 3`, `"latencyMs": -3`, 1), `:1: item "a": field "latencyMs" is a number; want a number ≥ 0`},
		{"named score a string", strings.Replace(ok, `"score": 1`, `"score": 1, "namedScores": {"Tone": "ok"}`, 1), `named score "Tone" is the string "ok"; want a number`},
		{"two tests, one description", ok + "\n" + strings.Replace(ok, `"x": 1`, `"x": 2`, 1), ""},
		{"same vars twice, no descriptions", strings.Replace(ok, `"description": "a", `, "", 1) + "\n" + strings.Replace(strings.Replace(ok, `"description": "a", `, "", 1), `"testIdx": 0`, `"testIdx": 1`, 1), ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "results.jsonl")
			if err := os.WriteFile(path, []byte(tt.text+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			runs, _, err := importer.LoadRuns(path, importer.Options{Format: importer.Promptfoo})
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				// Two tests share a description: ids fall back to vars hashes. The same
				// test twice is a repeat: two runs.
				wantRuns := map[bool]int{true: 1, false: 2}[strings.HasPrefix(tt.name, "two tests")]
				if len(runs) != wantRuns || !strings.HasPrefix(runs[0].Results[0].ID, "vars-") {
					t.Errorf("%d runs, first id %s; want %d runs, ids from the vars", len(runs), runs[0].Results[0].ID, wantRuns)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), path) {
				t.Errorf("error %v; want %s", err, tt.want)
			}
		})
	}
	// A document cut short names where it stopped.
	data, err := os.ReadFile(pfFile("results-0.123.1.json"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "results.json")
	os.WriteFile(path, data[:len(data)/3], 0o644)
	if _, _, err := importer.LoadRuns(path, importer.Options{Format: importer.Promptfoo}); err == nil || !strings.Contains(err.Error(), "results.results[") {
		t.Errorf("truncated: %v", err)
	}
}

func errorsAs(err error, target any) bool { return errors.As(err, target) }
