package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/history"
	"github.com/evalgate/evalgate/internal/rubric"
)

// unbumpedScoring is what `evalgate baseline` warns before writing b at out when the
// rubric changed since the previous baseline there (else since the history's last
// record) while the scoring version did not: scores either side are then not
// comparable, and nothing else would say so. With nothing before at out (--out names
// a new file), the config's own baseline, configured, is the one before. Empty when the
// scoring is unchanged, was bumped, or there is nothing before.
func unbumpedScoring(out, configured string, b *baseline.Baseline) string {
	if w := unbumpedAt(out, b); w != "" || configured == "" || baseline.FileName(configured) == out {
		return w
	}
	return unbumpedAt(baseline.FileName(configured), b)
}

// unbumpedAt is unbumpedScoring against what is at out: its baseline, else its history.
func unbumpedAt(out string, b *baseline.Baseline) string {
	version, hash, from := "", "", ""
	prev, _ := baseline.Find(out) // the previous one may have the old name, X.json
	if _, err := os.Stat(prev); errors.Is(err, fs.ErrNotExist) {
		recs, herr := history.Load(history.PathFor(out))
		if herr != nil || len(recs) == 0 {
			return ""
		}
		last := recs[len(recs)-1]
		version, hash, from = last.ScoringSystem, last.RubricHash, "the last record of "+history.PathFor(out)
	} else {
		r, err := baseline.Open(prev)
		if err != nil {
			return fmt.Sprintf("could not read the previous baseline to check its scoring version: %v", err)
		}
		h := r.Header()
		r.Close()
		version, hash, from = h.ScoringSystem, h.RubricHash, "the previous baseline "+prev
	}
	if version != b.ScoringSystem || hash == "" || b.RubricHash == "" || hash == b.RubricHash {
		return ""
	}
	return fmt.Sprintf("the scoring changed but its version did not (still %s; rubric sha256 %.12s in %s → %.12s now): scores on either side are not comparable; when the change is meant, write `version: %s` under `scoring:` and make the baseline again",
		version, hash, from, b.RubricHash, rubric.NextVersion(version))
}
