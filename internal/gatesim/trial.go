package gatesim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/rubric"
	"github.com/evalgate/evalgate/internal/stats"
)

// BaselineRuns is the number of runs every simulated baseline has.
const BaselineRuns = 3

// MaxDrop is the simulated gate's threshold: 2 pts.
const MaxDrop = 0.02

// PassThreshold is the per-run pass rule of the simulated rubric (DESIGN.md's default).
const PassThreshold = 0.8

// Methods are the decision methods a trial decides with, in table order.
var Methods = []string{gate.MethodEvidence, gate.MethodPlain, gate.MethodSignificance}

// Cell is one row of the table: a model, a shape, a suite size, a number of candidate
// runs and a true drop.
type Cell struct {
	Model    Model
	Shape    Shape
	Items    int
	CandRuns int
	Drop     float64 // true drop, a fraction of the 0–1 score (0.04 = 4 pts)
	Trials   int
	// BaseRuns is the baseline's number of runs (0: BaselineRuns).
	BaseRuns int
	// Settle: an inconclusive first look is settled (settle.go), with the evidence
	// method only.
	Settle bool
	// History is how many earlier releases the suite's history holds, each
	// BaselineRuns runs of the baseline's system with fresh run-level noise, known by
	// their suite means (as baselines/<suite>.history keeps them).
	History int
}

// baseRuns is the cell's baseline run count.
func (c Cell) baseRuns() int {
	if c.BaseRuns > 0 {
		return c.BaseRuns
	}
	return BaselineRuns
}

// Outcome is what one trial's decisions were, per method, with the plain drop.
type Outcome struct {
	Status    map[string]gate.Status // per method: pass, inconclusive or fail
	Value     map[string]float64     // per method: the figure that decided
	PlainDrop float64                // the observed drop (plain's statistic)
	// Interval is the evidence method's 95 % interval of the drop.
	Interval stats.Interval
}

// Draw simulates one pull request's scores: per item, the BaselineRuns baseline runs'
// scores and the cell.CandRuns candidate runs' scores.
func Draw(cell Cell, seed uint64) (base, cand [][]float64) {
	pr := draw(cell, seed)
	return pr.base, pr.cand
}

// pr is one simulated pull request: its scores so far, and what re-running an item
// draws from (the candidate's items and the trial's random stream).
type pr struct {
	cell       Cell
	base, cand [][]float64
	candItems  []item
	rng        *rand.Rand
	// rounds are the re-runs so far: per item, its score in each (NaN: not in it).
	rounds [][]float64
	// history are the earlier releases' runs by their suite means (Cell.History).
	history []stats.RunGroup
}

// rerun draws one more candidate run of the items at idx, as one batch: a fresh
// run-level effect shared by the batch (a re-run is a new run, on another day).
func (p *pr) rerun(idx []int) {
	e := p.cell.Model.runEffect(p.rng)
	if p.rounds == nil {
		p.rounds = make([][]float64, len(p.cand))
	}
	n := 0
	for i := range p.rounds {
		n = max(n, len(p.rounds[i]))
	}
	for _, i := range idx {
		for len(p.rounds[i]) < n {
			p.rounds[i] = append(p.rounds[i], math.NaN())
		}
		y := p.candItems[i].draw(p.cell.Shape, e, p.rng)
		p.cand[i] = append(p.cand[i], y)
		p.rounds[i] = append(p.rounds[i], y)
	}
	for i := range p.rounds {
		for len(p.rounds[i]) < n+1 {
			p.rounds[i] = append(p.rounds[i], math.NaN())
		}
	}
}

