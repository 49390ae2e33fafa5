package calibration_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/evalgate/evalgate/internal/calibration"
	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/judge"
	"github.com/evalgate/evalgate/internal/judge/live"
	"github.com/evalgate/evalgate/internal/reliability"
	"github.com/evalgate/evalgate/internal/rubric"
	"github.com/evalgate/evalgate/internal/testdata/chattest"
)

var truthRE = regexp.MustCompile(`true score (\d)`)

// truthJudge is a fake OpenAI-compatible judge on loopback for the built-in
// accuracy-faithfulness template (0–2): it gives both keys the score the output
// announces ("true score N"), plus bias (clamped to the scale).
func truthJudge(t *testing.T, bias int) *chattest.Server {
	return chattest.New(t, "/v1", func(_ int, req chattest.Request) chattest.Reply {
		m := truthRE.FindStringSubmatch(req.Prompt())
		if m == nil {
			t.Errorf("no true score in %.100q", req.Prompt())
			return chattest.Reply{Status: 400}
		}
		v, _ := strconv.Atoi(m[1])
		v = max(0, min(2, v+bias))
		b, _ := json.Marshal(map[string]any{"accuracy_score": v, "faithfulness_score": v, "rationale": "r"})
		return chattest.Reply{Content: string(b), PromptTokens: 10, CompletionTokens: 5}
	})
}

// calibrationConfig is a config judging accuracy and faithfulness (0–2) with the
// calibration set below. The judge scores outputs 1–6 2, 2, 1, 1, 0, 0.
//
// accuracy: one person per output, labels 2, 2, 1, 2, 0, 1. Interval α, by hand
// (Krippendorff 2011, section C's method): each unit has m = 2 values, so each ordered
// pair adds 1/(m−1) = 1 to the coincidence matrix: o_22 = 4, o_11 = 2, o_00 = 2,
// o_12 = o_21 = 1, o_01 = o_10 = 1. n = 12; n_0 = 3, n_1 = 4, n_2 = 5.
// D_o = (o_01 + o_10 + o_12 + o_21)·1² / n = 4/12 = 1/3.
// D_e = 2·(n_0·n_1·1² + n_0·n_2·2² + n_1·n_2·1²) / (n(n−1)) = 2·(12 + 60 + 20)/132 = 184/132.
// α = 1 − (1/3)/(184/132) = 1 − 132/552 = 35/46 = 0.76087.
// Exact agreement 4 of 6 pairs; judge − person = (0+0+0−1+0−1)/6 = −1/3.
//
// faithfulness: two people on outputs 1–3, [2, 1], [1, 1], [0, 1]; see
// faithfulnessAlpha.
const calibrationConfig = `name: cal
judges:
  default: {model: judge-m, cache_dir: cache, concurrency: 2}
scoring:
  version: scoringSystem/1.0.0
  dimensions:
    - {name: accuracy, weight: 0.5, scorer: llm_judge, key: accuracy_score, scale: 0-2}
    - {name: faithfulness, weight: 0.5, scorer: llm_judge, key: faithfulness_score, scale: 0-2}
grading:
  version: gradingSystem/1.0.0
calibration:
  min_alpha: {accuracy: 0.7, faithfulness: 0.6}
  outputs: labels.yaml
`

const calibrationLabels = `- {name: o1, item: {id: c1, prompt: "Q1?", expected: a}, output: "answer, true score 2", labels: {accuracy: 2, faithfulness: [2, 1]}}
- {name: o2, item: {id: c2, prompt: "Q2?", expected: a}, output: "answer, true score 2", labels: {accuracy: 2, faithfulness: [1, 1]}}
- {name: o3, item: {id: c3, prompt: "Q3?", expected: a}, output: "answer, true score 1", labels: {accuracy: 1, faithfulness: [0, 1]}}
- {name: o4, item: {id: c4, prompt: "Q4?", expected: a}, output: "answer, true score 1", labels: {accuracy: 2}}
- {name: o5, item: {id: c5, prompt: "Q5?", expected: a}, output: "answer, true score 0", labels: {accuracy: 0}}
- {name: o6, item: {id: c6, prompt: "Q6?", expected: a}, output: "answer, true score 0", labels: {accuracy: 1}}
`

