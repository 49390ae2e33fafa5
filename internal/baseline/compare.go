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
	Name  string  `json:"name"`
	Base  float64 `json:"baseline"`
	Cand  float64 `json:"candidate"`
	Delta float64 `json:"delta"`
	Items int     `json:"items,omitempty"`
	// CI is the 95% interval of the dimension's mean paired per-item difference
	// (dimensions only): a bootstrap like the score's, or the normal approximation above
	// MaxBootstrapItems items.
	CI      *stats.Interval `json:"ci,omitempty"`
	MaxDrop *float64        `json:"max_drop,omitempty"`
	Blocked bool            `json:"blocked,omitempty"`
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
	sys := cand.System
	baseItems := map[string]Item{}
	for _, it := range b.Items {
		baseItems[it.ID] = it
	}
	var notes []string
	rescored := false
	if b.RubricHash != sys.Hash() || b.ScoringSystem != sys.Version {
		items, err := rescore(ctx, cand, b, file)
		if err != nil {
			return nil, err
		}
		for id, it := range items {
			if old, ok := baseItems[id]; ok {
				it.Hash = old.Hash
				it.Tags = old.Tags
			}
			baseItems[id] = it
		}
		rescored = true
		notes = append(notes, fmt.Sprintf("scoring changed (%s → %s%s): the baseline's %d recorded run(s) were re-scored under %s",
			b.ScoringSystem, sys.Version, hashNote(b.RubricHash, sys.Hash()), len(b.Outputs), sys.Version))
	}
	var dims []string
	for _, d := range sys.Dimensions {
		dims = append(dims, d.Name)
	}
	cands := make([]Candidate, 0, cand.NumItems())
	_ = cand.EachItem(func(_ int, is *rubric.ItemScore) error {
		ci := Candidate{ID: is.Item.ID, Hash: is.Item.Hash, Line: is.Item.Line, Tags: is.Item.Tags, Score: is.Score,
			PassRate: float64(is.PassRuns) / float64(max(is.Runs, 1)), Pass: is.Pass, Pending: is.Pending,
			Breakdown: map[string]float64{}}
		for d, name := range dims {
			ci.Breakdown[name] = is.Breakdown[d]
		}
		cands = append(cands, ci)
		return nil
	})
	c, err := comparePairs(b, baseItems, cands, len(cand.Runs), dims, file, gate)
	if err != nil {
		return nil, err
	}
	c.Rescored = rescored
	c.Notes = append(notes, c.Notes...)
	return c, nil
}

// Candidate is one item of the side compared with the baseline.
type Candidate struct {
	ID, Hash  string
	Line      int
	Tags      []string
	Score     float64
	PassRate  float64 // fraction of the candidate's runs the item passed in
	Pass      bool
	Pending   bool
	Breakdown map[string]float64
}

// CompareSnapshots compares two saved distributions (baselines, or reports turned
// into baselines): a release-to-release diff. A scoring difference is flagged in the
// notes, since neither side carries a scorer to re-score with.
func CompareSnapshots(a, b *Baseline, fileA string, gate GateOptions) (*Comparison, error) {
	baseItems := map[string]Item{}
	for _, it := range a.Items {
		baseItems[it.ID] = it
	}
	var cands []Candidate
	for _, it := range b.Items {
		cands = append(cands, Candidate{ID: it.ID, Hash: it.Hash, Tags: it.Tags, Score: it.Score, PassRate: it.PassRate,
			Pass: it.PassRate >= 0.5, Breakdown: it.Breakdown})
	}
	var dims []string
	for d := range a.Dimensions {
		if _, ok := b.Dimensions[d]; ok {
			dims = append(dims, d)
		}
	}
	sort.Strings(dims)
	c, err := comparePairs(a, baseItems, cands, max(len(b.Runs), 1), dims, fileA, gate)
	if err != nil {
		return nil, err
	}
	if a.ScoringSystem != b.ScoringSystem || a.RubricHash != b.RubricHash {
		c.Notes = append([]string{fmt.Sprintf("⚠ different scoring systems (%s, rubric sha256 %.12s vs %s, %.12s): scores are not comparable item by item; re-score both under one scoring system", a.ScoringSystem, a.RubricHash, b.ScoringSystem, b.RubricHash)}, c.Notes...)
	}
	return c, nil
}

