package baseline

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/rubric"
	"github.com/evalgate/evalgate/internal/stats"
)

// Comparison is a candidate set against the baseline: what changed, measured. It
// decides nothing; gate reads it and decides.
type Comparison struct {
	BaselineFile  string  `json:"baseline_file"`
	BaselineRef   Source  `json:"baseline_source"`
	ScoringSystem string  `json:"baseline_scoringSystem"`
	GradingSystem string  `json:"baseline_gradingSystem"`
	BaselineRuns  int     `json:"baseline_runs"`
	BaselineStd   float64 `json:"baseline_std"`
	// CandidateRuns is the largest number of runs any compared candidate item has
	// (items re-run on their own have more than the rest).
	CandidateRuns int `json:"candidate_runs"`
	// Base and Cand are the means over the compared (unchanged) items.
	Base     float64 `json:"baseline_score"`
	Cand     float64 `json:"candidate_score"`
	Delta    float64 `json:"delta"`          // Cand − Base, absolute points of the 0–1 score
	RelDelta float64 `json:"relative_delta"` // Delta / Base
	// CI is the 95% interval of the mean paired per-item difference (stats.MeasureDrop).
	CI          stats.Interval `json:"ci"`
	PValue      float64        `json:"p_value"`       // two-sided
	PValueWorse float64        `json:"p_value_worse"` // one-sided, "candidate worse"
	// Evidence is the item-by-item measurement against what the baseline's runs
	// predict (stats.EvidenceAccumulator); EvidenceItems its strongest items.
	Evidence      stats.EvidenceResult `json:"evidence"`
	EvidenceItems []EvidenceItem       `json:"evidence_items"`
	Dimensions    []DimensionDelta     `json:"dimensions"`
	Tags          []DimensionDelta     `json:"tags,omitempty"`
	// Item changes, in suite order.
	NewlyFailing []ItemChange `json:"newly_failing"`
	NewlyPassing []ItemChange `json:"newly_passing"`
	Unstable     []ItemChange `json:"unstable"`
	// BiggestDrops are the items whose score fell most, largest fall first, at most
	// MaxBiggestDrops, whether or not their pass state moved (0.70 → 0.20 while already
	// failing is a movement too).
	BiggestDrops []ItemChange `json:"biggest_drops"`
	Changed      []string     `json:"changed_items,omitempty"`
	Added        []string     `json:"added_items,omitempty"`
	Removed      []string     `json:"removed_items,omitempty"`
	Compared     int          `json:"compared_items"`
	// Rescored is set when the baseline's recorded outputs were re-scored under the
	// candidate's scoring system (seed 004: a scoring change triggers re-scoring).
	Rescored bool     `json:"rescored"`
	Notes    []string `json:"notes,omitempty"`
}

// EvidenceTop is how many of the strongest items a comparison keeps as evidence.
const EvidenceTop = 10

// MaxBiggestDrops caps Comparison.BiggestDrops.
const MaxBiggestDrops = 10

// DimensionDelta is the baseline and candidate mean of one dimension (or tag).
type DimensionDelta struct {
	Name  string  `json:"name"`
	Base  float64 `json:"baseline"`
	Cand  float64 `json:"candidate"`
	Delta float64 `json:"delta"`
	Items int     `json:"items,omitempty"`
	// CI is the 95% interval of the dimension's mean paired per-item difference
	// (dimensions only): a bootstrap like the score's, or the normal approximation above
	// stats.MaxResampleItems items.
	CI *stats.Interval `json:"ci,omitempty"`
	// Evidence is the dimension's item-by-item measurement (dimensions only).
	Evidence      *stats.EvidenceResult `json:"evidence,omitempty"`
	EvidenceItems []EvidenceItem        `json:"evidence_items,omitempty"`
	// BaseFailures is the baseline's number of failures of the dimension (a mean over
	// its runs), so a report can show the change rather than a bare count; absent when
	// the baseline was re-scored or does not record it.
	BaseFailures *float64 `json:"baseline_failures,omitempty"`
}

// ItemChange is one item whose pass state or score moved.
type ItemChange struct {
	ID           string  `json:"id"`
	Line         int     `json:"line"`
	BaseScore    float64 `json:"baseline_score"`
	CandScore    float64 `json:"candidate_score"`
	BasePassRate float64 `json:"baseline_pass_rate"`
	CandPass     bool    `json:"candidate_pass"`
}

