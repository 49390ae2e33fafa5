package rubric

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/evalgate/evalgate/internal/reliability"
)

// Panel is a reviewer panel on one llm_judge dimension: several judges, or one judge
// sampled several times, whose scores are combined into the dimension's raw value.
type Panel struct {
	// Judges names judges of the config's `judges:` block; each is one reviewer (or
	// Samples reviewers).
	Judges []string `yaml:"judges" json:"judges"`
	// Samples asks each judge this many times, with seeds seed, seed+1, ...; the
	// reviewers are then named "<judge>#1", "<judge>#2", .... Default 1. Give the judge
	// a temperature above 0, or its samples may all be the same.
	Samples int `yaml:"samples,omitempty" json:"samples,omitempty"`
	// Aggregate is mean (default), median or majority (the most frequent score,
	// rounded to a whole number; a tie goes to the lower score).
	Aggregate string `yaml:"aggregate,omitempty" json:"aggregate,omitempty"`
	// ZNormalize standardizes each reviewer with its own mean and std from the
	// baseline, then maps back with the panel's pooled baseline mean and std:
	// x' = μ_pool + σ_pool·(x − μ_r)/σ_r (docs/judge.md).
	ZNormalize bool `yaml:"z_normalize,omitempty" json:"z_normalize,omitempty"`
}

// Panel aggregates, the values of Panel.Aggregate.
const (
	AggregateMean     = "mean"
	AggregateMedian   = "median"
	AggregateMajority = "majority"
)

func (p *Panel) check(d *Dimension) error {
	if len(p.Judges) == 0 {
		return optErr(d, "panel: no judges; list the judges of `judges:` that review this dimension")
	}
	if d.Judge != "" {
		return optErr(d, "has both `judge:` and `panel:`; a panel names its judges in panel.judges")
	}
	seen := map[string]bool{}
	for _, j := range p.Judges {
		if seen[j] {
			return optErr(d, "panel: judge %q is listed twice; use samples: to ask one judge several times", j)
		}
		seen[j] = true
	}
	if p.Samples < 0 || p.Samples > 20 {
		return optErr(d, "panel: samples is %d; want 1 to 20", p.Samples)
	}
	switch p.Aggregate {
	case "", AggregateMean, AggregateMedian, AggregateMajority:
	default:
		return optErr(d, "panel: aggregate %q; want mean, median or majority", p.Aggregate)
	}
	if p.reviewerCount() < 2 {
		return optErr(d, "panel: one reviewer is not a panel; list several judges or set samples ≥ 2")
	}
	return nil
}

func (p *Panel) reviewerCount() int { return len(p.Judges) * max(p.Samples, 1) }

// panelScorer is an llm_judge dimension scored by a panel of reviewers.
type panelScorer struct {
	d         *Dimension
	key       string
	scale     Scale
	byMax     bool
	aggregate string
	znorm     bool
	reviewers []*reviewer

	mu       sync.Mutex
	moments  *reliability.Panel // the baseline's, for z-normalization; nil: none yet
	observed map[string]*momentAcc
}

// reviewer is one member of a panel: a judge, at one sample's seed.
type reviewer struct {
	name string
	sj   *sharedJudge
}

// momentAcc accumulates a reviewer's raw scores (Welford).
type momentAcc struct {
	n       int
	mean, m float64
}

func (a *momentAcc) add(x float64) {
	a.n++
	d := x - a.mean
	a.mean += d / float64(a.n)
	a.m += d * (x - a.mean)
}

func (a *momentAcc) moments() reliability.Moments {
	m := reliability.Moments{N: a.n, Mean: a.mean}
	if a.n > 1 {
		m.Std = math.Sqrt(a.m / float64(a.n-1))
	}
	return m
}

func (s *panelScorer) Prepare(ctx context.Context, inputs []*Input) error {
	for _, r := range s.reviewers {
		if err := r.sj.prepare(ctx, s.d, inputs); err != nil {
			return err
		}
	}
	return nil
}

