package diagnose

import (
	"fmt"
	"strings"

	"github.com/evalgate/evalgate/internal/rubric"
)

// judgeErrors: judge parse errors above a share of the judged samples. It also says
// which judged dimensions those errors take down (covered): the ones whose samples are
// unreadable at the systematic-miss share, so that rule does not report the same cause
// again as "the judge gives no credit anywhere".
func judgeErrors(c settings, in Input) ([]Finding, []bool) {
	sc := in.Scored
	covered := make([]bool, len(sc.System.Dimensions))
	if !c.judgeOn {
		return nil, covered
	}
	judgedD := make([]int, len(sc.System.Dimensions))
	errsD := make([]int, len(sc.System.Dimensions))
	judged, errs := 0, 0
	eachSample(sc, func(sm *rubric.Sample) {
		if sm.Missing {
			return
		}
		for d, dim := range sc.System.Dimensions {
			if dim.Scorer != "llm_judge" || d >= len(sm.Values) || sm.Values[d].Excluded {
				continue
			}
			judged++
			judgedD[d]++
			if sm.Values[d].Error != "" {
				errs++
				errsD[d]++
			}
		}
	})
	if judged == 0 || errs == 0 || float64(errs) <= c.judgeShare*float64(judged) {
		return nil, covered
	}
	var down []string
	for d, dim := range sc.System.Dimensions {
		if judgedD[d] > 0 && float64(errsD[d]) >= c.sysShare*float64(judgedD[d]) {
			covered[d] = true
			down = append(down, code(dim.Name))
		}
	}
	msg := fmt.Sprintf("the judge's reply could not be read on %d of %d judged samples (%.0f%%, above %.0f%%): those count 0",
		errs, judged, 100*float64(errs)/float64(judged), 100*c.judgeShare)
	if len(down) > 0 {
		msg += ", which takes down " + strings.Join(down, ", ")
	}
	msg += ", so check the judge's template, model and replies before reading the score."
	return []Finding{{Rule: RuleJudgeErrors, Message: msg}}, covered
}

// eachSample calls fn with every sample: the ones the scoring kept, or, for a streamed
// suite, each rebuilt from the compact scores (without its result).
func eachSample(sc *rubric.Scored, fn func(sm *rubric.Sample)) {
	kept := len(sc.Runs) > 0
	for r := range sc.Runs {
		kept = kept && sc.Runs[r].Samples != nil
	}
	if !kept {
		sc.EachSample(func(_, _ int, sm *rubric.Sample) { fn(sm) })
		return
	}
	for r := range sc.Runs {
		for i := range sc.Runs[r].Samples {
			fn(&sc.Runs[r].Samples[i])
		}
	}
}
