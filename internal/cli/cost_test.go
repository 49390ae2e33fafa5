package cli_test

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/cli"
	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/report"
	"github.com/evalgate/evalgate/internal/testdata/chattest"
)

// costConfig is a 4-item suite scored by `contains` and by a judge on loopback, priced
// with the config's own table so the figures do not move with the shipped one:
//
//	model-a: $2 input, $1 cached input, $10 output per million tokens
//	model-b: $3 input, $15 output (no cached rate)
//	judge-m: $1 input, $0.50 cached input, $4 output
func costConfig(t *testing.T, judgeURL, extra string) (string, string) {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"evalgate.yaml": `suite: suite.yaml
metadata: {model_id: model-b}
pricing:
  models:
    model-a: {input: 2, cached_input: 1, output: 10}
    model-b: {input: 3, output: 15}
    judge-m: {input: 1, cached_input: 0.5, output: 4}
judges:
  j: {model: judge-m, base_url: "` + judgeURL + `", cache_dir: judge-cache, max_retries: -1}
scoring:
  version: scoringSystem/1.0.0
  dimensions:
    - {name: correctness, weight: 0.5, scorer: contains}
    - {name: accuracy_score, weight: 0.5, scorer: llm_judge, scale: "0-2", judge: j}
grading:
  version: gradingSystem/1.0.0
` + extra,
		// q-3 and q-4 ask the same and answer the same: the judge is asked once for both.
		"suite.yaml": `items:
  - {id: q-1, prompt: "one?", expected: [one]}
  - {id: q-2, prompt: "two?", expected: [two]}
  - {id: q-3, prompt: "same?", expected: [same]}
  - {id: q-4, prompt: "same?", expected: [same]}
`,
		// model-a answers q-1 (400 of its 1,000 input tokens cached) and q-2; model-b is
		// named on q-3, and q-4 names no model: it is priced as metadata.model_id, model-b.
		"r.jsonl": `{"id": "q-1", "output": "one", "input_tokens": 1000, "cached_input_tokens": 400, "output_tokens": 200, "model": "model-a"}
{"id": "q-2", "output": "no idea", "input_tokens": 2000, "output_tokens": 100, "model": "model-a"}
{"id": "q-3", "output": "same", "input_tokens": 1000, "output_tokens": 400, "model": "model-b"}
{"id": "q-4", "output": "same", "input_tokens": 500, "output_tokens": 100}
`,
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "evalgate.yaml"), dir
}

// judgeFake gives every item accuracy 2, with 1,000 prompt tokens (200 of them cached)
// and 50 completion tokens per call.
func judgeFake(t *testing.T) *chattest.Server {
	return chattest.New(t, "/v1", chattest.Always(chattest.Reply{
		Content:      `{"accuracy_score": 2, "faithfulness_score": 2, "rationale": "ok"}`,
		PromptTokens: 1000, CachedTokens: 200, CompletionTokens: 50,
	}))
}

// costReport is the part of the JSON report these tests read.
type costReport struct {
	Cost    *report.Cost `json:"cost"`
	Summary struct {
		Metrics map[string]float64 `json:"metrics"`
	} `json:"summary"`
	Gates   []gate.Result `json:"gates"`
	Verdict gate.Verdict  `json:"verdict"`
}

func checkJSON(t *testing.T, cfg string, args ...string) (*costReport, int, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	c := &cli.CLI{Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }, Now: time.Now, GitSHA: func() string { return "" }}
	code := c.Main(append([]string{"evalgate", "check", "--config", cfg, "--format", "json"}, args...))
	var r costReport
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		t.Fatalf("exit %d; report is not JSON: %v\n%s\n%s", code, err, stdout.String(), stderr.String())
	}
	return &r, code, stderr.String()
}

