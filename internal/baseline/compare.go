package baseline

import (
	"context"
	"fmt"
	"sort"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/rubric"
	"github.com/evalgate/evalgate/internal/stats"
)

// Comparison is a candidate set against the baseline.
type Comparison struct {
	BaselineFile  string  `json:"baseline_file"`
	BaselineRef   Source  `json:"baseline_source"`
	ScoringSystem string  `json:"baseline_scoringSystem"`
	GradingSystem string  `json:"baseline_gradingSystem"`
	BaselineRuns  int     `json:"baseline_runs"`
	BaselineStd   float64 `json:"baseline_std"`
	// Base and Cand are the means over the compared (unchanged) items.
	Base     float64 `json:"baseline_score"`
	Cand     float64 `json:"candidate_score"`
	Delta    float64 `json:"delta"`          // Cand − Base, absolute points of the 0–1 score
	RelDelta float64 `json:"relative_delta"` // Delta / Base
	// CI is the 95% bootstrap interval of the mean paired per-item difference.
	CI     stats.Interval `json:"ci"`
	PValue float64        `json:"p_value"` // two-sided sign-flip p-value
	// Decision is the regression gate's finding (stats.DecideRegression).
	Decision   stats.RegressionResult `json:"decision"`
	Dimensions []DimensionDelta       `json:"dimensions"`
	Tags       []DimensionDelta       `json:"tags,omitempty"`
	// Item changes, in suite order.
	NewlyFailing []ItemChange `json:"newly_failing"`
	NewlyPassing []ItemChange `json:"newly_passing"`
	Unstable     []ItemChange `json:"unstable"`
	Changed      []string     `json:"changed_items,omitempty"`
	Added        []string     `json:"added_items,omitempty"`
	Removed      []string     `json:"removed_items,omitempty"`
	Compared     int          `json:"compared_items"`
	// Rescored is set when the baseline's recorded outputs were re-scored under the
	// candidate's scoring system (seed 004: a scoring change triggers re-scoring).
	Rescored bool     `json:"rescored"`
	Notes    []string `json:"notes,omitempty"`
}

// DimensionDelta is the baseline and candidate mean of one dimension (or tag).
type DimensionDelta struct {
	Name    string   `json:"name"`
	Base    float64  `json:"baseline"`
	Cand    float64  `json:"candidate"`
	Delta   float64  `json:"delta"`
	Items   int      `json:"items,omitempty"`
	MaxDrop *float64 `json:"max_drop,omitempty"`
	Blocked bool     `json:"blocked,omitempty"`
}

// ItemChange is one item whose pass state moved.
type ItemChange struct {
	ID           string  `json:"id"`
	Line         int     `json:"line"`
	BaseScore    float64 `json:"baseline_score"`
	CandScore    float64 `json:"candidate_score"`
	BasePassRate float64 `json:"baseline_pass_rate"`
	CandPass     bool    `json:"candidate_pass"`
}

// GateOptions are the regression gate's settings the comparison decides with.
type GateOptions struct {
	MaxDrop             float64
	Relative            bool
	RequireSignificance bool
	Method              string
	DimensionMaxDrops   map[string]float64
}

// MismatchError refuses a comparison that cannot be made honestly.
type MismatchError struct{ Msg string }

func (e *MismatchError) Error() string { return e.Msg }

