package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/cli"
)

// calibrationLabels is a calibration set of six outputs of the judged project's items.
// The fake judge gives each output the score it announces: 2, 2, 1, 1, 0, 0; the
// people said 2, 2, 1, 2, 0, 1. Krippendorff's interval α, by hand (each unit holds the
// judge's and the person's value, m = 2, so each ordered pair adds 1 to the coincidence
// matrix): o_22 = 4, o_11 = 2, o_00 = 2, o_12 = o_21 = 1, o_01 = o_10 = 1; n = 12,
// n_0 = 3, n_1 = 4, n_2 = 5. D_o = 4/12; D_e = 2·(3·4·1 + 3·5·4 + 4·5·1)/(12·11) =
// 184/132; α = 1 − (4/12)/(184/132) = 35/46 = 0.761.
const calibrationLabels = `- {name: o1, item: q00, output: "calibration answer, true score 2", labels: {accuracy: 2}}
- {name: o2, item: q01, output: "calibration answer, true score 2", labels: {accuracy: 2}}
- {name: o3, item: q02, output: "calibration answer, true score 1", labels: {accuracy: 1}}
- {name: o4, item: q03, output: "calibration answer, true score 1", labels: {accuracy: 2}}
- {name: o5, item: q04, output: "calibration answer, true score 0", labels: {accuracy: 0}}
- {name: o6, item: q05, output: "calibration answer, true score 0", labels: {accuracy: 1}}
`

// withCalibration writes the judged project's config (judge-a) with a calibration
// block.
func withCalibration(t *testing.T, cfg, minAlpha, labels string) {
	t.Helper()
	setModel(t, filepath.Dir(cfg), "judge-a")
	b, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	write(t, cfg, string(b)+"calibration:\n  min_alpha: "+minAlpha+"\n  outputs: labels.yaml\n")
	write(t, filepath.Join(filepath.Dir(cfg), "labels.yaml"), labels)
}

// validate judges the calibration set and fails (exit 1) when the judge's agreement
// with people is under min_alpha; it passes when it meets it; a bad label is bad input
// (exit 2) naming the file, the line and the item. The set is judged once: the second
// validate answers from the cache.
func TestValidateChecksTheJudgesAgreementWithPeople(t *testing.T) {
	srv := scoringJudge(t, func(_ string, truth, _ int, _ string) int { return truth })
	env := judgeEnv(srv)
	cfg := judgedProject(t, "judge-a")
	withCalibration(t, cfg, "0.8", calibrationLabels)

	code, stdout, stderr := runWithEnv(t, env, "validate", "--config", cfg)
	if code != cli.ExitGateFailed {
		t.Fatalf("validate with α 0.761 under min_alpha 0.8: exit %d; want 1\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, `calibration: dimension "accuracy": the judge agrees with people at α 0.761 over 6 output(s), under calibration.min_alpha 0.8`) {
		t.Errorf("stderr does not say which dimension is under and by how much:\n%s", stderr)
	}
	// The confusion table: rows what people said, columns the judge.
	for _, want := range []string{
		"judge vs people · accuracy (default): α 0.761 (interval) over 6 labelled output(s), 6 label(s); exact agreement 66.7%; judge − people -0.33 points; under calibration.min_alpha 0.8",
		"  people ↓ judge →  0  1  2\n  0                 1  0  0\n  1                 1  1  0\n  2                 0  1  2\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("validate's output lacks %q:\n%s", want, stdout)
		}
	}
	if srv.Calls() != 6 {
		t.Errorf("validate made %d judge calls; want 6 (one per labelled output)", srv.Calls())
	}

	withCalibration(t, cfg, "0.7", calibrationLabels)
	code, stdout, stderr = runWithEnv(t, env, "validate", "--config", cfg)
	if code != cli.ExitPass || !strings.Contains(stdout, "meets calibration.min_alpha 0.7") {
		t.Errorf("validate with α 0.761 over min_alpha 0.7: exit %d; want 0 and the line saying so\n%s\n%s", code, stdout, stderr)
	}
	if srv.Calls() != 6 {
		t.Errorf("a second validate made %d more calls; want 0 (the verdicts are cached)", srv.Calls()-6)
	}
	// validate judges the set, so it shows the judge's progress on stderr ("judge: ...")
	// like every command that calls a judge, and --quiet (-q) turns it off there too.
	if !strings.Contains(stderr, "judge:") {
		t.Errorf("validate showed no judge progress on stderr: %q", stderr)
	}
	for _, flag := range []string{"--quiet", "-q"} {
		code, stdout, stderr := runWithEnv(t, env, "validate", flag, "--config", cfg)
		if code != cli.ExitPass || strings.Contains(stderr, "judge:") || !strings.Contains(stdout, "meets calibration.min_alpha 0.7") {
			t.Errorf("validate %s: exit %d, stderr %q; want 0, the calibration line, and no progress\n%s", flag, code, stderr, stdout)
		}
	}

	bad := strings.Replace(calibrationLabels, "labels: {accuracy: 0}}", "labels: {accuracy: 3}}", 1)
	withCalibration(t, cfg, "0.7", bad)
	code, _, stderr = runWithEnv(t, env, "validate", "--config", cfg)
	want := `labels.yaml:5: item "q04": calibration output "o5": labels.accuracy: 3 is not on the 0-2 scale`
	if code != cli.ExitBadInput || !strings.Contains(stderr, want) {
		t.Errorf("a label off the scale: exit %d, stderr %q; want 2 and %q", code, stderr, want)
	}
}

