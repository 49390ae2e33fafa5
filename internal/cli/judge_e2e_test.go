package cli_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/cli"
	"github.com/evalgate/evalgate/internal/testdata/chattest"
)

var e2eTruthRE = regexp.MustCompile(`true score (\d)`)

// scoringJudge is a fake OpenAI-compatible judge on loopback for the built-in
// accuracy-faithfulness template (0–2): answer gives its score from the model asked,
// the output's announced true score, and how many times that prompt was asked before.
func scoringJudge(t *testing.T, answer func(model string, truth, asked int, prompt string) int) *chattest.Server {
	var asked chattest.Asked
	return chattest.New(t, "/v1", func(_ int, req chattest.Request) chattest.Reply {
		prompt := req.Prompt()
		m := e2eTruthRE.FindStringSubmatch(prompt)
		if m == nil {
			t.Errorf("no true score in %.100q", prompt)
			return chattest.Reply{Status: 400}
		}
		truth, _ := strconv.Atoi(m[1])
		v := max(0, min(2, answer(req.Model, truth, asked.Next(req.Model+prompt), prompt)))
		b, _ := json.Marshal(map[string]any{"accuracy_score": v, "faithfulness_score": v, "rationale": "r"})
		return chattest.Reply{Content: string(b), PromptTokens: 10, CompletionTokens: 5, Fingerprint: "fp_1"}
	})
}

const judgedItems = 30

// judgedProject writes a suite of 30 items, three baseline runs whose outputs carry
// true score 1 or 2 (odd items 2), and a config judging accuracy (weight 0.5) with model, beside a
// deterministic brevity dimension. It returns the config's path.
func judgedProject(t *testing.T, model string) string {
	t.Helper()
	dir := t.TempDir()
	var suite strings.Builder
	for i := range judgedItems {
		fmt.Fprintf(&suite, `{"id": "q%02d", "prompt": "Question %d?", "expected": "answer %d"}`+"\n", i, i, i)
	}
	write(t, filepath.Join(dir, "suite.jsonl"), suite.String())
	for r := 1; r <= 3; r++ {
		write(t, filepath.Join(dir, fmt.Sprintf("r%d.jsonl", r)), judgedRun("baseline answer", func(i int) int { return 1 + i%2 }))
	}
	setModel(t, dir, model)
	return filepath.Join(dir, "evalgate.yaml")
}

func setModel(t *testing.T, dir, model string) {
	t.Helper()
	write(t, filepath.Join(dir, "evalgate.yaml"), `name: judged
suite: suite.jsonl
results: [r1.jsonl, r2.jsonl, r3.jsonl]
baseline: base.json
judges:
  default: {model: `+model+`, cache_dir: cache, concurrency: 4}
scoring:
  version: scoringSystem/1.0.0
  dimensions:
    - {name: accuracy, weight: 0.5, scorer: llm_judge, key: accuracy_score, scale: 0-2}
    - {name: brevity, weight: 0.5, scorer: word_budget, max_words: 50}
grading:
  version: gradingSystem/1.0.0
  regression: {method: significance}
`)
}

// judgedRun is one run's results: item i answers with text and the true score truth(i).
func judgedRun(text string, truth func(int) int) string {
	var b strings.Builder
	for i := range judgedItems {
		fmt.Fprintf(&b, `{"id": "q%02d", "output": "%s %d, true score %d"}`+"\n", i, text, i, truth(i))
	}
	return b.String()
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func judgeEnv(srv *chattest.Server) map[string]string {
	return map[string]string{"OPENAI_BASE_URL": srv.BaseURL(), "OPENAI_API_KEY": "test-key"}
}

type judgedReport struct {
	Verdict struct {
		Status string `json:"status"`
	} `json:"verdict"`
	Comparison struct {
		Base         float64 `json:"baseline_score"`
		Cand         float64 `json:"candidate_score"`
		Delta        float64 `json:"delta"`
		Rescored     bool    `json:"rescored"`
		JudgeChanges []struct {
			Judge string   `json:"judge"`
			What  []string `json:"what"`
		} `json:"judge_changes"`
		OldJudge *struct {
			Base  float64 `json:"baseline_score"`
			Delta float64 `json:"delta"`
		} `json:"old_judge"`
		JudgeReliability *struct {
			Dimensions []struct {
				Name  string   `json:"dimension"`
				Alpha *float64 `json:"alpha"`
			} `json:"dimensions"`
		} `json:"judge_reliability"`
	} `json:"comparison"`
	Regression struct {
		Outcome   string `json:"outcome"`
		DecidedBy string `json:"decided_by"`
	} `json:"regression"`
}

func decodeReport(t *testing.T, out string) judgedReport {
	t.Helper()
	var r judgedReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("report is not JSON: %v\n%.500s", err, out)
	}
	return r
}

