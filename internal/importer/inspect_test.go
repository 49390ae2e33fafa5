package importer_test

import (
	"archive/zip"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/importer"
)

func inspectFile(name string) string { return filepath.Join("testdata", "inspect", name) }

// The same log as .json and as a .eval archive gives the same runs.
func TestInspectEpochsBecomeRuns(t *testing.T) {
	for _, name := range []string{"epochs.json", "epochs.eval"} {
		t.Run(name, func(t *testing.T) {
			if f, err := importer.Detect(inspectFile(name)); err != nil || f != importer.Inspect {
				t.Fatalf("Detect = %q, %v", f, err)
			}
			runs, meta, err := importer.LoadRuns(inspectFile(name), importer.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(runs) != 2 {
				t.Fatalf("%d runs; want 2 (epochs: 2)", len(runs))
			}
			for i, r := range runs {
				if len(r.Results) != 3 {
					t.Errorf("epoch %d: %d results; want 3", i+1, len(r.Results))
				}
			}
			q1, _ := runs[0].Result("q1")
			// C = 1; the dict score {accuracy: 0.9, concise: true, grade: "C"} gives three
			// dimensions; true = 1, "C" = 1.
			want := map[string]any{"model_graded_fact": 1.0, "quality_accuracy": 0.9, "quality_concise": 1.0, "quality_grade": 1.0}
			if diff := cmp.Diff(want, q1.Scores); diff != "" {
				t.Errorf("q1 epoch 1 scores (-want +got):\n%s", diff)
			}
			if q1.Output != "Eavesdropping and tampering." || *q1.LatencyE2EMs != 1250 || *q1.InputTokens != 20 || *q1.OutputTokens != 8 {
				t.Errorf("q1: output %q latency %v tokens %v/%v", q1.Output, *q1.LatencyE2EMs, *q1.InputTokens, *q1.OutputTokens)
			}
			// P = 0.5 in epoch 1, I = 0 in epoch 2; the tokens are the evaluated model's
			// (gpt-4o-mini: 30 in, 10 out), the grader gpt-4o's 100/5 are left out with a
			// warning; the output's content is a list of parts.
			q2a, _ := runs[0].Result("q2")
			q2b, _ := runs[1].Result("q2")
			if q2a.Scores["model_graded_fact"] != 0.5 || q2b.Scores["model_graded_fact"] != 0.0 {
				t.Errorf("q2 grades %v, %v; want 0.5 (P), 0 (I)", q2a.Scores["model_graded_fact"], q2b.Scores["model_graded_fact"])
			}
			if *q2a.InputTokens != 30 || *q2a.OutputTokens != 10 || q2a.Model != "openai/gpt-4o-mini" || q2a.Output != "Use a slow hash such as bcrypt." {
				t.Errorf("q2: tokens %v/%v output %q", *q2a.InputTokens, *q2a.OutputTokens, q2a.Output)
			}
			if got := q2a.Fields["prompt"]; got != "system: You are a security tutor.\n\nuser: Name one way to store passwords." {
				t.Errorf("q2 prompt %q", got)
			}
			if diff := cmp.Diff([]any{"bcrypt", "argon2", "scrypt"}, q2a.Fields["expected"]); diff != "" {
				t.Errorf("q2 expected: %s", diff)
			}
			// A numeric id; the sample's error makes it a failed result; N = 0.
			s3, ok := runs[0].Result("3")
			if !ok || s3.Error != "RateLimitError: 429 Too Many Requests" || !s3.Failed() || s3.Scores["model_graded_fact"] != 0.0 {
				t.Errorf("sample 3 epoch 1: %+v", s3)
			}
			if meta.Metadata["model_id"] != "openai/gpt-4o-mini" || meta.Metadata["prompt_template_id"] != "security_qa" || meta.Metadata["inspect_version"] != "0.3.95" || meta.Incomplete {
				t.Errorf("meta %+v", meta)
			}
		})
	}
}

func TestInspectLogWithoutHeader(t *testing.T) {
	// Still being written: _journal/start.json and some samples, no header.json yet.
	recs, meta, warns := readAll(t, inspectFile("unfinished.eval"), importer.Options{})
	if len(recs) != 3 || !meta.Incomplete || meta.Metadata["model_id"] != "openai/gpt-4o-mini" {
		t.Errorf("%d records, meta %+v", len(recs), meta)
	}
	if len(warns) != 2 || !strings.Contains(warns[0], "incomplete") || !strings.Contains(warns[1], "openai/gpt-4o in model_usage are left out") {
		t.Errorf("warnings %q", warns)
	}
	// Not even the start journal: the samples alone.
	recs, meta, warns = readAll(t, inspectFile("bare.eval"), importer.Options{})
	if len(recs) != 2 || !meta.Incomplete || len(warns) != 2 || !strings.Contains(warns[0], "no header") || !strings.Contains(warns[1], "summed over the models in its model_usage (openai/gpt-4o, openai/gpt-4o-mini)") {
		t.Errorf("%d records, meta %+v, warnings %q", len(recs), meta, warns)
	}
}

// writeEval writes a .eval archive of name → JSON text.
func writeEval(t *testing.T, files ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "log.eval")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for i := 0; i+1 < len(files); i += 2 {
		w, err := zw.Create(files[i])
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(files[i+1]))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return path
}

