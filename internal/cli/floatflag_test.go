package cli

import (
	"strings"
	"testing"
	"time"
)

// TestFloatFlagsRefuseNaN: every float flag refuses NaN and the infinities with exit 2
// before anything is read; flag's Float64 took them, and `check --max-cost-usd NaN`
// then ran with a judge cap no cost could pass. The files named do not exist: the flag
// is refused first.
func TestFloatFlagsRefuseNaN(t *testing.T) {
	t.Parallel()
	now := func() time.Time { return time.Unix(0, 0) }
	for _, args := range [][]string{
		{"check", "--config", "nope.yaml", "--max-cost-usd", "NaN"},
		{"check", "--config", "nope.yaml", "--max-cost-usd", "Inf"},
		{"run", "--config", "nope.yaml", "--max-cost-usd", "nan"},
		{"check", "--config", "nope.yaml", "--settle", "--settle-max-cost-usd", "NaN"},
		{"compare", "--max-drop", "NaN", "a.json", "b.json"},
		{"compare", "--max-drop", "-Inf", "a.json", "b.json"},
		{"check", "--config", "nope.yaml", "--max-memory", "NaN"},
	} {
		_, stderr, code := runCLI(t, now, args...)
		flagName := args[len(args)-2]
		if args[0] == "compare" {
			flagName = args[1]
		}
		if code != ExitBadInput || !strings.Contains(stderr, "invalid value") || !strings.Contains(stderr, strings.TrimLeft(flagName, "-")) {
			t.Errorf("%s: exit %d, stderr %q; want 2 and the flag's value refused", strings.Join(args, " "), code, stderr)
		}
	}
}
