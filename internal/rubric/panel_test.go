package rubric_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/judge"
	"github.com/evalgate/evalgate/internal/judge/live"
	"github.com/evalgate/evalgate/internal/reliability"
	"github.com/evalgate/evalgate/internal/rubric"
	"github.com/evalgate/evalgate/internal/testdata/chattest"
)

// qualityRE reads the true quality a test output announces ("quality 6").
var qualityRE = regexp.MustCompile(`quality (\d+)`)

// biasedPanelServer is a fake OpenAI-compatible judge answering the rubric-1-10
// template: every model scores accuracy at the output's true quality, except
// "model-b", which scores everything 2 higher (at most 10).
func biasedPanelServer(t *testing.T) *chattest.Server {
	return chattest.New(t, "/v1", func(_ int, req chattest.Request) chattest.Reply {
		m := qualityRE.FindStringSubmatch(req.Prompt())
		if m == nil {
			t.Errorf("prompt without a quality: %.200q", req.Prompt())
			return chattest.Reply{Status: 400}
		}
		q, _ := strconv.Atoi(m[1])
		if req.Model == "model-b" {
			q = min(q+2, 10)
		}
		b, _ := json.Marshal(map[string]any{"accuracy": q, "relevance": q, "completeness": q, "conciseness": q, "clarity": q, "notes": "ok"})
		return chattest.Reply{Content: string(b), PromptTokens: 50, CompletionTokens: 20}
	})
}

func panelSystem(t *testing.T, srv *chattest.Server, panel *rubric.Panel) *rubric.System {
	t.Helper()
	dir := t.TempDir()
	cfgs := map[string]judge.Config{}
	for _, n := range []string{"a", "b", "c"} {
		cfgs[n] = judge.Config{Model: "model-" + n, Template: judge.TemplateRubric, BaseURL: srv.BaseURL(), APIKey: "k", CacheDir: dir}
	}
	sys := &rubric.System{Version: "scoringSystem/1.0.0", Dimensions: []rubric.Dimension{
		{Name: "accuracy", Weight: 1, Scorer: "llm_judge", Scale: "1-10", Normalize: "max", Panel: panel},
	}}
	if err := sys.Build(dir, &rubric.Env{Judges: &rubric.Judges{Configs: cfgs, Options: []judge.Option{live.Calls()}}}); err != nil {
		t.Fatal(err)
	}
	return sys
}

func qualitySample(t *testing.T, q int) (*eval.Item, *eval.Result) {
	t.Helper()
	id := fmt.Sprintf("q%d", q)
	s, err := eval.ParseSuite("suite.jsonl", []byte(fmt.Sprintf(`{"id": %q, "prompt": "Explain TLS."}`+"\n", id)))
	if err != nil {
		t.Fatal(err)
	}
	run, err := eval.RunFromRecords("run.jsonl", []map[string]any{{"id": id, "output": fmt.Sprintf("an answer of quality %d", q)}})
	if err != nil {
		t.Fatal(err)
	}
	return s.At(0), run.Results[0]
}

func scoreQuality(t *testing.T, sys *rubric.System, q int) rubric.Value {
	t.Helper()
	it, res := qualitySample(t, q)
	vals, _, errs := sys.ScoreOne(context.Background(), it, res, nil)
	if errs[0] != nil {
		t.Fatal(errs[0])
	}
	return vals[0]
}

