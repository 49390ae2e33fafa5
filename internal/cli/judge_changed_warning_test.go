package cli_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/cli"
)

// A changed judge moves the rubric hash (the judge is part of the rubric): with the
// scoring version left as it was, the report gives one warning, the changed judge's,
// which says what changed and the version to write, not a second "the scoring changed
// but its version did not" beside it. A rubric change with the judge as it was still
// gets that warning on its own; a changed judge with the version bumped, no advice.
func TestChangedJudgeIsOneWarning(t *testing.T) {
	srv := scoringJudge(t, func(_ string, truth, _ int, _ string) int { return truth })
	env := judgeEnv(srv)
	cfg := judgedProject(t, "judge-a")
	dir := filepath.Dir(cfg)
	if code, _, stderr := runWithEnv(t, env, "baseline", "--config", cfg, "--no-judge-check"); code != cli.ExitPass {
		t.Fatalf("baseline: exit %d\n%s", code, stderr)
	}
	write(t, filepath.Join(dir, "pr.jsonl"), judgedRun("pull request answer", func(i int) int { return 1 + i%2 }))
	notices := func() []string {
		t.Helper()
		code, stdout, stderr := runWithEnv(t, env, "check", "--config", cfg, "--results", filepath.Join(dir, "pr.jsonl"), "--format", "json")
		var r struct{ Notices []string }
		if err := json.Unmarshal([]byte(stdout), &r); err != nil {
			t.Fatalf("check: exit %d: %v\n%s", code, err, stderr)
		}
		return r.Notices
	}
	with := func(ns []string, sub string) (out []string) {
		for _, n := range ns {
			if strings.Contains(n, sub) {
				out = append(out, n)
			}
		}
		return out
	}
	const unbumped = "the scoring changed but its version did not"

	setModel(t, dir, "judge-b")
	ns := notices()
	judge := with(ns, "changed judge")
	if len(judge) != 1 || len(with(ns, unbumped)) != 0 {
		t.Fatalf("notices %q; want one changed-judge warning and no separate scoring warning", ns)
	}
	for _, want := range []string{`judge "default": model judge-a → judge-b`, "re-judged by the new judge",
		"whose version did not change (still scoringSystem/1.0.0; rubric sha256 ",
		"when the change is meant, write `version: scoringSystem/1.1.0` under `scoring:`"} {
		if !strings.Contains(judge[0], want) {
			t.Errorf("changed-judge warning lacks %q:\n%s", want, judge[0])
		}
	}

	// The version bumped: the judge's change alone, nothing to do.
	write(t, cfg, strings.Replace(readFile(t, cfg), "scoringSystem/1.0.0", "scoringSystem/1.1.0", 1))
	ns = notices()
	if judge := with(ns, "changed judge"); len(judge) != 1 || strings.Contains(judge[0], "write `version:") || len(with(ns, unbumped)) != 0 {
		t.Errorf("version bumped: notices %q; want the changed judge without advice", ns)
	}

	// The judge as the baseline's, another word budget: the scoring warning alone.
	setModel(t, dir, "judge-a")
	write(t, cfg, strings.Replace(readFile(t, cfg), "max_words: 50", "max_words: 40", 1))
	ns = notices()
	if len(with(ns, "changed judge")) != 0 || len(with(ns, unbumped)) != 1 {
		t.Errorf("rubric changed, judge not: notices %q; want the scoring warning alone", ns)
	}
}
