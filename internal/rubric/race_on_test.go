//go:build race

package rubric

// raceEnabled: the race detector makes sync.Pool drop items at random, so allocation
// counts of pooled code are not meaningful under it.
const raceEnabled = true
