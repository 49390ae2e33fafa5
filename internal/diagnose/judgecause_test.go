package diagnose_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/diagnose"
	"github.com/evalgate/evalgate/internal/rubric"
	"github.com/evalgate/evalgate/internal/testdata/evaltest"
)

// A judge whose every reply is unreadable is one cause, reported once: the judge-error
// finding names the dimension it takes down, and the systematic-miss rule does not say
// again that "the judge gives no credit anywhere".
func TestUnreadableJudgeIsOneFinding(t *testing.T) {
	// Scored as 1 of 1-10 (0 normalized, as a null counts), then relabelled as a judge
	// whose replies could not be read.
	sc := judgedScored(t, 1)
	for i := range sc.Runs[0].Samples {
		v := &sc.Runs[0].Samples[i].Values[0]
		v.Raw, v.Norm, v.Error = nil, 0, "parse_error"
	}
	fs := diagnose.Run(nil, diagnose.Input{Scored: sc})
	f := want(t, fs, diagnose.RuleJudgeErrors)
	if !strings.Contains(f.Message, "10 of 10 judged samples") || !strings.Contains(f.Message, "takes down `helpful`") {
		t.Errorf("message %q; want the share and the dimension it takes down", f.Message)
	}
	none(t, fs, diagnose.RuleSystematicMiss)
	if len(fs) != 1 {
		t.Errorf("%d findings for one cause: %v", len(fs), rules(fs))
	}
}

// judgedScored is ten items scored on a recorded 1-10 dimension, every one given
// helpful, and relabelled as an llm_judge dimension: scoring a judge needs a model (the
// judge package's tests cover that), the diagnosis rules read only the scores and the
// evaluator errors.
func judgedScored(t *testing.T, helpful int) *rubric.Scored {
	t.Helper()
	cfg := evaltest.Config(t, judgeRubric)
	var suiteB, resB strings.Builder
	suiteB.WriteString("name: judged\nitems:\n")
	for i := 0; i < 10; i++ {
		fmt.Fprintf(&suiteB, "  - {id: j-%d, prompt: p}\n", i)
		fmt.Fprintf(&resB, `{"id": "j-%d", "output": "x", "scores": {"helpful": %d}}`+"\n", i, helpful)
	}
	sc := evaltest.Score(t, cfg, suiteB.String(), resB.String())
	sc.System.Dimensions[0].Scorer = "llm_judge"
	return sc
}
