package gate

import (
	"fmt"
	"math"
	"strings"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/reliability"
	"github.com/evalgate/evalgate/internal/stats"
)

// DefaultJudgeAlphaFloor is the self-agreement under which a judged dimension cannot
// block by itself: Krippendorff's α = 0.667, the lowest value he accepts for tentative
// conclusions (Krippendorff 2004, Content Analysis, §11.4.4: rely on α ≥ .800, consider
// .667 ≤ α < .800 only for tentative conclusions).
const DefaultJudgeAlphaFloor = 0.667

// JudgeNoise is what the judges' own noise did to a regression decision.
type JudgeNoise struct {
	// SE is the standard error the judges' measured variance adds to the decided
	// figure (in its unit): √(2·Σ_d w_d²·σ²_d / n), the verdict's noise on the baseline
	// side and on the candidate side of n compared items.
	SE float64 `json:"se"`
	// Floor is the α floor; Unreliable the judged dimensions that cannot block by
	// themselves: those whose α is under it, and the Unmeasured ones, whose judge
	// changed since the baseline measured it.
	Floor      float64  `json:"alpha_floor"`
	Unreliable []string `json:"unreliable,omitempty"`
	Unmeasured []string `json:"unmeasured,omitempty"`
	// Reason says why the decision is inconclusive rather than a block, when the
	// unreliable dimensions are what carried the drop.
	Reason string `json:"reason,omitempty"`
}

// AlphaFloor is the judge α floor in force; a nil Regression (none configured) has
// the default.
func (r *Regression) AlphaFloor() float64 {
	if r != nil && r.JudgeAlphaFloor != nil {
		return *r.JudgeAlphaFloor
	}
	return DefaultJudgeAlphaFloor
}

// applyJudgeNoise counts the judges' measured noise in a decision: the interval of the
// decided figure widens by the judges' variance, and a drop that rests on dimensions
// whose judge is under the α floor, or whose judge changed since the baseline measured
// it (its self-agreement unknown), cannot block by itself (inconclusive, and the
// decision says why). Without a reliability measurement in the baseline it does
// nothing. The plain method has no noise model and is only subject to the floor.
func (r *Regression) applyJudgeNoise(d *RegressionDecision, cmp *baseline.Comparison) {
	m := cmp.JudgeReliability
	if (m == nil || len(m.Dimensions) == 0) && len(cmp.JudgeUnmeasured) == 0 {
		return
	}
	jn := &JudgeNoise{Floor: r.AlphaFloor()}
	var v float64
	weak := map[string]weakJudge{}
	if m != nil {
		for _, dim := range m.Dimensions {
			v += dim.Weight * dim.Weight * dim.Variance
			// An undefined α (every verdict of the sample the same value) means no
			// disagreement was observed: not under the floor.
			if dim.Alpha != nil && *dim.Alpha < jn.Floor {
				jn.Unreliable = append(jn.Unreliable, dim.Name)
				weak[dim.Name] = weakJudge{weight: dim.Weight, why: fmt.Sprintf("%s (judge self-agreement α %.2f < floor %.3g)", dim.Name, *dim.Alpha, jn.Floor)}
			}
		}
	}
	// A changed judge's self-agreement is unknown: it adds no measured noise, and,
	// like a judge under the floor, its drop alone cannot block.
	for _, u := range cmp.JudgeUnmeasured {
		jn.Unreliable = append(jn.Unreliable, u.Dimension)
		jn.Unmeasured = append(jn.Unmeasured, u.Dimension)
		weak[u.Dimension] = weakJudge{weight: u.Weight, why: unmeasuredWhy(u), unmeasured: true}
	}
	n := max(cmp.Compared, 1)
	jn.SE = math.Sqrt(2 * v / float64(n))
	if d.Mode == Relative && cmp.Base > 0 {
		jn.SE /= cmp.Base
	}
	d.Judge = jn
	widen(d, jn.SE)
	for i := range d.Dimensions {
		dd := &d.Dimensions[i]
		name := strings.TrimPrefix(dd.Gate, "regression: ")
		w, isWeak := weak[name]
		dim, ok := reliabilityOf(m, name)
		if !ok && !isWeak {
			continue
		}
		djn := &JudgeNoise{Floor: jn.Floor}
		if ok {
			djn.SE = math.Sqrt(2 * dim.Variance / float64(n))
		}
		dd.Judge = djn
		widen(dd, djn.SE)
		if isWeak {
			djn.Unreliable = []string{name}
			if w.unmeasured {
				djn.Unmeasured = []string{name}
			}
			if dd.Outcome == Fail {
				djn.Reason = unreliableReason([]weakJudge{w})
				demote(dd, djn.Reason)
			}
		}
	}
	if (d.Outcome != Fail && d.Outcome != Inconclusive) || len(weak) == 0 {
		return
	}
	// The drop without the weak dimensions' part: their weighted change taken out of
	// the figure. If what is left does not exceed max_drop, the weak judges carried the
	// block.
	rest := d.Value
	var carried []weakJudge
	for _, dd := range cmp.Dimensions {
		w, ok := weak[dd.Name]
		if !ok {
			continue
		}
		part := -w.weight * dd.Delta // its share of the score's drop
		if d.Mode == Relative {
			if cmp.Base == 0 {
				continue
			}
			part /= cmp.Base
		}
		if part > 0 {
			rest -= part
			carried = append(carried, w)
		}
	}
	if len(carried) > 0 && !DropExceeds(rest, d.Threshold) {
		jn.Reason = unreliableReason(carried) +
			fmt.Sprintf("; without them the drop is %s ≤ %s", FormatDrop2(rest, d.Mode), FormatDrop2(d.Threshold, d.Mode))
		if d.Outcome == Fail {
			demote(d, jn.Reason)
		} else {
			// Inconclusive already (within the suite's noise): say too that the judge
			// could not have made it a block.
			d.DecidedBy += "; " + jn.Reason
		}
	}
}

