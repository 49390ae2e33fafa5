// Package reliability is what evalgate knows about its judges' own trustworthiness:
// each judge's fingerprint (so a changed judge is caught), and how well a judge agrees
// with itself when asked again (Krippendorff's α over repeated verdicts), kept in the
// baseline. It measures and describes; gate decides what a figure means for a verdict.
// It imports no LLM client, so the decision packages can read it.
package reliability

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/internal/stats"
)

// Defaults of a reliability measurement.
const (
	// DefaultSample is how many outputs are re-judged (all of them when fewer).
	DefaultSample = 50
	// DefaultRepeats is how many times each sampled output is judged, cache bypassed.
	DefaultRepeats = 3
)

// Fingerprint identifies a judge: everything that makes two of its verdicts comparable.
type Fingerprint struct {
	// Judge is the judge's name in the config's `judges:` block.
	Judge string `json:"judge"`
	// Model is the configured model id.
	Model string `json:"model"`
	// Served is what the provider reported answering with: "model" or
	// "model@system_fingerprint", several joined by ", "; empty when no call was made
	// (every verdict from the cache) or the provider says nothing.
	Served string `json:"served,omitempty"`
	// TemplateHash is the hash of the prompt template and its parse rules.
	TemplateHash string `json:"template_hash"`
	// Params are the generation parameters, as "temperature=0 top_p=1 ...".
	Params string `json:"params"`
}

// Change is one judge whose fingerprint differs from the baseline's.
type Change struct {
	Judge string `json:"judge"`
	// What lists each differing part: "model gpt-a → gpt-b".
	What []string `json:"what"`
	// Rejudgeable is false when only the provider's build (Served) moved: the same
	// configuration cannot ask the old build again, so nothing was re-judged.
	Rejudgeable bool `json:"rejudgeable"`
}

// String is the change in one line: `judge "default": model gpt-a → gpt-b`.
func (c Change) String() string {
	return fmt.Sprintf("judge %q: %s", c.Judge, strings.Join(c.What, "; "))
}

