package importer_test

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/importer"
	"github.com/evalgate/evalgate/internal/rubric"
)

// scoreFile imports a file and scores it under rubric, keeping every sample.
func scoreFile(t *testing.T, path, rubricYAML string) *rubric.Scored {
	t.Helper()
	runs, _, err := importer.LoadRuns(path, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	suite, err := eval.SuiteFromRun(runs[0])
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Parse(filepath.Join(t.TempDir(), "evalgate.yaml"), []byte(rubricYAML), nil)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := rubric.Score(context.Background(), &cfg.Scoring, suite, runs)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// An Inspect log with 2 epochs and a sample that errored in epoch 2: 2 runs; the
// errored sample fails with score 0 and is counted in `errors` (never pending, never
// lifting the mean); over the samples Inspect scored, the aggregate is the log's own
// accuracy (each sample's scored epochs reduced by mean, then the mean over samples).
func TestInspectEpochsWithErrorMatchLogMetrics(t *testing.T) {
	path := inspectFile("epochs-error.json")
	var log struct {
		Results struct {
			CompletedSamples int `json:"completed_samples"`
			Scores           []struct {
				Name    string `json:"name"`
				Metrics map[string]struct {
					Value float64 `json:"value"`
				} `json:"metrics"`
			} `json:"scores"`
		} `json:"results"`
	}
	data, _ := os.ReadFile(path)
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatal(err)
	}
	sc := scoreFile(t, path, `
scoring:
  version: scoringSystem/1.0.0
  dimensions:
    - {name: match, weight: 1, scorer: recorded, scale: unit, default: n/a}
grading:
  version: gradingSystem/1.0.0
`)
	if len(sc.Runs) != 2 {
		t.Fatalf("%d runs; want 2 (epochs)", len(sc.Runs))
	}
	errs, scoredSamples := 0, 0
	sum, n := 0.0, 0
	for i := range sc.Suite.Len() {
		itemSum, itemN := 0.0, 0
		for r := range sc.Runs {
			sm := sc.Runs[r].Samples[i]
			if sm.Pending || sm.Missing {
				t.Fatalf("%s epoch %d: pending %v missing %v; want every sample scored", sc.Suite.ID(i), r+1, sm.Pending, sm.Missing)
			}
			if sm.Result.Error != "" {
				errs++
				if sm.Score != 0 || sm.Pass {
					t.Errorf("%s epoch %d errored: score %v pass %v; want 0, failing", sc.Suite.ID(i), r+1, sm.Score, sm.Pass)
				}
				continue
			}
			scoredSamples++
			itemSum += *sm.Values[0].Raw
			itemN++
		}
		if itemN > 0 {
			sum += itemSum / float64(itemN)
			n++
		}
	}
	if errs != 1 || scoredSamples != log.Results.CompletedSamples {
		t.Errorf("%d errored, %d scored samples; the log: 1 errored, %d completed", errs, scoredSamples, log.Results.CompletedSamples)
	}
	want := log.Results.Scores[0].Metrics["accuracy"].Value
	if got := sum / float64(n); math.Abs(got-want) > 1e-12 {
		t.Errorf("accuracy over the scored samples %.12f; the log says %.12f", got, want)
	}
	// evalgate's own figures: the error counted apart, and scored 0 in its run.
	// Run 1: q1 1, q2 0, q3 1 → 2/3; run 2: q1 1, q2 1, q3 error 0 → 2/3.
	if e := sc.Runs[1].Metrics[rubric.MetricErrors]; e != 1 {
		t.Errorf("run 2 errors %v; want 1", e)
	}
	for r, want := range []float64{0.666666667, 0.666666667} {
		if got := sc.Runs[r].Metrics[rubric.MetricMeanScore]; got != want {
			t.Errorf("run %d mean %v; want %v", r+1, got, want)
		}
	}
}

// lm-eval samples next to their results_<date>.json: each filter's mean of the
// per-sample metric is the results file's figure for that metric and filter (the
// fixture's figures carry 4 decimals).
func TestLMEvalSamplesMatchResultsFile(t *testing.T) {
	samples := lmFile("gsm8k")
	var res struct {
		Results map[string]map[string]any `json:"results"`
	}
	data, err := os.ReadFile(filepath.Join(filepath.Dir(samples), "results_"+lmDate+".json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	sc := scoreFile(t, samples, `
scoring:
  version: scoringSystem/1.0.0
  dimensions:
    - {name: exact_match_strict_match, weight: 0.5, scorer: recorded, scale: unit}
    - {name: exact_match_flexible_extract, weight: 0.5, scorer: recorded, scale: unit}
grading:
  version: gradingSystem/1.0.0
`)
	checked := 0
	for key, v := range res.Results["gsm8k"] {
		metric, filter, ok := strings.Cut(key, ",")
		if !ok || strings.HasSuffix(metric, "_stderr") {
			continue
		}
		name := importer.Ident(metric + "_" + filter)
		got, ok := sc.Metrics[name+"_score"]
		if !ok {
			t.Errorf("no dimension %s for the results file's %q", name, key)
			continue
		}
		if want := v.(float64); math.Abs(got-want) > 5e-5 {
			t.Errorf("%s: mean %.6f over the samples; the results file says %v", key, got, want)
		}
		checked++
	}
	if checked != 2 {
		t.Errorf("compared %d figures; want the 2 filters", checked)
	}
}

// FirstRun keeps the first repeat or epoch only (judge-check reads one run's outputs):
// the same run LoadRuns gives first without it.
func TestLoadRunsFirstRun(t *testing.T) {
	for _, path := range []string{pfFile("errors/results-0.123.1.json"), inspectFile("epochs.json")} {
		all, _, err := importer.LoadRuns(path, importer.Options{})
		if err != nil {
			t.Fatal(err)
		}
		first, _, err := importer.LoadRuns(path, importer.Options{FirstRun: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(all) < 2 || len(first) != 1 || !reflect.DeepEqual(first[0], all[0]) {
			t.Errorf("%s: %d runs, %d with FirstRun; want several, and the first alone", path, len(all), len(first))
		}
	}
}
