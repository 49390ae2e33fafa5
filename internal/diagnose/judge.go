package diagnose

import (
	"fmt"

	"github.com/evalgate/evalgate/internal/rubric"
)

// judgeErrors: judge parse errors above a share of the judged samples.
func judgeErrors(c settings, in Input) []Finding {
	if !c.judgeOn {
		return nil
	}
	sc := in.Scored
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
			if sm.Values[d].Error != "" {
				errs++
			}
		}
	})
	if judged == 0 || errs == 0 || float64(errs) <= c.judgeShare*float64(judged) {
		return nil
	}
	return []Finding{{Rule: RuleJudgeErrors,
		Message: fmt.Sprintf("the judge's reply could not be read on %d of %d judged samples (%.0f%%, above %.0f%%): those count 0, so check the judge's template, model and replies before reading the score.",
			errs, judged, 100*float64(errs)/float64(judged), 100*c.judgeShare)}}
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
