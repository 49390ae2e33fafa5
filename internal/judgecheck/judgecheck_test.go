package judgecheck_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/judge"
	"github.com/evalgate/evalgate/internal/judge/live"
	"github.com/evalgate/evalgate/internal/judgecheck"
	"github.com/evalgate/evalgate/internal/rubric"
	"github.com/evalgate/evalgate/internal/testdata/chattest"
)

var truthRE = regexp.MustCompile(`true score (\d)`)

// flippingJudge is a fake OpenAI-compatible judge on a 0–2 scale: each output
// announces its true score, and each verdict is flipped with probability p to one of
// the two other values (equally likely). The flips are drawn from a hash of the prompt
// and how many times that prompt was asked, so the test is deterministic whatever the
// order of concurrent calls.
func flippingJudge(t *testing.T, p float64) *chattest.Server {
	var asked chattest.Asked
	return chattest.New(t, "/v1", func(_ int, req chattest.Request) chattest.Reply {
		prompt := req.Prompt()
		m := truthRE.FindStringSubmatch(prompt)
		if m == nil {
			t.Errorf("no true score in %.100q", prompt)
			return chattest.Reply{Status: 400}
		}
		truth, _ := strconv.Atoi(m[1])
		v := chattest.Flip(truth, asked.Next(prompt), prompt, p)
		b, _ := json.Marshal(map[string]any{"accuracy_score": v, "faithfulness_score": v, "rationale": "r"})
		return chattest.Reply{Content: string(b), PromptTokens: 10, CompletionTokens: 5}
	})
}

func outputs(t *testing.T, n int) ([]*eval.Item, []*eval.Result) {
	t.Helper()
	var suite strings.Builder
	var recs []map[string]any
	for i := range n {
		id := fmt.Sprintf("i%03d", i)
		fmt.Fprintf(&suite, `{"id": %q, "prompt": "Question %d", "expected": "answer %d"}`+"\n", id, i, i)
		recs = append(recs, map[string]any{"id": id, "output": fmt.Sprintf("answer %d, true score %d", i, i%3)})
	}
	s, err := eval.ParseSuite("suite.jsonl", []byte(suite.String()))
	if err != nil {
		t.Fatal(err)
	}
	run, err := eval.RunFromRecords("run.jsonl", recs)
	if err != nil {
		t.Fatal(err)
	}
	items := make([]*eval.Item, n)
	for i := range items {
		items[i] = s.At(i)
	}
	return items, run.Results
}

func fresh(t *testing.T, srv *chattest.Server) func(int, int) (*rubric.System, error) {
	return func(int, int) (*rubric.System, error) {
		sys := &rubric.System{Version: "scoringSystem/1.0.0", Dimensions: []rubric.Dimension{
			{Name: "accuracy", Weight: 0.6, Scorer: "llm_judge", Key: "accuracy_score", Scale: "0-2"},
			{Name: "length", Weight: 0.4, Scorer: "word_budget", MaxWords: 50},
		}}
		cfg := judge.Config{Model: "flipper-1", BaseURL: srv.BaseURL(), APIKey: "k", NoCache: true}
		return sys, sys.Build(t.TempDir(), &rubric.Env{Judges: &rubric.Judges{Configs: map[string]judge.Config{"default": cfg}, Options: []judge.Option{live.Calls()}}})
	}
}

// The measured α of a judge that flips a known share p of its verdicts matches what p
// implies. With true scores spread evenly over 0, 1, 2 and a flip going to either
// other value, the verdicts are spread evenly too, so on the interval metric
// D_e = E(X − Y)² = 2·Var = 4/3, and two verdicts of one output differ by
// D_o = 2·E[Var(J | t)] = 2·(2p − 1.5p²) = 4p − 3p² (Var(J | t) is 2.5p − 2.25p² for
// t = 0 or 2 and p for t = 1). So α = 1 − D_o/D_e = 1 − 3p + 2.25p²: 0.49 at p = 0.2,
// 0.8556 at p = 0.05. Exact agreement is (1 − p)² + p²/2: 0.66 at p = 0.2. The
// variance on the normalized (÷2) scale is (2p − 1.5p²)/4: 0.085 at p = 0.2.
func TestMeasuredAlphaMatchesTheFlipRate(t *testing.T) {
	items, results := outputs(t, 300)
	for _, p := range []float64{0.2, 0.05} {
		srv := flippingJudge(t, p)
		m, err := judgecheck.Measure(context.Background(), judgecheck.Options{
			Fresh: fresh(t, srv), Items: items, Results: results, Sample: 300, Repeats: 3})
		if err != nil {
			t.Fatal(err)
		}
		if srv.Calls() != 900 {
			t.Errorf("p=%v: %d calls; want 300 outputs × 3 repeats, the cache bypassed", p, srv.Calls())
		}
		if len(m.Dimensions) != 1 || m.Dimensions[0].Name != "accuracy" {
			t.Fatalf("dimensions %+v; want accuracy only (length is not judged)", m.Dimensions)
		}
		d := m.Dimensions[0]
		wantAlpha := 1 - 3*p + 2.25*p*p
		wantExact := (1-p)*(1-p) + p*p/2
		wantVar := (2*p - 1.5*p*p) / 4
		// 300 outputs × 3 repeats: the sampling error of α is about 0.02–0.03 at these
		// rates; 0.06 is over two of them.
		if d.Alpha == nil || math.Abs(*d.Alpha-wantAlpha) > 0.06 {
			t.Errorf("p=%v: α = %v; the flip rate implies %.4f", p, d.Alpha, wantAlpha)
		}
		if d.Exact == nil || math.Abs(*d.Exact-wantExact) > 0.05 {
			t.Errorf("p=%v: exact agreement %v; want about %.3f", p, d.Exact, wantExact)
		}
		if math.Abs(d.Variance-wantVar) > 0.02 {
			t.Errorf("p=%v: variance %v; want about %.4f", p, d.Variance, wantVar)
		}
		if d.Units != 300 || d.Weight != 0.6 || d.Level != "interval" {
			t.Errorf("p=%v: %+v", p, d)
		}
		t.Logf("p=%v: α %.4f (implied %.4f), exact %.3f (implied %.3f), variance %.4f (implied %.4f)", p, *d.Alpha, wantAlpha, *d.Exact, wantExact, d.Variance, wantVar)
	}
}

func TestSampleIsDeterministicAndBounded(t *testing.T) {
	a, b := judgecheck.Sample(1000, 50), judgecheck.Sample(1000, 50)
	if len(a) != 50 || fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatalf("samples %v / %v", a, b)
	}
	for i := 1; i < len(a); i++ {
		if a[i] <= a[i-1] || a[i] >= 1000 {
			t.Fatalf("not increasing distinct indices: %v", a)
		}
	}
	if got := judgecheck.Sample(7, 50); len(got) != 7 {
		t.Errorf("fewer outputs than the sample: %v; want all 7", got)
	}
}