// The baseline records the judges' agreement with people; the report shows it beside
// the self-agreement, and judge-check prints it with the confusion table (markdown
// cells escaped).
func TestCalibrationInTheBaselineAndTheReport(t *testing.T) {
	srv := scoringJudge(t, func(_ string, truth, _ int, _ string) int { return truth })
	env := judgeEnv(srv)
	cfg := judgedProject(t, "judge-a")
	dir := filepath.Dir(cfg)
	withCalibration(t, cfg, "0.7", calibrationLabels)
	if code, _, stderr := runWithEnv(t, env, "baseline", "--config", cfg, "--judge-sample", "5"); code != cli.ExitPass {
		t.Fatalf("baseline: exit %d\n%s", code, stderr)
	}
	// 30 outputs + 5 × 3 reliability repeats + 6 labelled outputs.
	if srv.Calls() != 30+15+6 {
		t.Errorf("baseline made %d calls; want 51", srv.Calls())
	}
	code, stdout, stderr := runWithEnv(t, env, "check", "--config", cfg, "--results", filepath.Join(dir, "r1.jsonl"), "--format", "json")
	if code != cli.ExitPass {
		t.Fatalf("check: exit %d\n%s", code, stderr)
	}
	var r struct {
		Comparison struct {
			Calibration *struct {
				Outputs    int `json:"outputs"`
				Dimensions []struct {
					Name     string   `json:"dimension"`
					Alpha    *float64 `json:"alpha"`
					MinAlpha *float64 `json:"min_alpha"`
				} `json:"dimensions"`
			} `json:"judge_calibration"`
		} `json:"comparison"`
	}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	c := r.Comparison.Calibration
	if c == nil || c.Outputs != 6 || len(c.Dimensions) != 1 || c.Dimensions[0].Alpha == nil || !near(*c.Dimensions[0].Alpha, 35.0/46) {
		t.Fatalf("report's judge_calibration = %+v; want 6 outputs, accuracy α 35/46", c)
	}
	_, md, _ := runWithEnv(t, env, "check", "--config", cfg, "--results", filepath.Join(dir, "r1.jsonl"), "--format", "markdown")
	if !strings.Contains(md, "judge vs people · accuracy (default): α 0.761 (interval)") {
		t.Errorf("the markdown report lacks the agreement with people:\n%s", md)
	}

	code, out, stderr := runWithEnv(t, env, "judge-check", "--config", cfg, "--sample", "3", "--format", "markdown")
	if code != cli.ExitPass {
		t.Fatalf("judge-check: exit %d\n%s", code, stderr)
	}
	for _, want := range []string{"- judge vs people · accuracy (default): α 0.761", "| people ↓ judge → | 0 | 1 | 2 |\n| --- | --- | --- | --- |\n| 0 | 1 | 0 | 0 |\n| 1 | 1 | 1 | 0 |\n| 2 | 0 | 1 | 2 |"} {
		if !strings.Contains(out, want) {
			t.Errorf("judge-check's markdown lacks %q:\n%s", want, out)
		}
	}
}
