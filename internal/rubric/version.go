package rubric

import (
	"fmt"
	"strconv"
	"strings"
)

// NextVersion is the version to write after a change of the scoring system: the next
// minor version ("scoringSystem/1.0.3" → "scoringSystem/1.1.0"). A version that does not
// parse is returned unchanged.
func NextVersion(v string) string {
	num, ok := strings.CutPrefix(v, "scoringSystem/")
	parts := strings.Split(num, ".")
	if !ok || len(parts) != 3 {
		return v
	}
	minor, err := strconv.Atoi(parts[1])
	if err != nil {
		return v
	}
	return fmt.Sprintf("scoringSystem/%s.%d.0", parts[0], minor+1)
}
