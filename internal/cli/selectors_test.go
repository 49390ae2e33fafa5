package cli

import (
	"errors"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/importer"
	"github.com/evalgate/evalgate/internal/settle"
)

// A promptfoo test without a description cannot be selected for a re-run; the error
// names it by where it is in the results file and its vars, not only by its hash.
func TestSelectorsNameATestWithoutDescription(t *testing.T) {
	descs := func(id string) (string, string) {
		if id == "refund" {
			return "refund window", ""
		}
		return "", testHint("out/results.json", importer.Record{Where: "results[3]", Fields: map[string]any{"vars": map[string]any{"question": "What is\nit?"}}})
	}
	_, err := selectors(importer.Promptfoo, descs, []string{"refund", "vars-1f5b3b015d5b"})
	want := `promptfoo cannot select "vars-1f5b3b015d5b" (results.json results[3], vars: question="What is\nit?")`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v; want %s", err, want)
	}
	// The error stops settling without failing the check: the verdict stands.
	var cannot *settle.CannotRerun
	if !errors.As(err, &cannot) {
		t.Errorf("error %T; want a *settle.CannotRerun", err)
	}
	sel, err := selectors(importer.Promptfoo, descs, []string{"refund"})
	if err != nil || len(sel) != 1 || sel[0] != "refund window" {
		t.Errorf("selectors = %v, %v; want [refund window]", sel, err)
	}
}