func load(t *testing.T, srv *chattest.Server, cfgText, labels string) *config.Config {
	t.Helper()
	dir := t.TempDir()
	for name, text := range map[string]string{"evalgate.yaml": cfgText, "labels.yaml": labels} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]string{"OPENAI_BASE_URL": srv.BaseURL(), "OPENAI_API_KEY": "k"}
	cfg, err := config.Load(filepath.Join(dir, "evalgate.yaml"), &rubric.Env{Judges: &rubric.Judges{
		Options: []judge.Option{judge.WithGetenv(func(k string) string { return env[k] }), live.Calls()}}})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestAgreementWithPeopleByHand(t *testing.T) {
	srv := truthJudge(t, 0)
	cfg := load(t, srv, calibrationConfig, calibrationLabels)
	m, err := calibration.Measure(context.Background(), &cfg.Scoring, nil, cfg.Calibration)
	if err != nil {
		t.Fatal(err)
	}
	// One call per output: both dimensions read the same verdict.
	if srv.Calls() != 6 {
		t.Errorf("judge calls = %d; want 6", srv.Calls())
	}
	if m.Outputs != 6 || len(m.Dimensions) != 2 {
		t.Fatalf("measurement = %+v; want 6 outputs, 2 dimensions", m)
	}
	acc, fai := m.Dimensions[0], m.Dimensions[1]
	near(t, "accuracy α", acc.Alpha, 35.0/46)
	near(t, "accuracy exact agreement", acc.Exact, 4.0/6)
	near(t, "accuracy bias", acc.Bias, -1.0/3)
	if acc.HumanAlpha != nil {
		t.Errorf("accuracy people's α = %v; want none (one person per output)", *acc.HumanAlpha)
	}
	if acc.Units != 6 || acc.Labels != 6 || acc.Under() {
		t.Errorf("accuracy units %d labels %d under %v; want 6, 6, false (0.761 ≥ 0.7)", acc.Units, acc.Labels, acc.Under())
	}
	// Rows: what people said (0, 1, 2); columns: the judge. Person 1 / judge 0 is o6,
	// person 2 / judge 1 is o4.
	want := &reliability.Confusion{Values: []string{"0", "1", "2"}, Counts: [][]int{{1, 0, 0}, {1, 1, 0}, {0, 1, 2}}}
	if d := cmp.Diff(want, acc.Confusion); d != "" {
		t.Errorf("accuracy confusion (-want +got):\n%s", d)
	}

	near(t, "faithfulness α", fai.Alpha, faithfulnessAlpha)
	// People alone: units {2,1}, {1,1}, {0,1}, m = 2: o_21 = o_12 = 1, o_11 = 2,
	// o_01 = o_10 = 1; n = 6, n_0 = 1, n_1 = 4, n_2 = 1. D_o = 4/6;
	// D_e = 2·(1·4·1 + 1·1·4 + 4·1·1)/30 = 24/30; α = 1 − (4/6)/(24/30) = 1/6.
	near(t, "faithfulness people's α", fai.HumanAlpha, 1.0/6)
	// Pairs (judge, person): (2,2) (2,1) (2,1) (2,1) (1,0) (1,1): 2 of 6 agree; bias
	// (0 + 1 + 1 + 1 + 1 + 0)/6 = 4/6.
	near(t, "faithfulness exact agreement", fai.Exact, 2.0/6)
	near(t, "faithfulness bias", fai.Bias, 4.0/6)
	if !fai.Under() {
		t.Errorf("faithfulness α %.3f is under min_alpha 0.6 but not flagged", *fai.Alpha)
	}
	if f := m.Failures(); len(f) != 1 || !strings.Contains(f[0], `"faithfulness"`) || !strings.Contains(f[0], "0.6") {
		t.Errorf("failures = %q; want one naming faithfulness and 0.6", f)
	}

	// Again: every verdict from the cache, no call.
	if _, err := calibration.Measure(context.Background(), &cfg.Scoring, nil, cfg.Calibration); err != nil {
		t.Fatal(err)
	}
	if srv.Calls() != 6 {
		t.Errorf("judge calls after a second measurement = %d; want still 6 (cached)", srv.Calls())
	}
}