// The base commit's judge differs from the one the baseline was made with: the report
// says so at the top, the baseline's recorded outputs are re-judged by the new judge
// (the fake's calls show it), and the verdict compares like with like. The new judge
// scores every answer one point lower than the old one; judged by it alone, the pull
// request's answers (as good as the baseline's) show no drop, while the old-judge
// comparison beside it shows the 25-point artefact.
func TestChangedJudgeIsCaughtAndTheBaselineRejudged(t *testing.T) {
	srv := scoringJudge(t, func(model string, truth, _ int, _ string) int {
		if model == "judge-b" {
			return truth - 1
		}
		return truth
	})
	env := judgeEnv(srv)
	cfg := judgedProject(t, "judge-a")
	dir := filepath.Dir(cfg)
	if code, _, stderr := runWithEnv(t, env, "baseline", "--config", cfg, "--judge-sample", "10"); code != cli.ExitPass {
		t.Fatalf("baseline: exit %d\n%s", code, stderr)
	}
	// 30 distinct outputs (the three runs are identical) + 10 sampled × 3 repeats.
	if got := srv.Calls(); got != 30+30 {
		t.Fatalf("baseline made %d calls; want 30 verdicts + 10 × 3 reliability repeats", got)
	}
	head := readHeader(t, filepath.Join(dir, "base.jsonl"))
	if !strings.Contains(head, `"model":"judge-a"`) || !strings.Contains(head, `"judge_reliability"`) || !strings.Contains(head, `"served":"judge-a@fp_1"`) {
		t.Fatalf("the baseline should record the judge's fingerprint and reliability:\n%s", head)
	}

	setModel(t, dir, "judge-b")
	write(t, filepath.Join(dir, "pr.jsonl"), judgedRun("pull request answer", func(i int) int { return 1 + i%2 }))
	before := srv.Calls()
	code, stdout, stderr := runWithEnv(t, env, "check", "--config", cfg, "--results", filepath.Join(dir, "pr.jsonl"), "--format", "json")
	if code != cli.ExitPass {
		t.Fatalf("check: exit %d; want 0 (like with like: no drop)\n%s\n%s", code, stderr, stdout)
	}
	// judge-b judged the pull request's 30 outputs and the baseline's 30 recorded ones.
	var rejudged int
	for _, r := range srv.Requests()[before:] {
		if r.Model != "judge-b" {
			t.Errorf("check asked model %q", r.Model)
		}
		if strings.Contains(r.Prompt(), "baseline answer") {
			rejudged++
		}
	}
	if srv.Calls()-before != 60 || rejudged != 30 {
		t.Errorf("check made %d calls, %d on the baseline's recorded outputs; want 60 and 30", srv.Calls()-before, rejudged)
	}
	r := decodeReport(t, stdout)
	c := r.Comparison
	if !c.Rescored || len(c.JudgeChanges) != 1 || !strings.Contains(strings.Join(c.JudgeChanges[0].What, ";"), "model judge-a → judge-b") {
		t.Errorf("comparison: rescored %v, judge changes %+v", c.Rescored, c.JudgeChanges)
	}
	// Like with like: judge-b gives half the answers accuracy 0 and half 1 (of 2): a
	// mean normalized accuracy of 0.25; brevity 1: 0.5·0.25 + 0.5·1 = 0.625 on both
	// sides. The old judge's baseline: accuracy (0.5 + 1)/2 = 0.75 → 0.5·0.75 + 0.5·1 =
	// 0.875, so the old-judge change reads −0.25.
	if !near(c.Base, 0.625) || !near(c.Cand, 0.625) || !near(c.Delta, 0) {
		t.Errorf("like-for-like comparison %v → %v (Δ %v); want 0.625 → 0.625", c.Base, c.Cand, c.Delta)
	}
	if c.OldJudge == nil || !near(c.OldJudge.Base, 0.875) || !near(c.OldJudge.Delta, -0.25) {
		t.Errorf("old-judge comparison %+v; want baseline 0.875, Δ −0.25 beside", c.OldJudge)
	}
	// At the top of the markdown report, before the tables.
	_, md, _ := runWithEnv(t, env, "check", "--config", cfg, "--results", filepath.Join(dir, "pr.jsonl"), "--format", "markdown")
	i := strings.Index(md, "changed judge: judge \"default\": model judge-a → judge-b")
	if i < 0 || i > strings.Index(md, "| Dimension") {
		t.Errorf("markdown should flag the changed judge above the tables:\n%s", md)
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

func readHeader(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	head, _, _ := strings.Cut(string(b), "\n")
	return head
}

// A judged dimension's drop with an unreliable judge is inconclusive and says why; the
// same drop with a reliable judge (no flips) blocks. The unreliable judge answers a
// prompt right the first time and flips 45 % of its verdicts when asked again: the
// cache hides its noise from the scores, and only the reliability check, which asks
// again, sees it (α well under 0.667).
func TestJudgeReliabilityDecidesWhetherAJudgedDropBlocks(t *testing.T) {
	for _, tc := range []struct {
		name     string
		flips    float64
		method   string
		wantCode int
		outcome  string
	}{
		{"unreliable", 0.45, "significance", cli.ExitPass, "inconclusive"},
		{"reliable", 0, "significance", cli.ExitGateFailed, "fail"},
		// The default method: the same drop blocks with the reliable judge and is
		// inconclusive with the unreliable one (the baseline's never-varying 0.75 items
		// drop to 0.5; stats TestEvidenceFractionalIdenticalRunsDrop computes it).
		{"unreliable, evidence", 0.45, "evidence", cli.ExitPass, "inconclusive"},
		{"reliable, evidence", 0, "evidence", cli.ExitGateFailed, "fail"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := scoringJudge(t, func(_ string, truth, asked int, prompt string) int {
				if asked == 0 {
					return truth
				}
				return chattest.Flip(truth, asked, prompt, tc.flips)
			})
			env := judgeEnv(srv)
			cfg := judgedProject(t, "judge-a")
			dir := filepath.Dir(cfg)
			if tc.method != "significance" {
				b, err := os.ReadFile(cfg)
				if err != nil {
					t.Fatal(err)
				}
				write(t, cfg, strings.Replace(string(b), "{method: significance}", "{method: "+tc.method+"}", 1))
			}
			if code, _, stderr := runWithEnv(t, env, "baseline", "--config", cfg); code != cli.ExitPass {
				t.Fatalf("baseline: exit %d\n%s", code, stderr)
			}
			// The pull request: the answers that deserved 1 now deserve 0.
			write(t, filepath.Join(dir, "pr.jsonl"), judgedRun("baseline answer", func(i int) int { return 2 * (i % 2) }))
			code, stdout, stderr := runWithEnv(t, env, "check", "--config", cfg, "--results", filepath.Join(dir, "pr.jsonl"), "--format", "json")
			r := decodeReport(t, stdout)
			if code != tc.wantCode || r.Regression.Outcome != tc.outcome {
				t.Fatalf("exit %d, regression %s (%s); want %d, %s\n%s", code, r.Regression.Outcome, r.Regression.DecidedBy, tc.wantCode, tc.outcome, stderr)
			}
			rel := r.Comparison.JudgeReliability
			if rel == nil || len(rel.Dimensions) != 1 || rel.Dimensions[0].Alpha == nil {
				t.Fatalf("the baseline's reliability is not in the comparison: %+v", rel)
			}
			alpha := *rel.Dimensions[0].Alpha
			if tc.flips > 0 && (alpha >= 0.667 || !strings.Contains(r.Regression.DecidedBy, "cannot block by itself")) {
				t.Errorf("α %.3f, decided by %q; want α < 0.667 and the reason", alpha, r.Regression.DecidedBy)
			}
			if tc.flips == 0 && alpha != 1 {
				t.Errorf("a judge that never flips: α %.3f; want 1", alpha)
			}
			t.Logf("α %.3f: %s", alpha, r.Regression.DecidedBy)
		})
	}
}
