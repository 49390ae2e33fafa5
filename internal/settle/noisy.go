package settle

import (
	"sort"

	"github.com/evalgate/evalgate/internal/baseline"
)

// NoisyItems are the items whose noise the estimated drop carries most: those that
// flipped between the baseline's runs, most variance first (a pass rate r varies as
// r·(1 − r) per run; ties keep the suite's order). An item's share of the estimate's
// variance is its per-run variance over its runs, so re-running these is what narrows
// the interval when the size of a drop is unsure; items that never flipped add almost
// nothing to it.
func NoisyItems(c *baseline.Comparison) []string {
	if c == nil {
		return nil
	}
	items := append([]baseline.ItemChange(nil), c.Unstable...)
	sort.SliceStable(items, func(i, j int) bool {
		ri, rj := items[i].BasePassRate, items[j].BasePassRate
		return ri*(1-ri) > rj*(1-rj)
	})
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.ID
	}
	return out
}