// faithfulnessAlpha, by hand: the judge gives outputs 1–3 the scores 2, 2, 1 and the
// people [2, 1], [1, 1], [0, 1]. Units (judge first) {2,2,1}, {2,1,1}, {1,0,1}; m = 3,
// each ordered pair adds 1/(m−1) = 1/2:
// {2,2,1}: pairs 2–2 ×2, 2–1 ×4 → o_22 += 1, o_21 += 1, o_12 += 1;
// {2,1,1}: pairs 1–1 ×2, 2–1 ×4 → o_11 += 1, o_21 += 1, o_12 += 1;
// {1,0,1}: pairs 1–1 ×2, 1–0 ×4 → o_11 += 1, o_10 += 1, o_01 += 1.
// o_22 = 1, o_21 = o_12 = 2, o_11 = 2, o_10 = o_01 = 1; n = 9; n_0 = 1, n_1 = 5, n_2 = 3.
// D_o = (2·2·1² + 2·1·1²)/9 = 6/9.
// D_e = 2·(n_0·n_1·1 + n_0·n_2·4 + n_1·n_2·1)/(9·8) = 2·(5 + 12 + 15)/72 = 64/72.
// α = 1 − (6/9)/(64/72) = 1 − 48/64 = 0.25.
const faithfulnessAlpha = 0.25

func near(t *testing.T, what string, got *float64, want float64) {
	t.Helper()
	if got == nil || math.Abs(*got-want) > 1e-9 {
		g := "nil"
		if got != nil {
			g = strconv.FormatFloat(*got, 'f', 6, 64)
		}
		t.Errorf("%s = %s; want %.6f", what, g, want)
	}
}

func TestBadLabelsNameFileLineAndItem(t *testing.T) {
	srv := truthJudge(t, 0)
	for _, tc := range []struct {
		name, labels, want string
	}{
		{"off the scale", "- name: o1\n  item: q1\n  output: x\n  labels:\n    accuracy: 3\n",
			`labels.yaml:5: item "q1": calibration output "o1": labels.accuracy: 3 is not on the 0-2 scale; want a whole number from 0 to 2, or n/a for no label`},
		{"not a judged dimension", "- name: o1\n  item: q1\n  output: x\n  labels:\n    accuracy: 1\n    brevity: 1\n",
			`labels.yaml:6: item "q1": calibration output "o1": labels name "brevity", which is not a judged dimension; want one of accuracy, faithfulness`},
		{"a word", "- name: o1\n  item: q1\n  output: x\n  labels:\n    accuracy: good\n",
			`labels.yaml:5: item "q1": calibration output "o1": labels.accuracy: good is not on the 0-2 scale`},
		{"a list in a list", "- name: o1\n  item: q1\n  output: x\n  labels:\n    accuracy: [[1]]\n",
			`labels.yaml:5: item "q1": calibration output "o1": labels.accuracy is [[1]]; want a value`},
		{"no labels", "- name: o1\n  item: q1\n  output: x\n",
			`labels.yaml:1: item "q1": calibration output "o1": no labels`},
		{"duplicate", "- {name: o1, item: q1, output: x, labels: {accuracy: 1}}\n- {name: o1, item: q2, output: y, labels: {accuracy: 1}}\n",
			`labels.yaml:2: item "q2": calibration output "o1": duplicate name; first on line 1`},
		{"not a list", "name: o1\n", `labels.yaml:1: calibration.outputs is a list`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, text := range map[string]string{"evalgate.yaml": calibrationConfig, "labels.yaml": tc.labels} {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, err := config.Load(filepath.Join(dir, "evalgate.yaml"), &rubric.Env{Judges: &rubric.Judges{}})
			var ie *eval.InputError
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v; want it to contain %q", err, tc.want)
			}
			if !errors.As(err, &ie) {
				t.Errorf("err is %T; want an *eval.InputError (exit 2)", err)
			}
		})
	}
	if srv.Calls() != 0 {
		t.Errorf("judge calls = %d; a config refused calls no judge", srv.Calls())
	}
}

func TestAnItemNotInTheSuiteIsNamed(t *testing.T) {
	srv := truthJudge(t, 0)
	cfg := load(t, srv, calibrationConfig, "- {name: o1, item: q-404, output: x, labels: {accuracy: 1, faithfulness: 1}}\n")
	suite, err := eval.ParseSuite("suite.jsonl", []byte(`{"id": "q-1", "prompt": "p"}`+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = calibration.Measure(context.Background(), &cfg.Scoring, suite, cfg.Calibration)
	if err == nil || !strings.Contains(err.Error(), `labels.yaml:1: item "q-404": calibration output "o1": item "q-404" is not in suite.jsonl`) {
		t.Errorf("err = %v; want the file, line, item and output named", err)
	}
	if srv.Calls() != 0 {
		t.Errorf("%d judge calls for a bad set; want 0", srv.Calls())
	}
}
