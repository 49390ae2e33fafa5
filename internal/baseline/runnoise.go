package baseline

import "github.com/evalgate/evalgate/internal/stats"

// runGroups are the runs a comparison knows by their suite means, for the run-level
// noise (stats/runnoise.go): the baseline's runs (used when its per-run item scores are
// not known), the candidate's full runs and the history's earlier releases.
func runGroups(b *Baseline, bs *baseSide, cs candSide) []stats.RunGroup {
	return append([]stats.RunGroup{{Means: b.runMeans(), Source: stats.BaselineSource}, {Means: cs.runMeans}}, bs.history...)
}

// runMeans are the baseline's runs' suite means, or nil when it kept none (a baseline
// made before run means were recorded has them all 0 with a non-zero mean).
func (b *Baseline) runMeans() []float64 {
	var out []float64
	var sum float64
	for _, r := range b.Runs {
		out = append(out, r.MeanScore)
		sum += r.MeanScore
	}
	if sum == 0 && b.Mean != 0 {
		return nil
	}
	return out
}
