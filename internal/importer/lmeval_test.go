package importer_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/importer"
)

const lmDate = "2024-06-01T12-00-00.000001"

func lmFile(task string) string {
	return filepath.Join("testdata", "lmeval", "samples_"+task+"_"+lmDate+".jsonl")
}

// readAll imports a file and returns its records and what it warned.
func readAll(t *testing.T, path string, opts importer.Options) ([]importer.Record, *importer.Meta, []string) {
	t.Helper()
	var recs []importer.Record
	var warns []string
	opts.Warn = func(s string) { warns = append(warns, s) }
	meta, err := importer.Read(path, opts, func(r importer.Record) error {
		recs = append(recs, r)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return recs, meta, warns
}

func TestLMEvalGenerateUntilFilters(t *testing.T) {
	if f, err := importer.Detect(lmFile("gsm8k")); err != nil || f != importer.LMEval {
		t.Fatalf("Detect = %q, %v", f, err)
	}
	// Two filters and none chosen: one dimension per metric and filter, one record per doc.
	recs, meta, warns := readAll(t, lmFile("gsm8k"), importer.Options{})
	if len(recs) != 3 {
		t.Fatalf("%d records; want one per doc (3)", len(recs))
	}
	first := recs[0].Fields
	if first["id"] != "gsm8k:0" || first["expected"] != "72" || first["output"] != "In April 48, in May 24, so 48 + 24 = 72. The answer is 72." {
		t.Errorf("first record %v", first)
	}
	if !strings.HasPrefix(first["prompt"].(string), "Question: Natalia sold clips") {
		t.Errorf("prompt %q", first["prompt"])
	}
	// doc 1: strict-match extracted "[invalid]" (0), flexible-extract "10" (1).
	want := map[string]any{"exact_match_strict_match": 0.0, "exact_match_flexible_extract": 1.0}
	if diff := cmp.Diff(want, recs[1].Fields["scores"]); diff != "" {
		t.Errorf("doc 1 scores (-want +got):\n%s", diff)
	}
	if recs[1].Fields["answer_strict_match"] != "[invalid]" || recs[1].Fields["answer_flexible_extract"] != "10" {
		t.Errorf("filtered answers %v", recs[1].Fields)
	}
	if len(warns) != 1 || !strings.Contains(warns[0], "--lm-eval-filter") {
		t.Errorf("warnings %q; want one naming --lm-eval-filter", warns)
	}
	// results_<date>.json beside the samples supplies the model and versions.
	wantMeta := map[string]string{"prompt_template_id": "gsm8k", "model_id": "EleutherAI/pythia-160m", "lm_eval_version": "0.4.3",
		"lm_eval_git_hash": "4c5e6f1", "prompt_template_version_or_hash": "3", "n_shot": "5",
		"model_args": "pretrained=EleutherAI/pythia-160m,revision=step100000", "model_version": "step100000"}
	if diff := cmp.Diff(wantMeta, meta.Metadata); diff != "" {
		t.Errorf("metadata (-want +got):\n%s", diff)
	}
	if first["model"] != "EleutherAI/pythia-160m" {
		t.Errorf("model %v", first["model"])
	}

	// One filter chosen: plain metric names.
	recs, _, _ = readAll(t, lmFile("gsm8k"), importer.Options{Filter: "strict-match"})
	if diff := cmp.Diff(map[string]any{"exact_match": 0.0}, recs[1].Fields["scores"]); diff != "" {
		t.Errorf("strict-match doc 1 (-want +got):\n%s", diff)
	}
	_, err := importer.Read(lmFile("gsm8k"), importer.Options{Filter: "strict"}, func(importer.Record) error { return nil })
	if err == nil || !strings.Contains(err.Error(), `"strict-match", "flexible-extract"`) {
		t.Errorf("unknown filter: %v; want the list of filters", err)
	}
}

func TestLMEvalMultipleChoice(t *testing.T) {
	recs, meta, _ := readAll(t, lmFile("arc_easy"), importer.Options{})
	if len(recs) != 3 {
		t.Fatalf("%d records", len(recs))
	}
	// doc 0: loglikelihoods -9.1, -8.7, -2.3, -7.9: " wind" (index 2) wins, and is the target.
	r := recs[0].Fields
	if r["output"] != "wind" || r["choice"] != 2.0 || r["expected"] != "2" {
		t.Errorf("doc 0: output %v choice %v expected %v; want wind, 2, \"2\"", r["output"], r["choice"], r["expected"])
	}
	// doc 1: -4.2 (" sand") beats -6.0 (" sunlight"): acc 0; per byte -6.0/9 = -0.667 beats
	// -4.2/5 = -0.84, so acc_norm picks sunlight: 1.
	if diff := cmp.Diff(map[string]any{"acc": 0.0, "acc_norm": 1.0}, recs[1].Fields["scores"]); diff != "" {
		t.Errorf("doc 1 scores (-want +got):\n%s", diff)
	}
	if recs[1].Fields["output"] != "sand" {
		t.Errorf("doc 1 output %v; want sand (highest loglikelihood)", recs[1].Fields["output"])
	}
	if len(meta.Dimensions) != 2 || meta.Dimensions[0].Scale != "unit" {
		t.Errorf("dimensions %+v", meta.Dimensions)
	}
}

func TestLMEvalCorpusLevelMetricsSkipped(t *testing.T) {
	recs, meta, warns := readAll(t, lmFile("wmt16_de_en"), importer.Options{})
	if len(recs) != 2 || recs[0].Fields["scores"] != nil {
		t.Fatalf("records %v; want 2 without scores", recs)
	}
	if len(meta.Dimensions) != 0 {
		t.Errorf("dimensions %v", meta.Dimensions)
	}
	if len(warns) != 3 { // bleu, chrf, ter: each once, not once per sample
		t.Fatalf("warnings %q", warns)
	}
	for _, w := range warns {
		if !strings.Contains(w, "corpus-level") {
			t.Errorf("warning %q", w)
		}
	}
}

// TestLMEvalBadInput: every error names the file, the line and the field.
func TestLMEvalBadInput(t *testing.T) {
	good := `{"doc_id": 0, "doc": {}, "target": "a", "arguments": {"gen_args_0": {"arg_0": "q", "arg_1": {}}}, "resps": [["a"]], "filtered_resps": ["a"], "filter": "none", "metrics": ["exact_match"], "exact_match": 1.0}`
	for _, tt := range []struct{ name, text, want string }{
		{"no doc_id", `{"doc": {}, "resps": [["a"]], "filtered_resps": ["a"], "exact_match": 1}`, `:1: record has no "doc_id"`},
		{"doc_id string", strings.Replace(good, `"doc_id": 0`, `"doc_id": "zero"`, 1), `:1: field "doc_id" is the string "zero"; want a whole number`},
		{"no resps", `{"doc_id": 0, "target": "a", "exact_match": 1.0}`, `:1: item "t:0": record has no "resps" or "filtered_resps"`},
		{"metric listed, absent", strings.Replace(good, `"exact_match": 1.0`, `"other": 1`, 1), `:1: item "t:0": metric "exact_match" is listed in "metrics" but the record has no such field`},
		{"metric a string", strings.Replace(good, `"exact_match": 1.0`, `"exact_match": "yes"`, 1), `:1: item "t:0": metric "exact_match" is the string "yes"; want a number`},
		{"duplicate doc", good + "\n" + good, `:2: item "t:0": duplicate result for the item; first on line 1`},
		{"filter a number", strings.Replace(good, `"filter": "none"`, `"filter": 3`, 1), `:1: field "filter" is a number; want a filter name`},
		{"malformed", good + "\n{\"doc_id\": 1,", `:2: malformed JSON`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "samples_t_"+lmDate+".jsonl")
			if err := os.WriteFile(path, []byte(tt.text+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			_, _, err := importer.LoadRuns(path, importer.Options{Format: importer.LMEval})
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), path) {
				t.Errorf("error %v; want %s", err, tt.want)
			}
		})
	}
}