// raws returns each reviewer's raw score of the sample: nil when the reviewer gave
// none, with the evaluator error and its detail.
func (s *panelScorer) raws(in *Input) ([]*float64, string, string, error) {
	out := make([]*float64, len(s.reviewers))
	errName, detail := "", ""
	for i, r := range s.reviewers {
		var v Value
		var err error
		if in.Verdict != nil {
			v, err = givenValue(in.Verdict, r.name, s.key, s.scale, s.byMax, s.d)
		} else {
			v, err = r.sj.value(s.d, s.key, s.scale, s.byMax, in)
		}
		if err != nil {
			return nil, "", "", err
		}
		if v.Raw == nil || v.Error != "" {
			if errName == "" {
				errName, detail = v.Error, fmt.Sprintf("reviewer %s: %s", r.name, v.Note)
			}
			continue
		}
		x := *v.Raw
		out[i] = &x
	}
	return out, errName, detail, nil
}

func (s *panelScorer) Score(in *Input) (Value, error) {
	raws, errName, detail, err := s.raws(in)
	if err != nil {
		return Value{}, err
	}
	if errName != "" {
		// One reviewer's broken reply leaves the dimension null (0, failing), as a
		// single judge's does: dropping that reviewer could lift the score.
		return Value{Error: errName, Note: detail}, nil
	}
	s.mu.Lock()
	if in.Verdict == nil {
		for i, r := range s.reviewers {
			a := s.observed[r.name]
			if a == nil {
				a = &momentAcc{}
				s.observed[r.name] = a
			}
			a.add(*raws[i])
		}
	}
	moments := s.moments
	s.mu.Unlock()
	xs := make([]float64, len(raws))
	for i, p := range raws {
		xs[i] = *p
	}
	adj := xs
	normNote := ""
	if s.znorm {
		if moments == nil {
			normNote = " (not z-normalized: no baseline reviewer statistics yet)"
		} else {
			adj = ZNormalize(xs, s.reviewerNames(), *moments)
		}
	}
	agg := Aggregate(s.aggregate, adj)
	agg = math.Max(s.scale.Min, math.Min(s.scale.Max, agg))
	val := num(agg, s.scale, s.byMax)
	val.Note = s.note(xs, adj, agg) + normNote
	return val, nil
}

func (s *panelScorer) reviewerNames() []string {
	names := make([]string, len(s.reviewers))
	for i, r := range s.reviewers {
		names[i] = r.name
	}
	return names
}

// note keeps every reviewer's raw score, and the z-normalized ones, in the report.
func (s *panelScorer) note(raw, adj []float64, agg float64) string {
	var b strings.Builder
	b.WriteString("reviewers: ")
	for i, r := range s.reviewers {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %g", r.name, raw[i])
		if s.znorm && &adj[0] != &raw[0] {
			fmt.Fprintf(&b, " (z-normalized %.3g)", adj[i])
		}
	}
	fmt.Fprintf(&b, "; %s %.4g", s.aggregate, agg)
	return b.String()
}

// ZNormalize maps each reviewer's raw score x to μ_pool + σ_pool·(x − μ_r)/σ_r with its
// baseline mean μ_r and std σ_r and the panel's pooled baseline mean and std. A
// reviewer the baseline does not know keeps its raw score; one whose baseline scores
// never varied (σ_r = 0) is mapped to μ_pool, since it told no answer from another.
func ZNormalize(xs []float64, names []string, m reliability.Panel) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		r, ok := m.Reviewers[names[i]]
		switch {
		case !ok || r.N == 0:
			out[i] = x
		case r.Std == 0:
			out[i] = m.Pooled.Mean
		default:
			out[i] = m.Pooled.Mean + m.Pooled.Std*(x-r.Mean)/r.Std
		}
	}
	return out
}