func draw(cell Cell, seed uint64) *pr {
	rng := rand.New(rand.NewPCG(seed, uint64(cell.Items)*1000003+uint64(cell.CandRuns)))
	baseItems, candItems := suite(cell.Model, cell.Shape, cell.Items, cell.Drop, rng)
	base, cand := make([][]float64, cell.Items), make([][]float64, cell.Items)
	be, ce := make([]runEffect, cell.baseRuns()), make([]runEffect, cell.CandRuns)
	for r := range be {
		be[r] = cell.Model.runEffect(rng)
	}
	for r := range ce {
		ce[r] = cell.Model.runEffect(rng)
	}
	for i := range baseItems {
		for _, e := range be {
			base[i] = append(base[i], baseItems[i].draw(cell.Shape, e, rng))
		}
		for _, e := range ce {
			cand[i] = append(cand[i], candItems[i].draw(cell.Shape, e, rng))
		}
	}
	p := &pr{cell: cell, base: base, cand: cand, candItems: candItems, rng: rng}
	// Drawn after the pull request's runs, so a cell without history draws what it did.
	for h := range cell.History {
		g := stats.RunGroup{Source: fmt.Sprintf("release-%d", h+1)}
		for range BaselineRuns {
			e := cell.Model.runEffect(rng)
			var sum float64
			for _, it := range baseItems {
				sum += it.draw(cell.Shape, e, rng)
			}
			g.Means = append(g.Means, sum/float64(len(baseItems)))
		}
		p.history = append(p.history, g)
	}
	return p
}

// Evaluate measures and decides one pull request's scores with every method, through the
// functions evalgate uses: baseline.CompareSnapshotsWith and gate.Regression.Decide.
func Evaluate(base, cand [][]float64, history ...stats.RunGroup) (Outcome, error) {
	cmp, err := compare(base, cand, len(cand[0]), nil, history...)
	if err != nil {
		return Outcome{}, err
	}
	out := Outcome{Status: map[string]gate.Status{}, Value: map[string]float64{}, PlainDrop: -cmp.Delta}
	for _, m := range Methods {
		md := MaxDrop
		rg := gate.DefaultRegression()
		rg.MaxDrop, rg.Method = &md, m
		d := rg.Decide(cmp)
		out.Status[m], out.Value[m] = d.Outcome, d.Value
		if m == gate.MethodEvidence {
			out.Interval = d.Interval
		}
	}
	return out, nil
}

// compare is the comparison evalgate compare makes of the scores: the candidate's
// first full runs are full runs (their suite means recorded), any further scores of
// an item are its re-runs.
// compare compares the candidate's scores (its first full runs, then any re-runs, whose
// scores rounds holds apart: nil without) with the baseline's.
func compare(base, cand [][]float64, full int, rounds [][]float64, history ...stats.RunGroup) (*baseline.Comparison, error) {
	b := &baseline.Baseline{SchemaVersion: baseline.SchemaVersion, Runs: make([]baseline.RunAggregate, len(base[0])),
		Items: make([]baseline.Item, len(base))}
	c := &baseline.Baseline{SchemaVersion: baseline.SchemaVersion, Runs: make([]baseline.RunAggregate, full),
		Items: make([]baseline.Item, len(cand))}
	for i := range base {
		b.Items[i] = itemOf(itemID(i), base[i])
		c.Items[i] = itemOf(itemID(i), cand[i])
		if i < len(rounds) && len(cand[i]) > full {
			c.Items[i].Rounds = &rubric.ItemRounds{Full: rubric.Round9(stats.Mean(cand[i][:full])), FullRuns: full, Rounds: rounds[i]}
		}
	}
	runMeans(b, base)
	runMeans(c, cand)
	return baseline.CompareSnapshotsWith(b, c, "baseline.json", stats.ResampleOptions{Analytic: true}, history...)
}

// runMeans records each full run's suite mean, as evalgate baseline does (the run-level
// noise reads them).
func runMeans(b *baseline.Baseline, scores [][]float64) {
	for r := range b.Runs {
		var s float64
		for i := range scores {
			s += scores[i][r]
		}
		b.Runs[r].MeanScore = s / float64(len(scores))
	}
}

// itemOf is an item's figures over its runs, as evalgate baseline records them.
func itemOf(id string, scores []float64) baseline.Item {
	bits := make([]byte, len(scores))
	passes := 0
	for r, s := range scores {
		bits[r] = '0'
		if s >= PassThreshold {
			bits[r] = '1'
			passes++
		}
	}
	return baseline.Item{ID: id, Runs: len(scores), Score: rubric.Round9(stats.Mean(scores)), ScoreStd: rubric.Round9(stats.SampleStd(scores)),
		PassRate: rubric.Round9(float64(passes) / float64(len(scores))), PassBits: string(bits)}
}

