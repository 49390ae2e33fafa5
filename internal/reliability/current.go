package reliability

import (
	"slices"
	"strings"
)

// Scored is a judged dimension as the current scoring system scores it: the judges
// that score it (its judge, or a panel's reviewers, named as a measurement names them)
// and its weight in the score.
type Scored struct {
	Name   string
	Judges []string
	Weight float64
}

// Unmeasured is a judged dimension whose current judge the baseline's measurement is
// not about: a judge of it changed its configuration (model, template or parameters)
// since the baseline was made, or the dimension is now scored by other judges. The
// baseline's figure is the old judge's; it is never borrowed for the new one, whose
// self-agreement is unknown until a baseline is made with it.
type Unmeasured struct {
	Dimension string `json:"dimension"`
	// Judge names the current judge, or a panel's reviewers joined by ", ".
	Judge string `json:"judge"`
	// Weight is the dimension's weight in the current score.
	Weight float64 `json:"weight"`
	// Why lists the changes that make the baseline's figure another judge's, e.g.
	// `judge "default": model gpt-a → gpt-b`.
	Why []string `json:"why"`
	// OldJudge and OldAlpha are the judge the baseline measured and its self-agreement
	// (nil: undefined), shown for information and never used for the verdict.
	OldJudge string   `json:"baseline_judge"`
	OldAlpha *float64 `json:"baseline_alpha"`
}

// Current is what the baseline's measurement m says about the judges scoring now, the
// dimensions cur: a dimension keeps its measured figures when it is scored by the
// judges the baseline measured and none of them changed its configuration since (a
// change of the provider's reported build alone keeps them: the configured judge is
// the same); otherwise it is unmeasured. Measured dimensions no longer judged are left
// out. With no measurement (nil m) nothing is known and nothing is unmeasured: the
// baseline measured no judge, so none lost its figure.
func Current(m *Measurement, changes []Change, cur []Scored) (*Measurement, []Unmeasured) {
	if m == nil {
		return nil, nil
	}
	changed := map[string][]string{}
	for _, c := range changes {
		if c.Rejudgeable {
			changed[c.Judge] = append(changed[c.Judge], c.String())
		}
	}
	out := &Measurement{Sample: m.Sample, Repeats: m.Repeats}
	var unmeasured []Unmeasured
	for _, s := range cur {
		d, ok := m.Find(s.Name)
		if !ok {
			continue // judged since the baseline: never measured, as before
		}
		judge := strings.Join(s.Judges, ", ")
		var why []string
		if d.Judge != "" && d.Judge != judge {
			why = append(why, "scored by "+judge+" where the baseline measured "+d.Judge)
		}
		for _, j := range s.Judges {
			why = append(why, changed[j]...)
		}
		if len(why) == 0 {
			out.Dimensions = append(out.Dimensions, d)
			continue
		}
		unmeasured = append(unmeasured, Unmeasured{Dimension: s.Name, Judge: judge, Weight: s.Weight,
			Why: slices.Compact(why), OldJudge: d.Judge, OldAlpha: d.Alpha})
	}
	if len(out.Dimensions) == 0 {
		out = nil
	}
	return out, unmeasured
}
