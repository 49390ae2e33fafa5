package importer_test

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/importer"
	"github.com/evalgate/evalgate/internal/rubric"
)

// pfErrTruth is what promptfoo recorded of one result, read with plain encoding/json.
type pfErrTruth struct {
	TestCase struct {
		Description string `json:"description"`
	} `json:"testCase"`
	Score         float64 `json:"score"`
	Success       bool    `json:"success"`
	Error         string  `json:"error"`
	FailureReason int     `json:"failureReason"`
	Response      *struct {
		Error  string `json:"error"`
		Output any    `json:"output"`
	} `json:"response"`
	GradingResult *struct {
		ComponentResults []struct {
			Score     float64 `json:"score"`
			Assertion *struct {
				Type   string `json:"type"`
				Metric string `json:"metric"`
			} `json:"assertion"`
		} `json:"componentResults"`
	} `json:"gradingResult"`
}

// errored says whether promptfoo counts the result as an error, not a failure: the
// provider failed (0.123's failureReason 2; 0.100 counts it among the failures but
// records the provider's error on the response).
func (tr pfErrTruth) errored() bool {
	return tr.FailureReason == 2 || tr.Response != nil && tr.Response.Error != ""
}

// pfPassRubric passes a sample exactly when promptfoo's own `success` does, so the
// pass counts are promptfoo's; its score is promptfoo's test score.
const pfPassRubric = `
scoring:
  version: scoringSystem/1.0.0
  dimensions:
    - {name: pf_score, key: score, weight: 1, scorer: recorded, scale: unit}
    - {name: correctness, weight: 0, scorer: recorded, scale: unit, default: n/a}
    - {name: javascript, weight: 0, scorer: recorded, scale: unit, default: n/a}
    - {name: success, weight: 0, scorer: recorded, scale: pass_fail}
  pass:
    require:
      - {dimension: success, min: 1}
grading:
  version: gradingSystem/1.0.0
`

// A --repeat 3 export from promptfoo itself, with provider errors in some calls and
// javascript assertions (testdata/promptfoo/errors: a stand-in provider fails the 2nd
// call of "json answer" and the 1st of "flaky service"), read directly as 3 runs: the
// pass counts reproduce promptfoo's stats.successes / failures / errors, an errored
// call fails with score 0 and is counted in `errors`, and each test's score in each
// run is the one promptfoo recorded.
func TestPromptfooRealRepeatErrors(t *testing.T) {
	if testing.Short() {
		t.Skip("runs promptfoo")
	}
	for _, version := range promptfooVersions {
		t.Run(version, func(t *testing.T) {
			jsonPath, jsonlPath := runPromptfooIn(t, version, "testdata/promptfoo/errors", "3")
			data, err := os.ReadFile(jsonPath)
			if err != nil {
				t.Fatal(err)
			}
			var doc struct {
				Results struct {
					Results []pfErrTruth `json:"results"`
					Stats   struct {
						Successes int  `json:"successes"`
						Failures  int  `json:"failures"`
						Errors    *int `json:"errors"` // 0.100 counts errors among the failures
					} `json:"stats"`
				} `json:"results"`
			}
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatal(err)
			}
			truth, stats := doc.Results.Results, doc.Results.Stats
			if len(truth) != 12 { // 4 tests × --repeat 3
				t.Fatalf("promptfoo wrote %d results; want 12", len(truth))
			}
			// The stand-in provider fails twice: promptfoo's own counts say so.
			wantErrors := 0
			for _, tr := range truth {
				if tr.errored() {
					wantErrors++
				}
			}
			if wantErrors != 2 {
				t.Fatalf("promptfoo recorded %d provider errors; want 2 (the fixture's)", wantErrors)
			}
			if stats.Errors != nil && *stats.Errors != wantErrors {
				t.Fatalf("stats.errors %d; the results hold %d", *stats.Errors, wantErrors)
			}
			for _, path := range []string{jsonPath, jsonlPath} {
				t.Run(filepath.Ext(path), func(t *testing.T) {
					checkRepeatErrors(t, path, truth, stats.Successes, stats.Failures, wantErrors, stats.Errors != nil)
				})
			}
		})
	}
}