func TestInspectBadInput(t *testing.T) {
	ok := `{"id": "a", "epoch": 1, "input": "q", "target": "t", "output": {"completion": "x"}, "scores": {"match": {"value": "C"}}}`
	for _, tt := range []struct{ name, sample, want string }{
		{"no id", `{"epoch": 1, "output": {"completion": "x"}}`, `samples/a_epoch_1.json: sample has no "id"`},
		{"epoch zero", strings.Replace(ok, `"epoch": 1`, `"epoch": 0`, 1), `item "a": samples/a_epoch_1.json: field "epoch" is a number; want a whole number ≥ 1`},
		{"unknown grade", strings.Replace(ok, `"C"`, `"maybe"`, 1), `item "a": samples/a_epoch_1.json: scores.match.value is the string "maybe"; want C, P, I, N`},
		{"score without value", strings.Replace(ok, `{"value": "C"}`, `{"answer": "x"}`, 1), `scores.match has no "value"`},
		{"no output no error", `{"id": "a", "epoch": 1, "input": "q"}`, `sample has no "output" and no "error"`},
		{"input a number", strings.Replace(ok, `"input": "q"`, `"input": 7`, 1), `input: is a number; want a string or a list of chat messages`},
		{"truncated", ok[:40], `the JSON ends early`},
		{"target an object", strings.Replace(ok, `"target": "t"`, `"target": {}`, 1), `field "target" is an object; want a string or a list of strings`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := writeEval(t, "header.json", `{"version": 2, "status": "success", "eval": {"task": "t", "model": "m"}}`, "samples/a_epoch_1.json", tt.sample)
			_, _, err := importer.LoadRuns(path, importer.Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), path) {
				t.Errorf("error %v; want %s", err, tt.want)
			}
		})
	}
	// A sample id twice in one epoch is a duplicate result.
	path := writeEval(t, "samples/a_epoch_1.json", ok, "samples/a_epoch_1b.json", ok)
	if _, _, err := importer.LoadRuns(path, importer.Options{}); err == nil || !strings.Contains(err.Error(), "duplicate result") {
		t.Errorf("duplicate: %v", err)
	}
	// Unknown fields are ignored; the transcript is skipped.
	path = writeEval(t, "samples/a_epoch_1.json", strings.Replace(ok, `"id"`, `"future_field": {"x": [1, 2]}, "events": [{"event": "model"}], "id"`, 1))
	if _, _, err := importer.LoadRuns(path, importer.Options{}); err != nil {
		t.Errorf("unknown fields: %v", err)
	}
}