func nearUSD(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

func TestCostHandComputed(t *testing.T) {
	srv := judgeFake(t)
	cfg, dir := costConfig(t, srv.BaseURL(), "")
	r, code, stderr := checkJSON(t, cfg, "--results", filepath.Join(dir, "r.jsonl"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// The system under test, per item (USD per million tokens / 1e6):
	//   q-1 model-a: (1000 − 400) × 2 + 400 × 1 + 200 × 10 = 1200 + 400 + 2000 = 3600 → $0.0036
	//   q-2 model-a: 2000 × 2 + 100 × 10                    = 4000 + 1000      = 5000 → $0.0050
	//   q-3 model-b: 1000 × 3 + 400 × 15                    = 3000 + 6000      = 9000 → $0.0090
	//   q-4 model-b (metadata.model_id): 500 × 3 + 100 × 15 = 1500 + 1500      = 3000 → $0.0030
	//   run: 3600 + 5000 + 9000 + 3000 = 20600 → $0.0206
	//   per item: 0.0206 / 4 = $0.00515
	//   per correct answer: q-2 fails `contains`, so 3 pass: 0.0206 / 3 = $0.006866667 (rounded to 1e-9)
	// The judge: q-3 and q-4 are one request, so 3 calls; each call
	//   (1000 − 200) × 1 + 200 × 0.5 + 50 × 4 = 800 + 100 + 200 = 1100 → $0.0011;
	//   3 calls: $0.0033.
	// The pull request: 0.0206 + 0.0033 = $0.0239.
	c := r.Cost
	if c == nil {
		t.Fatal("no cost in the report")
	}
	for name, tc := range map[string]struct {
		got  *float64
		want float64
	}{
		"per_run": {c.PerRunUSD, 0.0206}, "per_item": {c.PerItemUSD, 0.00515}, "per_correct": {c.PerCorrectUSD, 0.006866667},
		"system": {c.SystemUSD, 0.0206}, "judge": {c.JudgeUSD, 0.0033}, "total": {c.TotalUSD, 0.0239},
	} {
		if tc.got == nil || !nearUSD(*tc.got, tc.want) {
			t.Errorf("%s = %v; want %v", name, tc.got, tc.want)
		}
	}
	if c.JudgeCalls != 3 || c.JudgeCacheHits != 0 || srv.Calls() != 3 {
		t.Errorf("judge calls %d (fake saw %d), cache hits %d; want 3, 3, 0", c.JudgeCalls, srv.Calls(), c.JudgeCacheHits)
	}
	if m := r.Summary.Metrics; !nearUSD(m["cost_usd"], 0.0206) || !nearUSD(m["judge_cost_usd"], 0.0033) || !nearUSD(m["cost_per_correct_usd"], 0.006866667) {
		t.Errorf("metrics cost_usd %v, judge_cost_usd %v, cost_per_correct_usd %v", m["cost_usd"], m["judge_cost_usd"], m["cost_per_correct_usd"])
	}
	if !strings.HasPrefix(c.Table, "evalgate prices v") || !strings.HasSuffix(c.Table, "+ pricing in evalgate.yaml") {
		t.Errorf("table %q does not say which table and date priced it", c.Table)
	}

	// Checked again, every verdict comes from the judge's cache: no call, no judge
	// cost, 3 cache hits counted apart; the pull request's total is the system's alone.
	r, _, _ = checkJSON(t, cfg, "--results", filepath.Join(dir, "r.jsonl"))
	if c := r.Cost; srv.Calls() != 3 || c.JudgeCalls != 0 || c.JudgeCacheHits != 3 || c.JudgeUSD == nil || *c.JudgeUSD != 0 || !nearUSD(*c.TotalUSD, 0.0206) {
		t.Errorf("second check: fake saw %d calls; cost %+v; want no call, judge $0, 3 cache hits, total $0.0206", srv.Calls(), c)
	}

	// The same run as the baseline, then a candidate whose q-3 costs more:
	// 1000 × 3 + 1400 × 15 = 3000 + 21000 = 24000 → $0.024, so the run costs
	// 0.0036 + 0.005 + 0.024 + 0.003 = $0.0356: (0.0356 − 0.0206) / 0.0206 = +72.8 %.
	base := filepath.Join(dir, "base.jsonl")
	var stdout, stderrB bytes.Buffer
	cl := &cli.CLI{Stdout: &stdout, Stderr: &stderrB, Getenv: func(string) string { return "" }, Now: time.Now, GitSHA: func() string { return "" }}
	if code := cl.Main([]string{"evalgate", "baseline", "--config", cfg, "--results", filepath.Join(dir, "r.jsonl"), "--out", base}); code != 0 {
		t.Fatalf("baseline: exit %d: %s", code, stderrB.String())
	}
	// The refresh recorded the cost in the score's history, which `evalgate history`
	// shows (the judge answered from its cache: it cost nothing this time).
	stdout.Reset()
	if code := cl.Main([]string{"evalgate", "history", "--file", filepath.Join(dir, "base.history.jsonl")}); code != 0 {
		t.Fatalf("history: exit %d: %s", code, stderrB.String())
	}
	if !strings.Contains(stdout.String(), "cost/run") || !strings.Contains(stdout.String(), "$0.021 ") {
		t.Errorf("history does not show the cost per run:\n%s", stdout.String())
	}
	stdout.Reset()
	cl.Main([]string{"evalgate", "history", "--format", "json", "--file", filepath.Join(dir, "base.history.jsonl")})
	if !strings.Contains(stdout.String(), `"cost_usd": 0.0206`) {
		t.Errorf("history JSON has no cost_usd 0.0206:\n%s", stdout.String())
	}
	dearer := strings.Replace(readFile(t, filepath.Join(dir, "r.jsonl")), `"output_tokens": 400`, `"output_tokens": 1400`, 1)
	writeFile(t, filepath.Join(dir, "pr.jsonl"), dearer)
	r, code, stderr = checkJSON(t, cfg, "--results", filepath.Join(dir, "pr.jsonl"), "--baseline", base)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if c := r.Cost; c == nil || c.BaselinePerRunUSD == nil || !nearUSD(*c.BaselinePerRunUSD, 0.0206) || c.Change == nil || !nearUSD(*c.Change, 0.728155340) {
		t.Fatalf("cost %+v; want baseline $0.0206 and change (0.0356 − 0.0206) / 0.0206 = 0.728155340", r.Cost)
	}
	md := markdownOf(t, cfg, "--results", filepath.Join(dir, "pr.jsonl"), "--baseline", base)
	if !strings.Contains(md, "cost $0.021 → $0.036 per run (+72.8 %)") {
		t.Errorf("markdown has no cost line with the change:\n%s", md)
	}

	// A hard gate on the change: +72.8 % > +20 % blocks.
	cfgGate, _ := costConfig(t, srv.BaseURL(), "  gates: [{metric: cost_usd, max_increase: 20%}]\n")
	for _, f := range []string{"r.jsonl", "pr.jsonl", "base.jsonl"} {
		writeFile(t, filepath.Join(filepath.Dir(cfgGate), f), readFile(t, filepath.Join(dir, f)))
	}
	d2 := filepath.Dir(cfgGate)
	r, code, _ = checkJSON(t, cfgGate, "--results", filepath.Join(d2, "pr.jsonl"), "--baseline", filepath.Join(d2, "base.jsonl"))
	if code != 1 || !strings.Contains(r.Verdict.Reason, "cost_usd $0.021 → $0.036 (+72.8 %) > +20 %") {
		t.Errorf("exit %d, reason %q; want 1 and the cost change over +20 %%", code, r.Verdict.Reason)
	}
}

// TestCostGateOnOldBaseline: a baseline recorded before costs has none; a gate on the
// cost's change is skipped with a notice, never failed.
func TestCostGateOnOldBaseline(t *testing.T) {
	srv := judgeFake(t)
	cfg, dir := costConfig(t, srv.BaseURL(), "  gates: [{metric: cost_usd, max_increase: 20%}]\n")
	base := filepath.Join(dir, "base.jsonl")
	var stdout, stderr bytes.Buffer
	c := &cli.CLI{Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }, Now: time.Now, GitSHA: func() string { return "" }}
	if code := c.Main([]string{"evalgate", "baseline", "--config", cfg, "--results", filepath.Join(dir, "r.jsonl"), "--out", base}); code != 0 {
		t.Fatalf("baseline: exit %d: %s", code, stderr.String())
	}
	// Drop the cost metrics from the baseline's header, as an older evalgate wrote it.
	lines := strings.SplitN(readFile(t, base), "\n", 2)
	var head map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &head); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"cost_usd", "cost_per_item_usd", "cost_per_correct_usd", "judge_cost_usd"} {
		delete(head["metrics"].(map[string]any), k)
	}
	b, _ := json.Marshal(head)
	writeFile(t, base, string(b)+"\n"+lines[1])
	r, code, stderr2 := checkJSON(t, cfg, "--results", filepath.Join(dir, "r.jsonl"), "--baseline", base)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr2)
	}
	for _, g := range r.Gates {
		if g.Metric == "cost_usd" && (g.Status != "skipped" || !strings.Contains(g.Message, "has no cost_usd (recorded before evalgate measured it)")) {
			t.Errorf("gate %+v; want skipped with a notice", g)
		}
	}
}