// Changes compares the baseline's judges with the current ones, by name. A judge the
// baseline does not know, or one it knew that is gone, is a change too. A baseline that
// recorded no fingerprints (made before they were kept) gives none.
func Changes(base, cur []Fingerprint) []Change {
	if len(base) == 0 {
		return nil
	}
	byName := map[string]Fingerprint{}
	for _, f := range base {
		byName[f.Judge] = f
	}
	var out []Change
	seen := map[string]bool{}
	for _, f := range cur {
		seen[f.Judge] = true
		b, ok := byName[f.Judge]
		if !ok {
			out = append(out, Change{Judge: f.Judge, What: []string{"not in the baseline (model " + f.Model + ")"}, Rejudgeable: true})
			continue
		}
		var what []string
		add := func(name, a, b string) {
			if a != b {
				what = append(what, fmt.Sprintf("%s %s → %s", name, orNone(a), orNone(b)))
			}
		}
		add("model", b.Model, f.Model)
		add("template", short(b.TemplateHash), short(f.TemplateHash))
		add("parameters", b.Params, f.Params)
		configured := len(what) > 0
		if b.Served != "" && f.Served != "" {
			add("served by", b.Served, f.Served)
		}
		if len(what) > 0 {
			out = append(out, Change{Judge: f.Judge, What: what, Rejudgeable: configured})
		}
	}
	for _, f := range base {
		if !seen[f.Judge] {
			out = append(out, Change{Judge: f.Judge, What: []string{"in the baseline (model " + f.Model + ") but no longer configured"}, Rejudgeable: true})
		}
	}
	slices.SortFunc(out, func(a, b Change) int { return strings.Compare(a.Judge, b.Judge) })
	return out
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func short(h string) string {
	h = strings.TrimPrefix(h, "sha256:")
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// Measurement is a judge reliability check: a sample of outputs each judged Repeats
// times with the cache bypassed.
type Measurement struct {
	// Sample is the number of outputs re-judged; Repeats the judgments of each.
	Sample  int `json:"sample"`
	Repeats int `json:"repeats"`
	// Dimensions has one entry per judged dimension, in scoring order.
	Dimensions []Dimension `json:"dimensions"`
}

// Dimension is the reliability of one judged dimension.
type Dimension struct {
	Name string `json:"dimension"`
	// Judge names the judge, or the panel's reviewers joined by ", ".
	Judge string `json:"judge"`
	// Weight is the dimension's weight in the score when measured.
	Weight float64 `json:"weight"`
	// Level is the level of measurement α was computed at: nominal for binary and
	// pass/fail scales, interval for numeric scales and panel aggregates.
	Level stats.Level `json:"level"`
	// Alpha is the judge's self-agreement over the repeats (the panel aggregate's, for
	// a panel): Krippendorff's α, nil when undefined (every verdict the same value).
	Alpha *float64 `json:"alpha"`
	// Exact is the share of pairs of repeats of one output that gave the same value.
	Exact *float64 `json:"exact_agreement"`
	// Variance is the judge's noise on one verdict: the mean over the sampled outputs
	// of the sample variance of its repeats, on the dimension's normalized 0–1 scale.
	Variance float64 `json:"variance"`
	// Units is the number of outputs with two or more usable verdicts.
	Units int `json:"units"`
	// InterReviewer is a panel's inter-reviewer α (the reviewers' raw scores on the
	// first repeat, one unit per output); nil for a single judge.
	InterReviewer *float64 `json:"inter_reviewer_alpha,omitempty"`
}

// MeasureDimension computes a dimension's reliability from its repeats: units[u][r] is
// output u's normalized value at repeat r (NaN when the judge gave none).
func MeasureDimension(name, judge string, weight float64, level stats.Level, units [][]float64) (Dimension, error) {
	d := Dimension{Name: name, Judge: judge, Weight: weight, Level: level}
	a, err := stats.KrippendorffAlpha(units, level)
	if err != nil {
		return d, fmt.Errorf("dimension %q: %w", name, err)
	}
	d.Units = a.Units
	d.Alpha = finite(a.Alpha)
	d.Exact = finite(stats.ExactAgreement(units))
	var sum float64
	var n int
	for _, u := range units {
		var xs []float64
		for _, v := range u {
			if !math.IsNaN(v) {
				xs = append(xs, v)
			}
		}
		if len(xs) >= 2 {
			s := stats.SampleStd(xs)
			sum += s * s
			n++
		}
	}
	if n > 0 {
		d.Variance = sum / float64(n)
	}
	return d, nil
}

// InterReviewerAlpha sets d's inter-reviewer α from units[u][reviewer].
func (d *Dimension) InterReviewerAlpha(units [][]float64) error {
	a, err := stats.KrippendorffAlpha(units, d.Level)
	if err != nil {
		return fmt.Errorf("dimension %q: inter-reviewer: %w", d.Name, err)
	}
	d.InterReviewer = finite(a.Alpha)
	return nil
}

func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// Find returns the named dimension's reliability, if measured.
func (m *Measurement) Find(name string) (Dimension, bool) {
	if m == nil {
		return Dimension{}, false
	}
	for _, d := range m.Dimensions {
		if d.Name == name {
			return d, true
		}
	}
	return Dimension{}, false
}

// Moments are the mean and sample std of a reviewer's raw scores, over N scores.
type Moments struct {
	N    int     `json:"n"`
	Mean float64 `json:"mean"`
	Std  float64 `json:"std"`
}

// Panel is what a z-normalizing panel needs from the baseline: each reviewer's
// moments, and the pooled moments of every reviewer's scores together.
type Panel struct {
	Reviewers map[string]Moments `json:"reviewers"`
	Pooled    Moments            `json:"pooled"`
}
