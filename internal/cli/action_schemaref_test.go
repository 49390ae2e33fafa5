package cli_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestBaseGateSchemaRef: a JSON Schema of the base commit's gate that $refs another file
// is read with that file from the base commit; a pull request that edits only the
// $ref'd file shows a proposed gate.
func TestBaseGateSchemaRef(t *testing.T) {
	t.Parallel()
	const schema, defs = "examples/tutor-capstone/schema.json", "examples/tutor-capstone/defs.json"
	files := baseFiles(t)
	files[defs] = files[schema]
	files[schema] = `{"$ref": "defs.json"}`
	for _, edit := range []bool{false, true} {
		f := newFakeGitHub(t, fakeRepo{baseFiles: files, changed: []string{defs}})
		spec := prSpec("pull_request.synchronize", "pr.jsonl", nil)
		spec.setup = func(t *testing.T, ws string) {
			e2eWrite(t, filepath.Join(ws, schema), files[schema])
			d := files[defs]
			if edit {
				d = "{}"
			}
			e2eWrite(t, filepath.Join(ws, defs), d)
		}
		run := runAction(t, "", f, spec)
		wantExit(t, run, 0)
		comment := onlyComment(t, f)
		if got := strings.Contains(comment, "Proposed gate"); got != edit {
			t.Errorf("edit=%v: the comment shows a proposed gate: %v\n%s", edit, got, comment)
		}
	}
}