// comparePairs pairs candidate items with baseline items and decides the drop.
func comparePairs(b *Baseline, baseItems map[string]Item, cands []Candidate, candRuns int, dims []string, file string, gate GateOptions) (*Comparison, error) {
	c := &Comparison{BaselineFile: file, BaselineRef: b.Source, ScoringSystem: b.ScoringSystem,
		GradingSystem: b.GradingSystem, BaselineRuns: len(b.Runs), BaselineStd: b.Std}
	seen := map[string]bool{}
	var base, cnd, basePR, candPR []float64
	dimBase, dimCand := make([]float64, len(dims)), make([]float64, len(dims))
	dimDiffs := make([][]float64, len(dims)) // per dimension: paired per-item differences
	type tagAcc struct {
		base, cand float64
		n          int
	}
	tags := map[string]*tagAcc{}
	for _, ci := range cands {
		seen[ci.ID] = true
		bi, ok := baseItems[ci.ID]
		switch {
		case !ok:
			c.Added = append(c.Added, ci.ID)
			continue
		case bi.Hash != "" && ci.Hash != "" && bi.Hash != ci.Hash:
			c.Changed = append(c.Changed, ci.ID)
			continue
		case ci.Pending:
			continue
		}
		base = append(base, bi.Score)
		cnd = append(cnd, ci.Score)
		basePR = append(basePR, bi.PassRate)
		candPR = append(candPR, ci.PassRate)
		for d, name := range dims {
			dimBase[d] += bi.Breakdown[name]
			dimCand[d] += ci.Breakdown[name]
			dimDiffs[d] = append(dimDiffs[d], ci.Breakdown[name]-bi.Breakdown[name])
		}
		for _, t := range ci.Tags {
			if tags[t] == nil {
				tags[t] = &tagAcc{}
			}
			tags[t].base += bi.Score
			tags[t].cand += ci.Score
			tags[t].n++
		}
		ch := ItemChange{ID: ci.ID, Line: ci.Line, BaseScore: bi.Score, CandScore: ci.Score, BasePassRate: bi.PassRate, CandPass: ci.Pass}
		switch {
		case stats.Unstable(bi.PassRate):
			c.Unstable = append(c.Unstable, ch)
		case bi.PassRate == 1 && !ci.Pass:
			c.NewlyFailing = append(c.NewlyFailing, ch)
		case bi.PassRate == 0 && ci.Pass:
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
		BaseRuns: max(len(b.Runs), 1), CandRuns: candRuns,
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
	for d, name := range dims {
		dd := DimensionDelta{Name: name, Base: rubric.Round9(dimBase[d] / n), Cand: rubric.Round9(dimCand[d] / n)}
		dd.Delta = rubric.Round9(dd.Cand - dd.Base)
		dd.CI = dimensionCI(dimDiffs[d])
		if md, ok := gate.DimensionMaxDrops[name]; ok {
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

// MaxBootstrapItems bounds the per-dimension bootstrap: above it (10,000 resamples of
// that many items per dimension) the normal approximation is used instead.
const MaxBootstrapItems = 20000

// dimensionCI is the 95% interval of a dimension's mean paired difference.
func dimensionCI(diffs []float64) *stats.Interval {
	var iv stats.Interval
	var err error
	if len(diffs) <= MaxBootstrapItems {
		iv, err = stats.PairedBootstrap(diffs, stats.ResampleOptions{})
	} else {
		iv, err = stats.NormalCI(diffs, stats.DefaultLevel)
	}
	if err != nil {
		return nil
	}
	iv.Lo, iv.Hi = rubric.Round9(iv.Lo), rubric.Round9(iv.Hi)
	return &iv
}
