package rubric_test

import (
	"testing"

	"github.com/evalgate/evalgate/internal/testdata/evaltest"
)

// The rubric hash covers what decides a score: another judge model or template must
// change it (a baseline judged otherwise is re-scored), the place of the config must not.
func TestHashCoversTheJudge(t *testing.T) {
	cfg := func(model, template string) string {
		return `
judges:
  default: {model: ` + model + `, template: ` + template + `, replay: true}
scoring:
  version: scoringSystem/1.0.0
  dimensions:
    - {name: accuracy, weight: 1, scorer: llm_judge, key: accuracy_score, scale: "0-2"}
grading: {version: gradingSystem/1.0.0}
`
	}
	base := evaltest.Config(t, cfg("judge-a-2025-01-01", "seed001")).Scoring.Hash()
	again := evaltest.Config(t, cfg("judge-a-2025-01-01", "seed001")).Scoring.Hash() // another temp dir
	if base != again {
		t.Errorf("the same rubric in another directory hashes %s, then %s", base, again)
	}
	if h := evaltest.Config(t, cfg("judge-b-2025-01-01", "seed001")).Scoring.Hash(); h == base {
		t.Error("another judge model leaves the rubric hash unchanged")
	}
}