// EvidenceItem is one item that carries the evidence of a drop: what the baseline's
// runs predicted for it and what the candidate scored.
type EvidenceItem struct {
	ID           string  `json:"id"`
	Line         int     `json:"line,omitempty"`
	BaseScore    float64 `json:"baseline_score"`
	BaseRuns     int     `json:"baseline_runs"`
	BasePassRate float64 `json:"baseline_pass_rate"`
	// Predicted is the score the baseline predicts (its runs, shrunk toward the suite).
	Predicted float64 `json:"predicted"`
	CandScore float64 `json:"candidate_score"`
	CandRuns  int     `json:"candidate_runs"`
	// Z is how many predicted standard deviations the candidate fell below Predicted.
	Z float64 `json:"z"`
}

// MismatchError refuses a comparison that cannot be made honestly.
type MismatchError struct{ Msg string }

func (e *MismatchError) Error() string { return e.Msg }

// Compare sets the candidate against the baseline.
func Compare(ctx context.Context, cand *rubric.Scored, b *Baseline, file string) (*Comparison, error) {
	sys := cand.System
	baseItems := map[string]Item{}
	for _, it := range b.Items {
		baseItems[it.ID] = it
	}
	var notes []string
	rescored := false
	switch {
	case b.RubricHash != sys.Hash() || b.ScoringSystem != sys.Version:
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
		if b.ScoringSystem == sys.Version {
			// Only the rubric hash moved: say so, rather than "1.0.0 → 1.0.0".
			notes = append(notes, fmt.Sprintf("the rubric changed but its version did not (still %s; rubric sha256 %.12s → %.12s): the baseline's %d recorded run(s) were re-scored under the new rubric; bump the version when the change is meant",
				sys.Version, b.RubricHash, sys.Hash(), len(b.Outputs)))
		} else {
			notes = append(notes, fmt.Sprintf("scoring changed (%s → %s%s): the baseline's %d recorded run(s) were re-scored under %s",
				b.ScoringSystem, sys.Version, hashNote(b.RubricHash, sys.Hash()), len(b.Outputs), sys.Version))
		}
	case b.FormatV1 && len(b.Outputs) > 0:
		items, err := rescore(ctx, cand, b, file)
		if err != nil {
			return nil, err
		}
		for id, it := range items {
			if old, ok := baseItems[id]; ok {
				it.Hash, it.Tags = old.Hash, old.Tags
			}
			baseItems[id] = it
		}
		notes = append(notes, fmt.Sprintf("baseline %s is format version 1: its %d recorded run(s) were re-scored for per-item spread; refresh it with `evalgate baseline --out %s` to save the work", file, len(b.Outputs), file))
	case b.FormatV1:
		notes = append(notes, fmt.Sprintf("baseline %s is format version 1 without recorded outputs: per-item spread is read from pass rates only; refresh it with `evalgate baseline --results RUN.jsonl --out %s`", file, file))
	}
	var dims []string
	for _, d := range sys.Dimensions {
		dims = append(dims, d.Name)
	}
	cands := make([]Candidate, 0, cand.NumItems())
	_ = cand.EachItem(func(_ int, is *rubric.ItemScore) error {
		ci := Candidate{ID: is.Item.ID, Hash: is.Item.Hash, Line: is.Item.Line, Tags: is.Item.Tags, Score: is.Score,
			Runs: max(is.Runs, 1), PassRate: float64(is.PassRuns) / float64(max(is.Runs, 1)), Pass: is.Pass, Pending: is.Pending,
			Breakdown: map[string]float64{}}
		for d, name := range dims {
			ci.Breakdown[name] = is.Breakdown[d]
		}
		cands = append(cands, ci)
		return nil
	})
	c, err := comparePairs(b, baseItems, cands, dims, file, stats.ResampleOptions{})
	if err != nil {
		return nil, err
	}
	c.Rescored = rescored
	if !rescored { // re-scored, the baseline's recorded failure counts are another rubric's
		for i := range c.Dimensions {
			if f, ok := b.Metrics[c.Dimensions[i].Name+"_failures"]; ok {
				c.Dimensions[i].BaseFailures = &f
			}
		}
	}
	c.Notes = append(notes, c.Notes...)
	return c, nil
}

// Candidate is one item of the side compared with the baseline.
type Candidate struct {
	ID, Hash  string
	Line      int
	Tags      []string
	Score     float64
	Runs      int     // runs the item was scored in (≥ 1)
	PassRate  float64 // fraction of the candidate's runs the item passed in
	Pass      bool
	Pending   bool
	Breakdown map[string]float64
}

