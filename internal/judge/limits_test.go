package judge_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/judge"
)

// TestTemplateYAMLLimits: a template's front matter is YAML within the same limits as
// every other YAML input: an alias bomb or deep nesting is refused with file and line.
func TestTemplateYAMLLimits(t *testing.T) {
	t.Parallel()
	var bomb strings.Builder
	bomb.WriteString("---\nkeys: [{name: a, min: 0, max: 1}]\nx0: &x0 [lol]\n")
	for i := 1; i <= 10; i++ {
		fmt.Fprintf(&bomb, "x%d: &x%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*x%d, ", i-1), 10), ", "))
	}
	bomb.WriteString("---\n{{candidate_answer}}\n")
	deep := "---\nkeys: [{name: a, min: 0, max: 1}]\nx: " + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + "\n---\n{{candidate_answer}}\n"
	dir := t.TempDir()
	for _, tc := range []struct{ name, body, want string }{
		// x4 (21111 nodes) is first used on line 8 of the file, inside x5.
		{"bomb.txt", bomb.String(), "bomb.txt:8:"},
		{"deep.txt", deep, "deep.txt:3:"},
	} {
		p := filepath.Join(dir, tc.name)
		if err := os.WriteFile(p, []byte(tc.body), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := judge.LoadTemplate(p)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v; want it to contain %q", tc.name, err, tc.want)
		}
	}
}

// TestParseVerdictDepth: a reply nested past the limit is a parse error, not a decode
// of a million levels.
func TestParseVerdictDepth(t *testing.T) {
	t.Parallel()
	tm, err := judge.LoadTemplate(judge.TemplateAccuracyFaithfulness)
	if err != nil {
		t.Fatal(err)
	}
	reply := `{"accuracy_score": 2, "faithfulness_score": 2, "rationale": "ok", "x": ` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}`
	_, err = judge.ParseVerdict(tm, reply)
	if err == nil || !strings.Contains(err.Error(), "nested more than 1000 levels") {
		t.Errorf("err = %v; want a depth parse error", err)
	}
}