// Aggregate combines a panel's scores: their mean, median, or majority (the most
// frequent score rounded to a whole number, a tie going to the lower score).
func Aggregate(how string, xs []float64) float64 {
	switch how {
	case AggregateMedian:
		s := slices.Clone(xs)
		slices.Sort(s)
		n := len(s)
		if n%2 == 1 {
			return s[n/2]
		}
		return (s[n/2-1] + s[n/2]) / 2
	case AggregateMajority:
		counts := map[float64]int{}
		for _, x := range xs {
			counts[math.Round(x)]++
		}
		best, bestN := math.Inf(1), 0
		for v, n := range counts {
			if n > bestN || (n == bestN && v < best) {
				best, bestN = v, n
			}
		}
		return best
	default:
		sum := 0.0
		for _, x := range xs {
			sum += x
		}
		return sum / float64(len(xs))
	}
}

func (s *panelScorer) judgeName() string { return "" }

func (s *panelScorer) reviewerValues(in *Input) ([]string, []float64) {
	raws, _, _, err := s.raws(in)
	names := s.reviewerNames()
	out := make([]float64, len(raws))
	for i, p := range raws {
		out[i] = math.NaN()
		if err == nil && p != nil {
			out[i] = s.scale.normalize(*p, s.byMax)
		}
	}
	return names, out
}

// ContentHash puts every reviewer's judge and the panel's rule into the rubric hash.
func (s *panelScorer) ContentHash() string {
	parts := []string{fmt.Sprintf("panel %s znorm=%v", s.aggregate, s.znorm)}
	for _, r := range s.reviewers {
		parts = append(parts, r.name+"="+r.sj.contentHash())
	}
	return strings.Join(parts, " | ")
}

// NeedsPanelMoments reports whether a dimension is scored by a z-normalizing panel that
// has no baseline moments yet.
func (s *System) NeedsPanelMoments() bool {
	for _, sc := range s.scorers {
		if p, ok := sc.(*panelScorer); ok && p.znorm {
			p.mu.Lock()
			missing := p.moments == nil
			p.mu.Unlock()
			if missing {
				return true
			}
		}
	}
	return false
}

// ObservedPanelMoments returns, per z-normalizing panel dimension, the moments of the
// reviewers' raw scores over every sample scored so far: what a baseline records.
func (s *System) ObservedPanelMoments() map[string]reliability.Panel {
	out := map[string]reliability.Panel{}
	for d, sc := range s.scorers {
		p, ok := sc.(*panelScorer)
		if !ok || !p.znorm {
			continue
		}
		p.mu.Lock()
		m := reliability.Panel{Reviewers: map[string]reliability.Moments{}}
		var n int
		var sum float64
		for name, a := range p.observed {
			m.Reviewers[name] = a.moments()
			n += a.n
			sum += a.mean * float64(a.n)
		}
		if n > 0 {
			// Pooled: every reviewer's scores together. Its sum of squared deviations
			// is each reviewer's own plus n_r·(μ_r − μ)².
			mean := sum / float64(n)
			var m2 float64
			for _, a := range p.observed {
				m2 += a.m + float64(a.n)*(a.mean-mean)*(a.mean-mean)
			}
			m.Pooled = reliability.Moments{N: n, Mean: mean}
			if n > 1 {
				m.Pooled.Std = math.Sqrt(m2 / float64(n-1))
			}
		}
		p.mu.Unlock()
		out[s.Dimensions[d].Name] = m
	}
	return out
}

// SetPanelMoments gives z-normalizing panels their baseline moments, by dimension
// name, and starts their observed moments afresh.
func (s *System) SetPanelMoments(m map[string]reliability.Panel) {
	for d, sc := range s.scorers {
		p, ok := sc.(*panelScorer)
		if !ok || !p.znorm {
			continue
		}
		p.mu.Lock()
		if pm, ok := m[s.Dimensions[d].Name]; ok {
			pm := pm
			p.moments = &pm
		}
		p.observed = map[string]*momentAcc{}
		p.mu.Unlock()
	}
}