// CompareSnapshots compares two saved distributions (baselines, or reports turned
// into baselines): a release-to-release diff. A scoring difference is flagged in the
// notes, since neither side carries a scorer to re-score with.
func CompareSnapshots(a, b *Baseline, fileA string) (*Comparison, error) {
	return CompareSnapshotsWith(a, b, fileA, stats.ResampleOptions{})
}

// CompareSnapshotsWith is CompareSnapshots with the resampling options of the plain
// measurements (the simulation measures analytically: stats.ResampleOptions.Analytic).
func CompareSnapshotsWith(a, b *Baseline, fileA string, ro stats.ResampleOptions) (*Comparison, error) {
	baseItems := map[string]Item{}
	for _, it := range a.Items {
		baseItems[it.ID] = it
	}
	var cands []Candidate
	for _, it := range b.Items {
		cands = append(cands, Candidate{ID: it.ID, Hash: it.Hash, Tags: it.Tags, Score: it.Score, Runs: max(it.Runs, 1), PassRate: it.PassRate,
			Pass: it.PassRate >= 0.5, Breakdown: it.Breakdown})
	}
	var dims []string
	for d := range a.Dimensions {
		if _, ok := b.Dimensions[d]; ok {
			dims = append(dims, d)
		}
	}
	sort.Strings(dims)
	c, err := comparePairs(a, baseItems, cands, dims, fileA, ro)
	if err != nil {
		return nil, err
	}
	if a.ScoringSystem != b.ScoringSystem || a.RubricHash != b.RubricHash {
		c.Notes = append([]string{fmt.Sprintf("⚠ different scoring systems (%s, rubric sha256 %.12s vs %s, %.12s): scores are not comparable item by item; re-score both under one scoring system", a.ScoringSystem, a.RubricHash, b.ScoringSystem, b.RubricHash)}, c.Notes...)
	}
	return c, nil
}

