package gate

import (
	"fmt"
	"sort"

	"github.com/evalgate/evalgate/internal/suggest"
)

// Grades derives a letter grade from the scores (seed 004): the weighted mean is banded,
// the band is capped at the tier maximum (the pre-trim band is kept as rawGrade), and a
// categorical veto overrides everything with REJECTED.
type Grades struct {
	// Basis is "native" (seed 004: the weighted mean of per-answer values on 1.0–5.0,
	// pass = 5, fail = 1) or "score" (the 0–1 mean score).
	Basis string `yaml:"basis,omitempty" json:"basis,omitempty"`
	Bands []Band `yaml:"bands,omitempty" json:"bands,omitempty"`
	Tier  string `yaml:"tier,omitempty" json:"tier,omitempty"`
	// TierMax caps the grade per tier (seed 004: autonomous → B, group-bound → A).
	TierMax map[string]string `yaml:"tier_max,omitempty" json:"tier_max,omitempty"`
	// Veto lists dimensions whose failure on any item grades the run REJECTED. The
	// scoring system's vetoes are always included.
	Veto []string `yaml:"veto,omitempty" json:"veto,omitempty"`
}

// Band maps a mean at or above Min to a grade.
type Band struct {
	Min   float64 `yaml:"min" json:"min"`
	Grade string  `yaml:"grade" json:"grade"`
}

// Grade outcomes beyond letters.
const (
	Rejected = "REJECTED" // a categorical veto fired
	Pending  = "pending"  // every answer was n/a or stale: no grade
)

// DefaultBands are seed 004's gradingSystem/1.0.0 thresholds on the 1.0–5.0 mean.
var DefaultBands = []Band{{4.5, "A"}, {3.5, "B"}, {2.5, "C"}, {1.5, "D"}, {-1e308, "F"}}

// DefaultTierMax is seed 004's tier trim.
var DefaultTierMax = map[string]string{"autonomous": "B", "group-bound": "A"}

func (g *Grades) validate(base string, dims []string) error {
	if g.Basis == "" {
		g.Basis = "native"
	}
	if g.Basis != "native" && g.Basis != "score" {
		return &FieldError{Path: base + ".basis", Msg: fmt.Sprintf("basis %q; want native (the 1–5 mean of per-answer values) or score (the 0–1 mean score)", g.Basis)}
	}
	if len(g.Bands) == 0 {
		if g.Basis == "score" {
			return &FieldError{Path: base + ".bands", Msg: "basis score needs bands (e.g. - {min: 0.9, grade: A})"}
		}
		g.Bands = DefaultBands
	}
	sort.SliceStable(g.Bands, func(i, j int) bool { return g.Bands[i].Min > g.Bands[j].Min })
	if g.TierMax == nil {
		g.TierMax = DefaultTierMax
	}
	if g.Tier != "" {
		max, ok := g.TierMax[g.Tier]
		if !ok {
			return &FieldError{Path: base + ".tier", Msg: fmt.Sprintf("unknown tier %q; %swant one of %v", g.Tier, suggest.DidYouMean(g.Tier, keys(g.TierMax)), keys(g.TierMax))}
		}
		if g.rank(max) < 0 {
			return &FieldError{Path: base + ".tier_max", Msg: fmt.Sprintf("tier %q caps at %q, which no band gives", g.Tier, max)}
		}
	}
	for i, d := range g.Veto {
		if !contains(dims, d) {
			return &FieldError{Path: fmt.Sprintf("%s.veto[%d]", base, i), Msg: fmt.Sprintf("unknown dimension %q; %swant one of %v", d, suggest.DidYouMean(d, dims), dims)}
		}
	}
	return nil
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// rank is the index of a grade in the bands (0 = best), or -1.
func (g *Grades) rank(grade string) int {
	for i, b := range g.Bands {
		if b.Grade == grade {
			return i
		}
	}
	return -1
}

// GradeResult is the grade of a run.
type GradeResult struct {
	Grade    string  `json:"grade"`              // letter, REJECTED or pending
	RawGrade string  `json:"rawGrade,omitempty"` // the band before tier trim
	Basis    string  `json:"basis"`
	Mean     float64 `json:"mean"` // the banded mean (1–5 native or 0–1 score)
	Tier     string  `json:"tier,omitempty"`
	VetoedBy string  `json:"vetoedBy,omitempty"` // the dimension whose failure vetoed
}

// Band grades a mean: band, then tier trim. ok is false when every answer was
// excluded (pending).
func (g *Grades) Band(mean float64, ok bool, vetoedBy string) GradeResult {
	res := GradeResult{Basis: g.Basis, Mean: mean, Tier: g.Tier}
	switch {
	case vetoedBy != "":
		res.Grade, res.VetoedBy = Rejected, vetoedBy
		return res
	case !ok:
		res.Grade = Pending
		return res
	}
	raw := g.Bands[len(g.Bands)-1].Grade
	for _, b := range g.Bands {
		if mean >= b.Min-1e-9 {
			raw = b.Grade
			break
		}
	}
	res.RawGrade, res.Grade = raw, raw
	if max, ok := g.TierMax[g.Tier]; ok && g.Tier != "" && g.rank(raw) < g.rank(max) {
		res.Grade = max
	}
	return res
}
