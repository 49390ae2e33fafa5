package cli

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Reports record when they were made (metadata.timestamp_utc) and a run id hashed from
// it. SOURCE_DATE_EPOCH (the reproducible-builds convention: seconds since 1970 UTC)
// pins that time, so the same inputs give byte-identical reports however the clock has
// moved; `--run-id` pins the id (and, without SOURCE_DATE_EPOCH, the time to 1970-01-01).

// sourceDateEpoch is the variable that pins the reports' time.
const sourceDateEpoch = "SOURCE_DATE_EPOCH"

// reportTime is the time a report records: SOURCE_DATE_EPOCH when set, else the Unix
// epoch when runID pins the report, else the clock.
func (c *CLI) reportTime(runID string) (time.Time, error) {
	if s := strings.TrimSpace(c.Getenv(sourceDateEpoch)); s != "" {
		sec, err := strconv.ParseInt(s, 10, 64)
		if err != nil || sec < 0 {
			return time.Time{}, fmt.Errorf("%s=%q; want whole seconds since 1970-01-01 UTC (e.g. $(git log -1 --format=%%ct))", sourceDateEpoch, s)
		}
		return time.Unix(sec, 0).UTC(), nil
	}
	if runID != "" {
		return time.Unix(0, 0).UTC(), nil
	}
	return c.Now(), nil
}

// pinned reports whether the report is pinned (SOURCE_DATE_EPOCH set, or a --run-id):
// then nothing the clock measures while checking goes into it (settle's elapsed time,
// its re-runs' latencies).
func (c *CLI) pinned(runID string) bool {
	return runID != "" || strings.TrimSpace(c.Getenv(sourceDateEpoch)) != ""
}
