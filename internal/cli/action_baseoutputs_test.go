package cli_test

import (
	"bytes"
	"compress/gzip"
	"path/filepath"
	"strings"
	"testing"
)

// TestBaseBaselineRecordedOutputs: the base commit's baseline keeps its recorded
// outputs in a file of their own (outputs_file, as `evalgate baseline` writes them over
// 1 MB). A pull request that changes the scoring proposes a gate that re-scores the
// baseline from those outputs: they are read as of the base commit beside it, and the
// proposed gate is scored (not "scoring it failed: recorded outputs … no such file").
func TestBaseBaselineRecordedOutputs(t *testing.T) {
	t.Parallel()
	const outputsName = "tutor-capstone.outputs.jsonl.gz"
	files := baseFiles(t)
	// The baseline's recorded outputs (its {"run":…,"record":…} lines) moved into
	// outputs_file.
	var head, outs []string
	for _, l := range strings.SplitAfter(files[tutorBaseline], "\n") {
		if strings.HasPrefix(l, `{"run":`) {
			outs = append(outs, l)
		} else if l != "" {
			head = append(head, l)
		}
	}
	if len(outs) == 0 || !strings.HasPrefix(head[0], `{"schema_version":2,`) {
		t.Fatalf("%s: want a version 2 baseline with recorded outputs", tutorBaseline)
	}
	head[0] = strings.Replace(head[0], `{"schema_version":2,`, `{"schema_version":2,"outputs_file":"`+outputsName+`",`, 1)
	files[tutorBaseline] = strings.Join(head, "")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write([]byte(strings.Join(outs, "")))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	files["baselines/"+outputsName] = gz.String()

	f := newFakeGitHub(t, fakeRepo{baseFiles: files, changed: []string{"evalgate.yaml"}})
	spec := prSpec("pull_request.synchronize", "pr.jsonl", nil)
	spec.setup = func(t *testing.T, ws string) {
		// Two weights moved: the rubric's hash differs from the baseline's, so the
		// proposed gate re-scores the baseline's recorded outputs.
		editFile(t, filepath.Join(ws, "evalgate.yaml"), "{name: correctness, weight: 0.60,", "{name: correctness, weight: 0.59,",
			"{name: conciseness, weight: 0.05,", "{name: conciseness, weight: 0.06,")
	}
	run := runAction(t, "", f, spec)
	wantExit(t, run, 0)
	proposed, _ := readReport(t, run)["proposed_gate"].(map[string]any)
	if proposed == nil || proposed["scored"] != true {
		t.Errorf("the proposed gate was not scored: %v", proposed)
	}
}
