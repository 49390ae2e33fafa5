package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pfReasonCheck gates promptfoo 0.123.1's own export (the importer's fixture: "wrong
// capital" fails its correctness assertion, `contains "Madrid"`) against a baseline made
// from the same export with that test passing, and returns the markdown comment. reason,
// when set, replaces promptfoo's reason for the failed assertion.
func pfReasonCheck(t *testing.T, reason string) string {
	t.Helper()
	return pfEditedCheck(t, reason, nil)
}

// pfEditedCheck is pfReasonCheck with edit (when set) changing the "wrong capital"
// record on both sides first.
func pfEditedCheck(t *testing.T, reason string, edit func(rec map[string]any)) string {
	t.Helper()
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("..", "importer", "testdata", "promptfoo", "results-0.123.1.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var base, pr []string
	for _, line := range strings.Split(strings.TrimSpace(string(src)), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		if rec["testCase"].(map[string]any)["description"] != "wrong capital" {
			base, pr = append(base, line), append(pr, line)
			continue
		}
		if edit != nil {
			edit(rec)
		}
		gr := rec["gradingResult"].(map[string]any)
		comps := gr["componentResults"].([]any)
		if reason != "" {
			comps[1].(map[string]any)["reason"] = reason
			gr["reason"] = reason
		}
		b, _ := json.Marshal(rec)
		pr = append(pr, string(b))
		// The baseline's answer passes: correctness 1, the test a success.
		comps[1].(map[string]any)["pass"], comps[1].(map[string]any)["score"] = true, 1.0
		comps[1].(map[string]any)["reason"], gr["reason"] = "Assertion passed", "All assertions passed"
		rec["namedScores"].(map[string]any)["correctness"] = 1.0
		rec["success"], rec["score"] = true, 1.0
		b, _ = json.Marshal(rec)
		base = append(base, string(b))
	}
	write := func(name, body string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cfg := write("evalgate.yaml", `name: pf
baseline: base.jsonl
scoring:
  version: scoringSystem/1.0.0
  dimensions:
    - {name: correctness, weight: 1, scorer: recorded, scale: unit}
grading:
  version: gradingSystem/1.0.0
`)
	basePath := write("base-results.jsonl", strings.Join(base, "\n")+"\n")
	prPath := write("pr-results.jsonl", strings.Join(pr, "\n")+"\n")
	if code, _, stderr := runMain(t, dir, []string{"evalgate", "baseline", "--config", cfg, "--out", filepath.Join(dir, "base.jsonl"), "--results", basePath}); code != 0 {
		t.Fatalf("baseline: exit %d: %s", code, stderr)
	}
	code, md, stderr := runMain(t, dir, []string{"evalgate", "check", "--config", cfg, "--format", "markdown", "--results", prPath})
	if code != 0 && code != 1 {
		t.Fatalf("check: exit %d: %s", code, stderr)
	}
	return md
}

// The newly failing item's Why is promptfoo's own reason for the failed assertion, after
// the dimension it took to 0.
func TestPromptfooReasonInWhy(t *testing.T) {
	md := pfReasonCheck(t, "")
	if row := newlyFailingRow(md); !strings.HasSuffix(row, `| correctness: Expected output to contain "Madrid" |`) {
		t.Errorf("newly failing row %q; want promptfoo's reason in Why\n%s", row, md)
	}
}

// newlyFailingRow is the first row of the comment's newly failing table.
func newlyFailingRow(md string) string {
	_, table, _ := strings.Cut(md, "Newly failing items")
	lines := strings.Split(table, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "|--") && i+1 < len(lines) {
			return lines[i+1]
		}
	}
	return ""
}

// promptfoo's reason is another tool's text about untrusted output: in the comment it is
// escaped like any output (no HTML, emphasis, code span, link, table break or bidi
// reordering gets through) and cut to 300 runes.
func TestPromptfooReasonEscaped(t *testing.T) {
	reason := "<img src=x onerror=alert(1)> **bold** `code` [link](https://x.test) | pipe @team \u202eevil\nnext line"
	row := newlyFailingRow(pfReasonCheck(t, reason))
	want := "| correctness: &lt;img src=x onerror=alert(1)&gt; \\*\\*bold\\*\\* \\`code\\` \\[link\\](https://x.test) \\| pipe &#64;team U+202Eevil… |" // the comment shows a reason's first line
	if !strings.HasSuffix(row, want) {
		t.Errorf("newly failing row\n%s\nwant it to end\n%s", row, want)
	}
	// 400 "é" cut by the importer to 292 and " … (cut)": 300 runes, within the table's
	// Why width (the comment may cut further; what it shows ends in an ellipsis either way).
	row = newlyFailingRow(pfReasonCheck(t, strings.Repeat("é", 400)))
	if strings.Count(row, "é") > 292 || !strings.Contains(row, "correctness: éé") || !strings.Contains(row, "…") {
		t.Errorf("long reason: row %q; want at most 292 é, then an ellipsis", row)
	}
}