// TestCostUnknownModel: a model without a price makes the cost unknown, never 0, and a
// gate on cost fails closed naming it.
func TestCostUnknownModel(t *testing.T) {
	srv := judgeFake(t)
	cfg, dir := costConfig(t, srv.BaseURL(), "  gates: [{metric: cost_per_item_usd, max: 1, level: soft}, {metric: cost_usd, max: 1}]\n")
	writeFile(t, filepath.Join(dir, "r.jsonl"), strings.Replace(readFile(t, filepath.Join(dir, "r.jsonl")), `"model": "model-b"`, `"model": "acme-7b"`, 1))
	r, code, _ := checkJSON(t, cfg, "--results", filepath.Join(dir, "r.jsonl"))
	if code != 1 {
		t.Errorf("exit %d; want 1: a hard gate on an unknown cost fails", code)
	}
	if r.Cost == nil || r.Cost.PerRunUSD != nil || r.Cost.TotalUSD != nil || strings.Join(r.Cost.Unknown, ",") != "acme-7b" {
		t.Errorf("cost %+v; want unknown (nil amounts) naming acme-7b", r.Cost)
	}
	if _, ok := r.Summary.Metrics["cost_usd"]; ok {
		t.Error("cost_usd is set for a run with an unpriced model")
	}
	for _, g := range r.Gates {
		want := map[string]string{"cost_usd": "fail", "cost_per_item_usd": "warn"}[g.Metric]
		if want != "" && (string(g.Status) != want || !strings.HasPrefix(g.Message, "cost unknown: acme-7b")) {
			t.Errorf("gate %s: %s %q; want %s with cost unknown: acme-7b", g.Name, g.Status, g.Message, want)
		}
	}
	md := markdownOf(t, cfg, "--results", filepath.Join(dir, "r.jsonl"))
	if !strings.Contains(md, "cost unknown: acme-7b") {
		t.Errorf("markdown does not say cost unknown: acme-7b:\n%s", md)
	}
}

func markdownOf(t *testing.T, cfg string, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	c := &cli.CLI{Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }, Now: time.Now, GitSHA: func() string { return "" }}
	c.Main(append([]string{"evalgate", "check", "--config", cfg, "--format", "markdown"}, args...))
	return stdout.String()
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeFile(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
