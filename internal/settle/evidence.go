package settle

import (
	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/stats"
)

// RerunEvidence are the evidence items a round re-runs as evidence, strongest first:
// those whose pass/fail result never varied between the baseline's runs. An item that
// flipped there is re-run only among the noisy items (NoisyItems), which the baseline
// alone chooses, so the estimated drop may average its re-runs with its full runs
// (stats.Observation.Flipped). Re-running the flaky items that failed and averaging
// would retry every unlucky failure while every lucky pass stands, and pull the
// estimate toward no drop; an item chosen by how it scored is read apart instead.
//
// flipped counts the evidence items left out because they flipped: the round re-runs
// as many noisy items in their place (Look.Flipped).
func RerunEvidence(items []baseline.EvidenceItem) (ids []string, flipped int) {
	for _, e := range items {
		if !stats.Unstable(e.BasePassRate) {
			ids = append(ids, e.ID)
		}
	}
	return ids, len(items) - len(ids)
}