// weakJudge is a judged dimension that cannot block by itself: its weight in the
// score, and why, as the decision words it.
type weakJudge struct {
	weight     float64
	why        string
	unmeasured bool
}

// unmeasuredWhy words a dimension whose judge changed since the baseline measured it.
func unmeasuredWhy(u reliability.Unmeasured) string {
	return fmt.Sprintf("%s (judge %s changed since the baseline measured its self-agreement, so the new judge's is unmeasured; "+
		"make the baseline again with it to measure it)", u.Dimension, u.Judge)
}

func reliabilityOf(m *reliability.Measurement, name string) (reliability.Dimension, bool) {
	return m.Find(name)
}

// widen adds the judges' standard error to the decided figure's: the interval widens
// and the test is read again on the widened error.
func widen(d *RegressionDecision, judgeSE float64) {
	if judgeSE <= 0 || d.Method == MethodPlain {
		return
	}
	const z95 = stats.Z95
	half := (d.Interval.Hi - d.Interval.Lo) / 2
	se := half / z95
	wide := math.Sqrt(se*se + judgeSE*judgeSE)
	mid := (d.Interval.Hi + d.Interval.Lo) / 2
	d.Interval.Lo, d.Interval.Hi = mid-z95*wide, mid+z95*wide
	switch {
	case d.Method == MethodSignificance:
		// Significant when the widened interval of the drop lies wholly above 0.
		p := oneSidedFromCI(stats.Interval{Lo: -d.Interval.Hi, Hi: -d.Interval.Lo, Level: d.Interval.Level})
		d.PValue = &p
		d.Rejects = significant(-d.Interval.Lo, p, d.Alpha)
	case se > 0 && d.PValue != nil:
		// The evidence statistic z tests the estimated drop against none: it reads the
		// drop over its own standard error, d.Value/z, which the judges' noise widens.
		// Its p-value is read again from the normal distribution. (Scaling z by the
		// interval's se/wide instead capped it: the evidence p-value is floored by the
		// run-level guard, so z stayed near 4 whatever the drop, and a 20-pt drop
		// under a reliable judge read p ≈ 0.05.)
		z := math.Sqrt2 * math.Erfcinv(2**d.PValue)
		if statSE := d.Value / z; z > 0 && d.Value > 0 {
			z = d.Value / math.Sqrt(statSE*statSE+judgeSE*judgeSE)
		} else {
			z *= se / wide
		}
		p := 0.5 * math.Erfc(z/math.Sqrt2)
		d.PValue = &p
		d.Rejects = p < d.Alpha
	}
	if d.Outcome == Fail && !d.Rejects {
		d.Outcome = Inconclusive
	}
	d.DecidedBy = decidedBy(*d) + noiseNote(judgeSE, d.Mode)
}

func noiseNote(se float64, mode string) string {
	return fmt.Sprintf("; judge noise counted (SE %s)", FormatDrop2(se, mode))
}

// demote turns a block into an inconclusive result, saying why: the figure beyond the
// suite's noise, then the reason it does not block.
func demote(d *RegressionDecision, reason string) {
	s := decidedBy(*d)
	if d.Judge != nil && d.Judge.SE > 0 && d.Method != MethodPlain {
		s += noiseNote(d.Judge.SE, d.Mode)
	}
	d.DecidedBy = s + "; " + reason
	d.Outcome = Inconclusive
	d.Evidence = nil
}

func unreliableReason(dims []weakJudge) string {
	parts := make([]string, len(dims))
	who := "a judge under the reliability floor"
	for i, d := range dims {
		parts[i] = d.why
		if d.unmeasured {
			who = "a judge under the reliability floor, or one whose reliability is unmeasured,"
		}
	}
	return "inconclusive, not a block: the drop rests on " + strings.Join(parts, ", ") + ", and " + who + " cannot block by itself"
}