// A panel of three reviewers where b scores everything 2 higher: z-normalization with
// the baseline's per-reviewer moments removes b's bias, and the values match a hand
// computation of x' = μ_pool + σ_pool·(x − μ_r)/σ_r.
func TestPanelZNormalizationRemovesAReviewersBias(t *testing.T) {
	srv := biasedPanelServer(t)
	sys := panelSystem(t, srv, &rubric.Panel{Judges: []string{"a", "b", "c"}, ZNormalize: true})
	if !sys.NeedsPanelMoments() {
		t.Fatal("a z-normalizing panel without moments should ask for them")
	}
	// The baseline: outputs of quality 4, 5, 6, 7. Not normalized yet (no moments):
	// the plain mean, e.g. quality 4 → (4 + 6 + 4)/3 = 4.667.
	for q := 4; q <= 7; q++ {
		v := scoreQuality(t, sys, q)
		if want := float64(3*q+2) / 3; math.Abs(*v.Raw-want) > 1e-9 || !strings.Contains(v.Note, "not z-normalized") {
			t.Errorf("quality %d before moments: %v (%s); want %.4f", q, *v.Raw, v.Note, want)
		}
	}
	// Reviewer moments: a and c scored 4, 5, 6, 7 (mean 5.5, std √(5/3) = 1.2910);
	// b scored 6, 7, 8, 9 (mean 7.5, same std). Pooled: 12 scores, mean 74/12 = 6.1667;
	// squared deviations 3·5 within + 4·(2/3)² + 4·(4/3)² + 4·(2/3)² = 15 + 32/3 = 77/3
	// → std √(77/3/11) = √(7/3) = 1.5275.
	m := sys.ObservedPanelMoments()["accuracy"]
	check := func(name string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("%s = %.6f; want %.6f", name, got, want)
		}
	}
	check("a mean", m.Reviewers["a"].Mean, 5.5)
	check("a std", m.Reviewers["a"].Std, math.Sqrt(5.0/3))
	check("b mean", m.Reviewers["b"].Mean, 7.5)
	check("pooled mean", m.Pooled.Mean, 74.0/12)
	check("pooled std", m.Pooled.Std, math.Sqrt(7.0/3))
	if m.Pooled.N != 12 {
		t.Errorf("pooled n %d; want 12", m.Pooled.N)
	}
	sys.SetPanelMoments(map[string]reliability.Panel{"accuracy": m})

	// The pull request's output of quality 6: a 6, b 8, c 6. Each z = 0.5/√(5/3) =
	// √0.15 = 0.3873, so each maps to 37/6 + √(7/3)·√0.15 = 6.1667 + √0.35 = 6.7583: b's
	// +2 is gone, and the mean is 6.7583 (the raw mean would be 6.667).
	calls := srv.Calls()
	v := scoreQuality(t, sys, 6)
	check("quality 6", *v.Raw, 37.0/6+math.Sqrt(0.35))
	check("quality 6 normalized", v.Norm, (37.0/6+math.Sqrt(0.35))/10)
	const note = "reviewers: a 6 (z-normalized 6.76), b 8 (z-normalized 6.76), c 6 (z-normalized 6.76); mean 6.758"
	if v.Note != note {
		t.Errorf("the note should keep each reviewer's raw and normalized score: %q; want %q", v.Note, note)
	}
	// docs/judge.md shows this note as the report's, word for word.
	if doc, err := os.ReadFile("../../docs/judge.md"); err != nil || !strings.Contains(string(doc), "`"+note+"`") {
		t.Errorf("docs/judge.md does not show the panel's note as the report words it (%v): want `%s`", err, note)
	}
	if srv.Calls() != calls {
		t.Errorf("quality 6 was judged before by every reviewer: %d new call(s); want 0 (cached per reviewer)", srv.Calls()-calls)
	}
	// A uniform drop is not erased: quality 4 → z = −1.5/√(5/3) for every reviewer →
	// 37/6 − √(7/3)·1.5·√0.6 = 4.3919, below the baseline's pooled mean.
	v = scoreQuality(t, sys, 4)
	check("quality 4", *v.Raw, 37.0/6-math.Sqrt(7.0/3)*1.5*math.Sqrt(0.6))

	// Each reviewer called once per distinct output: 3 reviewers × 4 outputs.
	if got := srv.Calls(); got != 12 {
		t.Errorf("%d calls; want 12 (3 reviewers × 4 outputs)", got)
	}
}

// Median and majority, and a reviewer's broken reply leaving the dimension null.
func TestPanelAggregates(t *testing.T) {
	for _, tc := range []struct {
		how  string
		xs   []float64
		want float64
	}{
		{rubric.AggregateMean, []float64{6, 8, 6}, 20.0 / 3},
		{rubric.AggregateMedian, []float64{9, 2, 6}, 6},
		{rubric.AggregateMedian, []float64{9, 2, 6, 7}, 6.5},
		{rubric.AggregateMajority, []float64{7, 7.2, 3}, 7}, // 7.2 rounds to 7: two votes
		{rubric.AggregateMajority, []float64{8, 3, 5}, 3},   // a three-way tie goes to the lowest
	} {
		if got := rubric.Aggregate(tc.how, tc.xs); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s%v = %v; want %v", tc.how, tc.xs, got, tc.want)
		}
	}
}

// One model sampled k times is k reviewers with seeds seed, seed+1, ...; each is
// cached on its own.
func TestPanelSamplesOneJudgeSeveralTimes(t *testing.T) {
	srv := biasedPanelServer(t)
	sys := panelSystem(t, srv, &rubric.Panel{Judges: []string{"a"}, Samples: 3, Aggregate: rubric.AggregateMedian})
	v := scoreQuality(t, sys, 5)
	if *v.Raw != 5 || !strings.Contains(v.Note, "a#1 5, a#2 5, a#3 5") {
		t.Errorf("value %v, note %q", *v.Raw, v.Note)
	}
	seeds := map[int64]bool{}
	for _, r := range srv.Requests() {
		seeds[*r.Seed] = true
	}
	if len(seeds) != 3 || !seeds[42] || !seeds[43] || !seeds[44] {
		t.Errorf("seeds %v; want 42, 43, 44", seeds)
	}
	if len(sys.Evaluators()) != 3 {
		t.Errorf("evaluators %d; want one per reviewer", len(sys.Evaluators()))
	}
}