func checkRepeatErrors(t *testing.T, path string, truth []pfErrTruth, successes, failures, errs int, errorsApart bool) {
	var warnings []string
	runs, _, err := importer.LoadRuns(path, importer.Options{Warn: func(s string) { warnings = append(warnings, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) > 0 {
		t.Errorf("warnings %q; every assertion names itself here", warnings)
	}
	if len(runs) != 3 {
		t.Fatalf("%d runs; want 3 (one per repeat)", len(runs))
	}
	// check and score read the file as it is decoded (importer.Direct): the same runs.
	direct, _ := directRuns(t, path, nil)
	if len(direct) != 3 {
		t.Fatalf("read directly: %d runs; want 3", len(direct))
	}
	for i, run := range runs {
		if len(direct[i]) != len(run.Results) {
			t.Fatalf("run %d read directly: %d records; LoadRuns %d", i+1, len(direct[i]), len(run.Results))
		}
		for k, w := range run.Results {
			if g := direct[i][k]; g.ID != w.ID || g.Output != w.Output || g.Error != w.Error || g.Scores["score"] != w.Scores["score"] {
				t.Errorf("run %d record %d read directly differs from LoadRuns's (%s)", i+1, k, w.ID)
			}
		}
	}
	suite, err := eval.SuiteFromRun(runs[0])
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Parse(filepath.Join(t.TempDir(), "evalgate.yaml"), []byte(pfPassRubric), nil)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := rubric.Score(context.Background(), &cfg.Scoring, suite, runs)
	if err != nil {
		t.Fatal(err)
	}
	pass, errored, scored := 0, 0, 0
	for _, r := range sc.Runs {
		pass += int(math.Round(r.Metrics[rubric.MetricPassRate] * r.Metrics[rubric.MetricScoredItems]))
		errored += int(r.Metrics[rubric.MetricErrors])
		scored += int(r.Metrics[rubric.MetricScoredItems])
	}
	if pass != successes {
		t.Errorf("%d samples pass over the 3 runs; promptfoo's stats.successes is %d", pass, successes)
	}
	if errored != errs {
		t.Errorf("%d errors counted; promptfoo recorded %d", errored, errs)
	}
	// Every sample is scored, the errored ones too (as failures): none is pending.
	if scored != 12 {
		t.Errorf("%d samples scored; want all 12 (an errored one fails, it does not leave the pass rate)", scored)
	}
	wantFail := failures
	if errorsApart {
		wantFail += errs // 0.123 counts errors apart from failures; evalgate fails both
	}
	if got := scored - pass; got != wantFail {
		t.Errorf("%d samples fail; promptfoo: %d failures and %d errors", got, failures, errs)
	}
	dim := map[string]int{}
	for i, d := range cfg.Scoring.Dimensions {
		dim[d.Name] = i
	}
	// promptfoo writes a test's repeats one after another: the k-th occurrence of a
	// test is run k.
	occurrence := map[string]int{}
	for _, tr := range truth {
		id := tr.TestCase.Description
		run := occurrence[id]
		occurrence[id]++
		it, ok := suite.Item(id)
		if !ok {
			t.Fatalf("no item %q", id)
		}
		sm := sc.Runs[run].Samples[it.Index]
		if sm.Missing || sm.Pending {
			t.Errorf("%s run %d: missing %v, pending %v; want a scored sample", id, run+1, sm.Missing, sm.Pending)
			continue
		}
		if raw := sm.Values[dim["pf_score"]].Raw; raw == nil || math.Abs(*raw-tr.Score) > 1e-9 {
			t.Errorf("%s run %d: score %v; promptfoo recorded %v", id, run+1, raw, tr.Score)
		}
		if sm.Pass != tr.Success {
			t.Errorf("%s run %d: pass %v; promptfoo success %v", id, run+1, sm.Pass, tr.Success)
		}
		if tr.errored() {
			if sm.Result.Error == "" || sm.Score != 0 {
				t.Errorf("%s run %d: error %q, score %v; promptfoo's provider error must fail with score 0", id, run+1, sm.Result.Error, sm.Score)
			}
			continue
		}
		if sm.Result.Error != "" {
			t.Errorf("%s run %d: error %q; only a provider error is an error", id, run+1, sm.Result.Error)
		}
		// The defaultTest javascript assertion (no metric) is the first component result.
		js := tr.GradingResult.ComponentResults[0]
		if js.Assertion != nil && js.Assertion.Type != "javascript" {
			t.Fatalf("%s: first assertion %q; want the defaultTest javascript", id, js.Assertion.Type)
		}
		if raw := sm.Values[dim["javascript"]].Raw; raw == nil || math.Abs(*raw-js.Score) > 1e-9 {
			t.Errorf("%s run %d: javascript %v; promptfoo recorded %v", id, run+1, raw, js.Score)
		}
	}
}
