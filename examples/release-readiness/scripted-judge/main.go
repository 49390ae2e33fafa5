// Command scripted-judge makes the release-readiness example's judge replay cache.
//
// No model is reachable where this example was made, so the judge's verdicts are
// scripted: each results record carries the 0–2 scores a reviewer gave it (`scores`),
// and this program records them in the judge cache as if seed 001's judge had answered,
// labelled with the model "scripted-judge" so nobody mistakes them for a model's.
// `evalgate check` then runs the real llm_judge scorer in replay mode: offline, and
// with the same report every time.
//
//	go run ./examples/release-readiness/scripted-judge
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/judge"
	"github.com/evalgate/evalgate/internal/rubric"
)

const cfgPath = "examples/release-readiness/evalgate.yaml"

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "scripted-judge:", err)
		os.Exit(1)
	}
}

func run() error {
	// The labels: (item id, candidate output) → the reviewer's scores.
	labels := map[[2]string]judge.Judgment{}
	env := &rubric.Env{Judges: &rubric.Judges{
		Override: func(c *judge.Config) { c.Replay = true },
		Script: func(r judge.Request) (judge.Judgment, bool) {
			v, ok := labels[[2]string{r.ID, r.CandidateAnswer}]
			return v, ok
		},
	}}
	cfg, err := config.Load(cfgPath, env)
	if err != nil {
		return err
	}
	suite, err := eval.LoadSuite(cfg.Path(cfg.Suite))
	if err != nil {
		return err
	}
	var runs []*eval.Run
	for _, p := range cfg.Results {
		run, err := eval.LoadRun(cfg.Path(p))
		if err != nil {
			return err
		}
		runs = append(runs, run)
		for _, res := range run.Results {
			v := judge.Judgment{Model: "scripted-judge", Rationale: "scripted: the reviewer's label recorded in the results file", Scores: map[string]*float64{}}
			for _, k := range []string{"accuracy_score", "faithfulness_score"} {
				raw, _ := res.Scores[k].(float64)
				if res.Scores[k] == nil {
					v.Scores[k] = nil
					v.EvaluatorError = judge.ErrorParse
					v.Rationale = ""
					continue
				}
				v.Scores[k] = &raw
			}
			if v.EvaluatorError != "" {
				v.Scores = map[string]*float64{"accuracy_score": nil, "faithfulness_score": nil}
			}
			key := [2]string{res.ID, res.Output}
			if old, dup := labels[key]; dup && scoresText(old) != scoresText(v) {
				return fmt.Errorf("%s:%d: item %q: the same output is labelled differently in two runs", run.File, res.Line, res.ID)
			}
			labels[key] = v
		}
	}
	sc, err := rubric.Score(context.Background(), &cfg.Scoring, suite, runs)
	if err != nil {
		return err
	}
	fmt.Printf("recorded %d scripted verdicts; mean score %.4f\n", len(labels), sc.Metrics[rubric.MetricMeanScore])
	return nil
}

// scoresText prints a verdict's scores by value, for comparison.
func scoresText(v judge.Judgment) string {
	out := ""
	for _, k := range []string{"accuracy_score", "faithfulness_score"} {
		if p := v.Scores[k]; p != nil {
			out += fmt.Sprintf("%s=%v ", k, *p)
		} else {
			out += k + "=null "
		}
	}
	return out
}
