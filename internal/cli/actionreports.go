package cli

import (
	"fmt"
	"strings"

	"github.com/evalgate/evalgate/internal/eval"
)

// maxSuiteDiffShown bounds the item ids a suite mismatch names.
const maxSuiteDiffShown = 10

// checkShardSuite refuses shards' reports scored against another suite than the base
// commit's (suite, the file the base config names; shown, its repository path): a report carries its own suite
// index, and each item's score was computed against the item as the shard job read it.
// Items the shards lack would not count as missing, and an item whose fields changed
// (its expected answer) was scored against the pull request's version, so neither can
// be gated by the base commit's suite: the check stops and says which. Items only the
// shards have (added by the pull request) are left to the rest of the check.
func checkShardSuite(suite, shown string, shards *eval.Index) error {
	base, err := eval.LoadSuite(suite)
	if err != nil {
		return err
	}
	var missing, changed []string
	for i := range base.Len() {
		id := base.ID(i)
		j, ok := shards.Find(id)
		switch {
		case !ok:
			missing = append(missing, id)
		case shards.HashOf(j) != base.HashOf(i):
			changed = append(changed, id)
		}
	}
	if len(missing) == 0 && len(changed) == 0 {
		return nil
	}
	var parts []string
	for _, l := range []struct {
		what string
		ids  []string
	}{{"lack", missing}, {"changed", changed}} {
		if len(l.ids) == 0 {
			continue
		}
		shown := l.ids[:min(len(l.ids), maxSuiteDiffShown)]
		s := fmt.Sprintf("%d item(s) of the base commit's suite they %s (%s", len(l.ids), l.what, strings.Join(shown, ", "))
		if len(l.ids) > len(shown) {
			s += fmt.Sprintf(" and %d more", len(l.ids)-len(shown))
		}
		parts = append(parts, s+")")
	}
	return fmt.Errorf("the reports were scored against another suite than the base commit's %s: %s. "+
		"A pull request is gated by its base commit's suite: score the shards with it, or give the results instead of reports",
		shown, strings.Join(parts, "; "))
}