// lm-eval writes its samples with Python's json module, which writes a non-finite float
// (a dataset's missing value in the doc, say) as a bare NaN or Infinity: the line is
// read, the value as null, not refused as malformed JSON. Read directly too.
func TestLMEvalNonFiniteInDoc(t *testing.T) {
	line := `{"doc_id": 0, "doc": {"q": "x", "score": NaN, "hi": Infinity, "lo": -Infinity, "s": "NaN"}, "target": "a", "arguments": {"gen_args_0": {"arg_0": "q", "arg_1": {}}}, "resps": [["a"]], "filtered_resps": ["a"], "filter": "none", "metrics": ["exact_match"], "exact_match": 1.0}`
	path := filepath.Join(t.TempDir(), "samples_t_"+lmDate+".jsonl")
	if err := os.WriteFile(path, []byte(line+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runs, _, err := importer.LoadRuns(path, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	direct, _ := directRuns(t, path, nil)
	for how, rs := range map[string][]*eval.Result{"imported": runs[0].Results, "read directly": direct[0]} {
		if len(rs) != 1 || rs[0].ID != "t:0" || rs[0].Scores["exact_match"] != 1.0 || rs[0].Output != "a" {
			t.Errorf("%s: %+v; want t:0 with exact_match 1", how, rs)
		}
	}
}
