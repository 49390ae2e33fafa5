package rubric

import (
	"fmt"
	"slices"
	"strings"
)

// ReportItemKeys are the keys an item of the JSON report holds besides the values of
// recorded and llm_judge dimensions, which are written at the same level under their
// key (accuracy_score, ...). report.Item writes them; a test there keeps this list
// complete. Build refuses a dimension named like one of them (a recorded dimension's
// key is its name by default); a value whose key is one of them (promptfoo's `score`)
// is shown only in the item's `raw`, under the dimension's name.
var ReportItemKeys = []string{
	"item", "prompt", "expected", "got", "score", "breakdown", "weighted", "raw", "pass",
	"pass_runs", "runs", "capped_by", "missing", "missing_runs", "pending", "labels",
	"evaluator_error", "notes", "line", "tags",
	// the result's own per-sample fields
	"latency_e2e_ms", "latency_model_ms", "input_tokens", "output_tokens", "total_tokens",
	"token_efficiency_ratio", "timed_out", "error",
}

// reservedName says why a dimension may not be named name, or "".
func reservedName(name string) string {
	if !slices.Contains(ReportItemKeys, name) {
		return ""
	}
	return fmt.Sprintf("dimension name %q is also a key of each item in the JSON report, so the report could not tell them apart; rename the dimension (reserved names: %s)",
		name, strings.Join(ReportItemKeys, ", "))
}