// Trial simulates one pull request: a fresh baseline of BaselineRuns runs and a
// candidate of cell.CandRuns runs, compared and decided by every method.
func Trial(cell Cell, seed uint64) (Outcome, error) {
	pr := draw(cell, seed)
	return Evaluate(pr.base, pr.cand, pr.history...)
}

// MaxItems is the largest suite the simulation draws.
const MaxItems = 1000

// ids are the item ids, made once (trials run in parallel and only read them).
var ids = func() []string {
	out := make([]string, MaxItems)
	for i := range out {
		out[i] = fmt.Sprintf("item-%04d", i)
	}
	return out
}()

func itemID(i int) string { return ids[i] }

// Result is a cell's counts.
type Result struct {
	Cell         Cell
	Fails        map[string]int // trials the method failed (a block means fail only)
	Inconclusive map[string]int
	PlainDrops   []float64 // the observed drop of every trial, sorted
	// Covered counts the trials whose evidence interval held the true drop.
	Covered int
	// ExtraRuns is the item-runs settling added, over every trial.
	ExtraRuns int
}

// Rate is k of n as a fraction, with its 95 % Wilson interval.
func Rate(k, n int) (p, lo, hi float64) {
	if n == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	z := stats.Z95
	fn := float64(n)
	p = float64(k) / fn
	den := 1 + z*z/fn
	mid := (p + z*z/(2*fn)) / den
	half := z * math.Sqrt(p*(1-p)/fn+z*z/(4*fn*fn)) / den
	return p, math.Max(0, mid-half), math.Min(1, mid+half)
}

// Run simulates a cell. Trials are seeded 1..Trials, so a cell gives the same counts on
// every machine.
func Run(cell Cell) (Result, error) {
	r := Result{Cell: cell, Fails: map[string]int{}, Inconclusive: map[string]int{}}
	for t := 1; t <= cell.Trials; t++ {
		if cell.Settle {
			st, extra, d, err := settleTrial(draw(cell, uint64(t)))
			if err != nil {
				return r, err
			}
			switch st {
			case gate.Fail:
				r.Fails[gate.MethodEvidence]++
			case gate.Inconclusive:
				r.Inconclusive[gate.MethodEvidence]++
			}
			r.ExtraRuns += extra
			if d.Interval.Lo <= cell.Drop+1e-9 && cell.Drop-1e-9 <= d.Interval.Hi {
				r.Covered++
			}
			continue
		}
		o, err := Trial(cell, uint64(t))
		if err != nil {
			return r, err
		}
		for m, st := range o.Status {
			switch st {
			case gate.Fail:
				r.Fails[m]++
			case gate.Inconclusive:
				r.Inconclusive[m]++
			}
		}
		r.PlainDrops = append(r.PlainDrops, o.PlainDrop)
		if o.Interval.Lo <= cell.Drop+1e-9 && cell.Drop-1e-9 <= o.Interval.Hi {
			r.Covered++
		}
	}
	sort.Float64s(r.PlainDrops)
	return r, nil
}

// Rethresholded is plain's detection rate in alt when its threshold is moved so that
// it blocks null (the same model, shape and size with no drop) at the false-block rate
// fb: the threshold is null's (1 − fb) quantile of the observed drop.
func Rethresholded(null, alt Result, fb float64) float64 {
	if len(null.PlainDrops) == 0 || len(alt.PlainDrops) == 0 {
		return math.NaN()
	}
	k := int(math.Ceil((1 - fb) * float64(len(null.PlainDrops))))
	if k >= len(null.PlainDrops) {
		k = len(null.PlainDrops) - 1
	}
	thr := null.PlainDrops[k]
	above := len(alt.PlainDrops) - sort.SearchFloat64s(alt.PlainDrops, math.Nextafter(thr, math.Inf(1)))
	return float64(above) / float64(len(alt.PlainDrops))
}