// Compare sets the candidate against the baseline.
func Compare(ctx context.Context, cand *rubric.Scored, b *Baseline, file string, gate GateOptions) (*Comparison, error) {
	c := &Comparison{BaselineFile: file, BaselineRef: b.Source, ScoringSystem: b.ScoringSystem,
		GradingSystem: b.GradingSystem, BaselineRuns: len(b.Runs), BaselineStd: b.Std}
	sys := cand.System
	baseItems := map[string]Item{}
	for _, it := range b.Items {
		baseItems[it.ID] = it
	}
	if b.RubricHash != sys.Hash() || b.ScoringSystem != sys.Version {
		rescored, err := rescore(ctx, cand, b, file)
		if err != nil {
			return nil, err
		}
		for id, it := range rescored {
			if old, ok := baseItems[id]; ok {
				it.Hash = old.Hash
				it.Tags = old.Tags
			}
			baseItems[id] = it
		}
		c.Rescored = true
		c.Notes = append(c.Notes, fmt.Sprintf("scoring changed (%s → %s%s): the baseline's %d recorded run(s) were re-scored under %s",
			b.ScoringSystem, sys.Version, hashNote(b.RubricHash, sys.Hash()), len(b.Outputs), sys.Version))
	}
	if b.GradingSystem != "" && cand.System != nil {
		c.GradingSystem = b.GradingSystem
	}
	seen := map[string]bool{}
	var base, cnd, basePR, candPR []float64
	nd := len(sys.Dimensions)
	dimBase, dimCand := make([]float64, nd), make([]float64, nd)
	type tagAcc struct {
		base, cand float64
		n          int
	}
	tags := map[string]*tagAcc{}
	for _, is := range cand.Items {
		id := is.Item.ID
		seen[id] = true
		bi, ok := baseItems[id]
		switch {
		case !ok:
			c.Added = append(c.Added, id)
			continue
		case bi.Hash != is.Item.Hash:
			c.Changed = append(c.Changed, id)
			continue
		case is.Pending:
			continue
		}
		base = append(base, bi.Score)
		cnd = append(cnd, is.Score)
		basePR = append(basePR, bi.PassRate)
		candPR = append(candPR, float64(is.PassRuns)/float64(max(is.Runs, 1)))
		for d, dim := range sys.Dimensions {
			dimBase[d] += bi.Breakdown[dim.Name]
			dimCand[d] += is.Breakdown[d]
		}
		for _, t := range is.Item.Tags {
			if tags[t] == nil {
				tags[t] = &tagAcc{}
			}
			tags[t].base += bi.Score
			tags[t].cand += is.Score
			tags[t].n++
		}
		ch := ItemChange{ID: id, Line: is.Item.Line, BaseScore: bi.Score, CandScore: is.Score, BasePassRate: bi.PassRate, CandPass: is.Pass}
		switch {
		case stats.Unstable(bi.PassRate):
			c.Unstable = append(c.Unstable, ch)
		case bi.PassRate == 1 && !is.Pass:
			c.NewlyFailing = append(c.NewlyFailing, ch)
		case bi.PassRate == 0 && is.Pass:
			c.NewlyPassing = append(c.NewlyPassing, ch)
		}
	}
	for _, it := range b.Items {
		if !seen[it.ID] {
			c.Removed = append(c.Removed, it.ID)
		}
	}
	c.Compared = len(base)
	if c.Compared == 0 {
		return nil, &MismatchError{Msg: fmt.Sprintf("baseline %s shares no unchanged item with the suite (%d changed, %d added, %d removed): refresh it with `evalgate baseline`", file, len(c.Changed), len(c.Added), len(c.Removed))}
	}
	if len(c.Changed)+len(c.Added)+len(c.Removed) > 0 {
		c.Notes = append(c.Notes, fmt.Sprintf("suite changed since the baseline: %d changed, %d added, %d removed item(s) are left out; %d unchanged item(s) compared",
			len(c.Changed), len(c.Added), len(c.Removed), c.Compared))
	}
	dec, err := stats.DecideRegression(stats.RegressionInput{
		Base: base, Cand: cnd, BasePassRate: basePR, CandPassRate: candPR,
		BaseRuns: max(len(b.Runs), 1), CandRuns: len(cand.Runs),
		MaxDrop: gate.MaxDrop, Relative: gate.Relative, RequireSignificance: gate.RequireSignificance, Method: gate.Method,
	})
	if err != nil {
		return nil, err
	}
	c.Decision = dec
	c.Base, c.Cand = rubric.Round9(dec.BaseMean), rubric.Round9(dec.CandMean)
	c.Delta, c.RelDelta = rubric.Round9(dec.Delta), rubric.Round9(dec.RelDelta)
	c.CI, c.PValue = dec.CI, dec.PValue
	n := float64(c.Compared)
	for d, dim := range sys.Dimensions {
		dd := DimensionDelta{Name: dim.Name, Base: rubric.Round9(dimBase[d] / n), Cand: rubric.Round9(dimCand[d] / n)}
		dd.Delta = rubric.Round9(dd.Cand - dd.Base)
		if md, ok := gate.DimensionMaxDrops[dim.Name]; ok {
			md := md
			dd.MaxDrop = &md
			dd.Blocked = stats.DropExceeds(-dd.Delta, md)
		}
		c.Dimensions = append(c.Dimensions, dd)
	}
	tagNames := make([]string, 0, len(tags))
	for t := range tags {
		tagNames = append(tagNames, t)
	}
	sort.Strings(tagNames)
	for _, t := range tagNames {
		a := tags[t]
		dd := DimensionDelta{Name: t, Base: rubric.Round9(a.base / float64(a.n)), Cand: rubric.Round9(a.cand / float64(a.n)), Items: a.n}
		dd.Delta = rubric.Round9(dd.Cand - dd.Base)
		c.Tags = append(c.Tags, dd)
	}
	return c, nil
}

func hashNote(a, b string) string {
	if a == b {
		return ""
	}
	return fmt.Sprintf(", rubric sha256 %.12s → %.12s", a, b)
}

// rescore scores the baseline's recorded outputs under the candidate's scoring system.
func rescore(ctx context.Context, cand *rubric.Scored, b *Baseline, file string) (map[string]Item, error) {
	if len(b.Outputs) == 0 {
		return nil, &MismatchError{Msg: fmt.Sprintf(
			"baseline %s was scored under %s (rubric sha256 %.12s) and this config is %s (rubric sha256 %.12s); the baseline carries no recorded outputs to re-score: refresh it with `evalgate baseline --results ... --out %s`",
			file, b.ScoringSystem, b.RubricHash, cand.System.Version, cand.System.Hash(), file)}
	}
	var runs []*eval.Run
	for i, recs := range b.Outputs {
		var keep []map[string]any
		for _, r := range recs {
			if id, _ := r["id"].(string); id != "" {
				if _, ok := cand.Suite.Item(id); ok {
					keep = append(keep, r)
				}
			}
		}
		run, err := eval.RunFromRecords(fmt.Sprintf("%s (recorded run %d)", file, i+1), keep)
		if err != nil {
			return nil, err
		}
		runs = append(runs, run)
	}
	sc, err := rubric.Score(ctx, cand.System, cand.Suite, runs)
	if err != nil {
		return nil, &MismatchError{Msg: fmt.Sprintf("re-scoring baseline %s under %s failed: %v; refresh it with `evalgate baseline`", file, cand.System.Version, err)}
	}
	out := map[string]Item{}
	for _, is := range sc.Items {
		if is.Missing == is.Runs {
			continue // item added since the baseline: no recorded output
		}
		it := Item{ID: is.Item.ID, Score: is.Score, PassRate: float64(is.PassRuns) / float64(max(is.Runs, 1)), Breakdown: map[string]float64{}}
		for d, dim := range cand.System.Dimensions {
			it.Breakdown[dim.Name] = is.Breakdown[d]
		}
		out[it.ID] = it
	}
	return out, nil
}
