package cli_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/cli"
	"github.com/evalgate/evalgate/internal/testdata/chattest"
)

var qualityRE = regexp.MustCompile(`quality (\d+)`)

// A z-normalizing panel whose reviewer c is swapped, after the baseline, for a model
// that scores everything 2 higher. The baseline's moments of c are the old model's:
// standardizing the new c with them would keep its +2. The check measures the panel's
// moments again on the baseline's recorded outputs judged by the current reviewers, so
// c's bias is removed as a and b's is.
//
// Reviewers on 1–10: a and the old c score the quality, b and the new c the quality + 2.
// The baseline's answers have quality 4, 5, 6, 7. Measured again: a 4..7 (μ 5.5),
// b and c 6..9 (μ 7.5), each σ √(5/3) = 1.2910; pooled μ = (5.5 + 7.5 + 7.5)/3 =
// 6.8333, squared deviations 3·5 + 4·(5.5 − 6.8333)² + 8·(7.5 − 6.8333)² = 15 +
// 7.1111 + 3.5556 = 25.6667, σ_pool = √(25.6667/11) = 1.5275. The pull request's
// answer of quality 6: a 6, b 8, c 8, each z = 0.5/1.2910 = 0.3873, so each maps to
// 6.8333 + 1.5275·0.3873 = 7.4249. With the old moments (c: μ 5.5, pooled μ 6.1667)
// c's 8 would map to 6.1667 + 1.5275·2.5/1.2910 = 9.1247 and the mean be 7.547.
func TestPanelMomentsOfAChangedReviewerAreMeasuredAgain(t *testing.T) {
	srv := chattest.New(t, "/v1", func(_ int, req chattest.Request) chattest.Reply {
		prompt := req.Prompt()
		i := strings.Index(prompt, "<candidate_answer>")
		m := qualityRE.FindStringSubmatch(prompt[max(i, 0):])
		if i < 0 || m == nil {
			t.Errorf("no quality in %.100q", prompt)
			return chattest.Reply{Status: 400}
		}
		v, _ := strconv.Atoi(m[1])
		if req.Model == "rev-b" || req.Model == "rev-c-new" {
			v += 2
		}
		b, _ := json.Marshal(map[string]any{"accuracy": v, "relevance": v, "completeness": v, "conciseness": v, "clarity": v, "notes": "n"})
		return chattest.Reply{Content: string(b), PromptTokens: 10, CompletionTokens: 5}
	})
	env := judgeEnv(srv)
	dir := t.TempDir()
	var suite, base, pr strings.Builder
	for i, q := range []int{4, 5, 6, 7} {
		fmt.Fprintf(&suite, `{"id": "i%d", "prompt": "Question %d?"}`+"\n", i, i)
		fmt.Fprintf(&base, `{"id": "i%d", "output": "baseline answer %d, quality %d"}`+"\n", i, i, q)
		fmt.Fprintf(&pr, `{"id": "i%d", "output": "pull request answer %d, quality %d"}`+"\n", i, i, []int{6, 4, 5, 7}[i])
	}
	write(t, filepath.Join(dir, "suite.jsonl"), suite.String())
	write(t, filepath.Join(dir, "r1.jsonl"), base.String())
	write(t, filepath.Join(dir, "pr.jsonl"), pr.String())
	cfg := filepath.Join(dir, "evalgate.yaml")
	config := func(modelC string) string {
		return `name: panel
suite: suite.jsonl
results: [r1.jsonl]
baseline: base.jsonl
judges:
  a: {model: rev-a, template: rubric-1-10, cache_dir: cache}
  b: {model: rev-b, template: rubric-1-10, cache_dir: cache}
  c: {model: ` + modelC + `, template: rubric-1-10, cache_dir: cache}
scoring:
  version: scoringSystem/1.0.0
  dimensions:
    - {name: accuracy, weight: 1, scorer: llm_judge, scale: 1-10, normalize: max,
       panel: {judges: [a, b, c], aggregate: mean, z_normalize: true}}
grading:
  version: gradingSystem/1.0.0
`
	}
	// Before the swap c scores the quality, as a does: the baseline records c at μ 5.5.
	write(t, cfg, config("rev-c-old"))
	if code, _, stderr := runWithEnv(t, env, "baseline", "--config", cfg, "--no-judge-check"); code != cli.ExitPass {
		t.Fatalf("baseline: exit %d\n%s", code, stderr)
	}
	write(t, cfg, config("rev-c-new"))
	code, stdout, stderr := runWithEnv(t, env, "check", "--config", cfg, "--results", filepath.Join(dir, "pr.jsonl"), "--format", "json")
	if code != cli.ExitPass {
		t.Fatalf("check: exit %d\n%s\n%.2000s", code, stderr, stdout)
	}
	var r struct {
		Items []struct {
			Item  string             `json:"item"`
			Raw   map[string]float64 `json:"raw"`
			Notes map[string]string  `json:"notes"`
		} `json:"items"`
		Comparison struct {
			Base float64 `json:"baseline_score"`
		} `json:"comparison"`
	}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Items) != 4 || r.Items[0].Item != "i0" {
		t.Fatalf("items %+v", r.Items)
	}
	if got := r.Items[0].Raw["accuracy"]; got < 7.4245 || got > 7.4255 {
		t.Errorf("the quality-6 answer's panel accuracy %.4f; want 7.4249 (c's +2 removed)\n%s", got, r.Items[0].Notes["accuracy"])
	}
	if n := r.Items[0].Notes["accuracy"]; !strings.Contains(n, "c 8 (z-normalized 7.42)") {
		t.Errorf("note %q; want c's 8 z-normalized to 7.42", n)
	}
	// The baseline re-judged and standardized alike: its mean is the pooled mean,
	// 6.8333 of 10.
	if b := r.Comparison.Base; b < 0.68328 || b > 0.68338 {
		t.Errorf("baseline score %.5f; want 0.68333", b)
	}
}