// A requeued sample: Inspect appends its fresh record to the archive under the same
// member name and reads the last entry, so evalgate reads that one, once (read directly
// and through LoadRuns), not a duplicate result.
func TestInspectRequeuedSampleLastEntryWins(t *testing.T) {
	sample := func(id, grade string) string {
		return `{"id": "` + id + `", "epoch": 1, "input": "q", "target": "t", "output": {"completion": "x"}, "scores": {"match": {"value": "` + grade + `"}}}`
	}
	path := writeEval(t, "header.json", `{"version": 2, "status": "success", "eval": {"task": "t", "model": "m"}}`,
		"samples/a_epoch_1.json", sample("a", "I"), "samples/b_epoch_1.json", sample("b", "C"),
		"samples/a_epoch_1.json", sample("a", "C"))
	runs, _, err := importer.LoadRuns(path, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || len(runs[0].Results) != 2 || runs[0].Results[0].ID != "a" || runs[0].Results[0].Scores["match"] != 1.0 {
		t.Fatalf("runs %+v; want one run: a (the fresh record, C = 1), b", runs)
	}
	direct, _ := directRuns(t, path, nil)
	if len(direct) != 1 || len(direct[0]) != 2 || direct[0][0].ID != "a" || direct[0][0].Scores["match"] != 1.0 {
		t.Errorf("read directly: %+v; want a (C = 1), b", direct)
	}
}

// An archive's samples are decoded through one buffer, not one each: 2,000 small samples
// allocate far less than 2,000 × 64 KiB (a million-sample .eval allocated 64 GB that way),
// and a long sample before short ones leaves nothing of itself in theirs.
func TestInspectEvalSamplesShareOneBuffer(t *testing.T) {
	files := []string{"header.json", `{"version": 2, "status": "success", "eval": {"task": "t", "model": "m"}}`}
	long := strings.Repeat("x", 200<<10)
	for i := range 2000 {
		out := fmt.Sprintf("out %d", i)
		if i == 0 {
			out = long
		}
		files = append(files, fmt.Sprintf("samples/s%d_epoch_1.json", i),
			fmt.Sprintf(`{"id": "s%d", "epoch": 1, "input": "q", "target": "t", "output": {"completion": %q}, "scores": {"match": {"value": "C"}}}`, i, out))
	}
	path := writeEval(t, files...)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	runs, _, err := importer.LoadRuns(path, importer.Options{})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 64<<20 {
		t.Errorf("reading 2,000 samples allocated %d MiB; want well under 2,000 × 64 KiB (125 MiB)", got>>20)
	}
	for i, r := range runs[0].Results {
		want := fmt.Sprintf("out %d", i)
		if i == 0 {
			want = long
		}
		if r.Output != want {
			t.Fatalf("sample %d: output %.40q; want %.40q", i, r.Output, want)
		}
	}
}

// Inspect writes its logs with pydantic, which writes a non-finite float as the bare NaN,
// Infinity or -Infinity Python's json module reads (Inspect's own reader falls back to
// it for them): a metric over no samples, a score made with Score.unscored(), a NaN in
// the transcript. Such a log is read, not refused as malformed JSON; a NaN score is an
// unscored one, recorded as null (a scorer that could not score).
func TestInspectNonFiniteNumbers(t *testing.T) {
	header := `{"version": 2, "status": "success", "eval": {"task": "t", "model": "m"},
		"results": {"scores": [{"name": "match", "metrics": {"accuracy": {"name": "accuracy", "value": NaN}, "stderr": {"value": Infinity}}}]}}`
	a := `{"id": "a", "epoch": 1, "input": "q", "target": "t", "output": {"completion": "x"}, "events": [{"event": "info", "data": {"x": -Infinity, "s": "NaN Infinity"}}],
		"scores": {"match": {"value": "C"}, "judge": {"value": NaN}}}`
	b := `{"id": "b", "epoch": 1, "input": "q", "target": "t", "output": {"completion": "x"}, "scores": {"match": {"value": "I"}, "judge": {"value": 0.5}}}`
	for _, path := range inspectLogs(t, header, a, b) {
		for how, rs := range readBothWays(t, path) {
			if len(rs) != 2 || rs[0].ID != "a" || rs[0].Scores["match"] != 1.0 || rs[0].Scores["judge"] != nil ||
				rs[1].Scores["judge"] != 0.5 || rs[0].Output != "x" {
				t.Errorf("%s, %s: %+v; want a (match 1, judge null), b (judge 0.5)", filepath.Base(path), how, rs)
			}
			if v, ok := rs[0].Scores["judge"]; !ok {
				t.Errorf("%s, %s: a's judge score is left out (%v); want it recorded as null", filepath.Base(path), how, v)
			}
		}
	}
}

// Inspect's sample limits (messages, tokens, time, ...) are not errors: the sample stops
// early and is still scored, and the log's metrics count that score ("Sample limits
// don't result in errors", Inspect's Setting Limits page). A scored sample that hit a
// limit is read as Inspect scored it; one that hit a limit and was not scored is a failed
// sample, as before: an error, or timed out for a time limit.
func TestInspectLimitIsNotAnError(t *testing.T) {
	sample := func(id, limit, scores string) string {
		return `{"id": "` + id + `", "epoch": 1, "input": "q", "target": "t", "output": {"completion": "x"}, "limit": {"type": "` + limit + `", "limit": 10}` + scores + `}`
	}
	scored := `, "scores": {"match": {"value": "C"}}`
	path := writeEval(t, "header.json", `{"version": 2, "status": "success", "eval": {"task": "t", "model": "m"}}`,
		"samples/a_epoch_1.json", sample("a", "message", scored), "samples/b_epoch_1.json", sample("b", "time", scored),
		"samples/c_epoch_1.json", sample("c", "token", ""), "samples/d_epoch_1.json", sample("d", "time", ""))
	runs, _, err := importer.LoadRuns(path, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	direct, _ := directRuns(t, path, nil)
	for how, rs := range map[string][]*eval.Result{"imported": runs[0].Results, "read directly": direct[0]} {
		if len(rs) != 4 {
			t.Fatalf("%s: %d results; want 4", how, len(rs))
		}
		for _, r := range rs[:2] {
			if r.Error != "" || r.TimedOut || r.Scores["match"] != 1.0 {
				t.Errorf("%s: %s error %q, timed out %v, match %v; want scored C = 1, not failed", how, r.ID, r.Error, r.TimedOut, r.Scores["match"])
			}
		}
		if rs[2].Error != "limit reached: token" || !rs[3].TimedOut {
			t.Errorf("%s: unscored c error %q, d timed out %v; want a failed sample each", how, rs[2].Error, rs[3].TimedOut)
		}
	}
}

// Inspect reduces a sample's epochs with the task's reducer before its metrics: with
// "max" (or "mode", "pass_at_2", ...) the log's accuracy is not the mean over epochs that
// evalgate's runs give. Nothing is changed, but a warning names the reducer, so the
// difference from the log's own figure is not a silent one. The default, "mean", says
// nothing.
func TestInspectNonMeanReducerWarned(t *testing.T) {
	sample := func(epoch, grade string) string {
		return `{"id": "a", "epoch": ` + epoch + `, "input": "q", "target": "t", "output": {"completion": "x"}, "scores": {"match": {"value": "` + grade + `"}}}`
	}
	for _, tc := range []struct{ config, want string }{
		{`{"epochs": 2, "epochs_reducer": ["max"]}`, `reduces each sample's 2 epochs with max`},
		{`{"epochs": 2, "epochs_reducer": ["mean", "pass_at_2"]}`, `with mean, pass_at_2`},
		{`{"epochs": 2, "epochs_reducer": ["mean"]}`, ``},
		{`{"epochs": 2}`, ``},
		{`{"epochs_reducer": ["max"]}`, ``}, // one epoch: nothing to reduce
	} {
		path := writeEval(t, "header.json", `{"version": 2, "status": "success", "eval": {"task": "t", "model": "m", "config": `+tc.config+`}}`,
			"samples/a_epoch_1.json", sample("1", "C"), "samples/a_epoch_2.json", sample("2", "I"))
		_, _, warns := readAll(t, path, importer.Options{})
		got := strings.Join(warns, "\n")
		if tc.want == "" && strings.Contains(got, "reduces") || tc.want != "" && (!strings.Contains(got, tc.want) || !strings.Contains(got, "mean over its epochs")) {
			t.Errorf("config %s: warnings %q; want %q", tc.config, warns, tc.want)
		}
	}
}

// Inspect logs written before it scored with several scorers (version 1 logs, 2024) hold
// each sample's one result as `score`, and the log's scorer under results.scorer; Inspect
// reads such a sample's score as scores[<the log's scorer>] (EvalSample.migrate_deprecated
// and the scorer placeholder it replaces). So does evalgate: the scores are not lost.
func TestInspectLegacySampleScore(t *testing.T) {
	v1 := `{"version": 1, "status": "success", "eval": {"task": "t", "model": "m"},
		"results": {"scorer": {"name": "model_graded_fact", "params": {}}, "metrics": {"accuracy": {"name": "accuracy", "value": 0.5}}},
		"samples": [
			{"id": 1, "epoch": 1, "input": "q1", "target": "a", "output": {"choices": [{"message": {"role": "assistant", "content": "a"}}]}, "score": {"value": "C", "answer": "a"}},
			{"id": 2, "epoch": 1, "input": "q2", "target": "b", "output": {"choices": [{"message": {"role": "assistant", "content": "x"}}]}, "score": {"value": "I"}}]}`
	jsonPath := filepath.Join(t.TempDir(), "v1.json")
	os.WriteFile(jsonPath, []byte(v1), 0o644)
	sample := func(id, grade string) string {
		return `{"id": ` + id + `, "epoch": 1, "input": "q", "target": "t", "output": {"completion": "x"}, "score": {"value": "` + grade + `"}}`
	}
	zipPath := writeEval(t, "header.json", `{"version": 2, "status": "success", "eval": {"task": "t", "model": "m"}, "results": {"scores": [{"name": "includes", "scorer": "includes"}]}}`,
		"samples/1_epoch_1.json", sample("1", "C"), "samples/2_epoch_1.json", sample("2", "I"))
	bare := writeEval(t, "samples/1_epoch_1.json", sample("1", "C"), "samples/2_epoch_1.json", sample("2", "I"))
	for path, name := range map[string]string{jsonPath: "model_graded_fact", zipPath: "includes", bare: "score"} {
		runs, meta, err := importer.LoadRuns(path, importer.Options{})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		direct, _ := directRuns(t, path, nil)
		for how, rs := range map[string][]*eval.Result{"imported": runs[0].Results, "read directly": direct[0]} {
			if len(rs) != 2 || rs[0].Scores[name] != 1.0 || rs[1].Scores[name] != 0.0 {
				t.Errorf("%s, %s: %+v; want %s 1 and 0", filepath.Base(path), how, rs, name)
			}
		}
		if len(meta.Dimensions) != 1 || meta.Dimensions[0].Key != name {
			t.Errorf("%s: dimensions %+v; want %s", filepath.Base(path), meta.Dimensions, name)
		}
	}
}