// comparePairs pairs candidate items with baseline items and measures the change.
func comparePairs(b *Baseline, baseItems map[string]Item, cands []Candidate, dims []string, file string, ro stats.ResampleOptions) (*Comparison, error) {
	c := &Comparison{BaselineFile: file, BaselineRef: b.Source, ScoringSystem: b.ScoringSystem,
		GradingSystem: b.GradingSystem, BaselineRuns: len(b.Runs), BaselineStd: b.Std}
	seen := map[string]bool{}
	var base, cnd []float64
	var obs []stats.Observation
	var baseVar []float64
	var pairs []pair
	dimBase, dimCand := make([][]float64, len(dims)), make([][]float64, len(dims))
	dimObs, dimVar := make([][]stats.Observation, len(dims)), make([][]float64, len(dims))
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
		baseRuns := max(bi.Runs, 1)
		k := len(base)
		base = append(base, bi.Score)
		cnd = append(cnd, ci.Score)
		obs = append(obs, stats.Observation{Index: k, BaseMean: clamp01(bi.Score), BaseRuns: baseRuns, CandMean: clamp01(ci.Score), CandRuns: max(ci.Runs, 1)})
		baseVar = append(baseVar, baseVariance(bi, baseRuns))
		pairs = append(pairs, pair{bi: bi, ci: ci})
		c.CandidateRuns = max(c.CandidateRuns, ci.Runs)
		for d, name := range dims {
			dimBase[d] = append(dimBase[d], bi.Breakdown[name])
			dimCand[d] = append(dimCand[d], ci.Breakdown[name])
			sd := bi.BreakdownStd[name]
			dimObs[d] = append(dimObs[d], stats.Observation{Index: k, BaseMean: clamp01(bi.Breakdown[name]), BaseRuns: baseRuns, CandMean: clamp01(ci.Breakdown[name]), CandRuns: max(ci.Runs, 1)})
			dimVar[d] = append(dimVar[d], sd*sd)
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
		for _, l := range []struct {
			what string
			ids  []string
		}{{"changed", c.Changed}, {"added", c.Added}, {"removed (in the baseline, no longer in the suite)", c.Removed}} {
			if len(l.ids) > 0 {
				c.Notes = append(c.Notes, fmt.Sprintf("%s: %s", l.what, listIDs(l.ids, maxListedIDs)))
			}
		}
	}
	m, err := stats.MeasureDrop(base, cnd, ro)
	if err != nil {
		return nil, err
	}
	c.Base, c.Cand = rubric.Round9(m.BaseMean), rubric.Round9(m.CandMean)
	c.Delta, c.RelDelta = rubric.Round9(m.Delta), rubric.Round9(m.RelDelta)
	c.CI, c.PValue, c.PValueWorse = m.CI, m.PValue, m.PValueWorse
	ev, err := stats.MeasureEvidence(obs, baseVar, EvidenceTop)
	if err != nil {
		return nil, err
	}
	c.Evidence, c.EvidenceItems = ev, evidenceItems(ev, pairs)
	c.BiggestDrops = biggestDrops(pairs)
	for d, name := range dims {
		dd := DimensionDelta{Name: name, Base: rubric.Round9(stats.Mean(dimBase[d])), Cand: rubric.Round9(stats.Mean(dimCand[d]))}
		dd.Delta = rubric.Round9(dd.Cand - dd.Base)
		dd.CI = dimensionCI(dimBase[d], dimCand[d], ro)
		if dev, err := stats.MeasureEvidence(dimObs[d], dimVar[d], EvidenceTop); err == nil {
			dd.Evidence, dd.EvidenceItems = &dev, evidenceItems(dev, pairs)
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

// pair is one compared item: its baseline and its candidate.
type pair struct {
	bi Item
	ci Candidate
}

// baseVariance is an item's sample variance over the baseline's runs: from its
// recorded spread, or, in a version 1 baseline without one, from its pass rate as if
// its scores were pass/fail.
func baseVariance(bi Item, runs int) float64 {
	if bi.ScoreStd > 0 || bi.PassBits != "" || runs < 2 {
		return bi.ScoreStd * bi.ScoreStd
	}
	p := bi.PassRate
	return p * (1 - p) * float64(runs) / float64(runs-1)
}

func clamp01(x float64) float64 { return min(1, max(0, x)) }

// evidenceItems names the measurement's strongest items that fell below prediction.
func evidenceItems(ev stats.EvidenceResult, pairs []pair) []EvidenceItem {
	var out []EvidenceItem
	for _, t := range ev.Top {
		if t.Weight <= 0 {
			continue
		}
		p := pairs[t.Index]
		out = append(out, EvidenceItem{ID: p.ci.ID, Line: p.ci.Line, BaseScore: p.bi.Score, BaseRuns: max(p.bi.Runs, 1),
			BasePassRate: p.bi.PassRate, Predicted: rubric.Round9(t.Predicted), CandScore: p.ci.Score, CandRuns: max(p.ci.Runs, 1),
			Z: math.Round(t.Z*100) / 100})
	}
	return out
}

// biggestDrops lists the items whose score fell most, largest first (ties in suite
// order), at most MaxBiggestDrops.
func biggestDrops(pairs []pair) []ItemChange {
	var out []ItemChange
	for _, p := range pairs {
		if rubric.Round9(p.bi.Score-p.ci.Score) <= 0 {
			continue
		}
		out = append(out, ItemChange{ID: p.ci.ID, Line: p.ci.Line, BaseScore: p.bi.Score, CandScore: p.ci.Score, BasePassRate: p.bi.PassRate, CandPass: p.ci.Pass})
	}
	sort.SliceStable(out, func(i, j int) bool {
		return out[i].BaseScore-out[i].CandScore > out[j].BaseScore-out[j].CandScore
	})
	if len(out) > MaxBiggestDrops {
		out = out[:MaxBiggestDrops]
	}
	return out
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
	for i, is := range sc.Items {
		if is.Missing == is.Runs {
			continue // item added since the baseline: no recorded output
		}
		it := itemOf(sc, i)
		out[it.ID] = it
	}
	return out, nil
}

// dimensionCI is the 95% interval of a dimension's mean paired difference.
func dimensionCI(base, cand []float64, ro stats.ResampleOptions) *stats.Interval {
	m, err := stats.MeasureDrop(base, cand, ro)
	if err != nil {
		return nil
	}
	iv := m.CI
	iv.Lo, iv.Hi = rubric.Round9(iv.Lo), rubric.Round9(iv.Hi)
	return &iv
}

// maxListedIDs bounds the ids a note lists; the JSON report keeps them all.
const maxListedIDs = 20

// listIDs joins ids for a note, the first n of them and how many more.
func listIDs(ids []string, n int) string {
	if len(ids) <= n {
		return strings.Join(ids, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(ids[:n], ", "), len(ids)-n)
}
