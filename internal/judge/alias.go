package judge

import "strings"

// IsFloatingAlias reports whether model names a moving target rather than a snapshot:
// "latest" itself, or a name ending in "-latest", ":latest", "@latest" or "/latest".
// Seed 001 §4.2 forbids such names in benchmark runs: their meaning changes under you.
func IsFloatingAlias(model string) bool {
	m := strings.ToLower(strings.TrimSpace(model))
	if m == "latest" {
		return true
	}
	for _, sep := range []string{"-", ":", "@", "/"} {
		if strings.HasSuffix(m, sep+"latest") {
			return true
		}
	}
	return false
}
