package importer

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/evalgate/evalgate/internal/eval"
)

// inspectValue maps an Inspect score value to a number the way Inspect's own
// value_to_float does: "C" (correct) = 1, "P" (partial) = 0.5, "I" (incorrect) = 0,
// "N" (no answer) = 0; numbers and booleans as themselves; "yes"/"true" = 1,
// "no"/"false" = 0, a numeric string as its number. Anything else is an error here,
// where Inspect logs a warning and uses 0, so a typo cannot pass silently.
func inspectValue(v any) (any, error) {
	switch x := v.(type) {
	case bool:
		if x {
			return 1.0, nil
		}
		return 0.0, nil
	case float64:
		return x, nil
	case string:
		switch x {
		case "C":
			return 1.0, nil
		case "P":
			return 0.5, nil
		case "I", "N":
			return 0.0, nil
		}
		switch strings.ToLower(x) {
		case "yes", "true":
			return 1.0, nil
		case "no", "false":
			return 0.0, nil
		}
		if f, err := strconv.ParseFloat(x, 64); err == nil && strings.Trim(x, "0123456789.") == "" {
			return f, nil
		}
		return nil, fmt.Errorf("is the string %q; want C, P, I, N, a number or a boolean", clip(x, 40))
	case nil:
		return nil, nil // a scorer that could not score: recorded as null, a judge error
	}
	return nil, fmt.Errorf("is %s; want C, P, I, N, a number, a boolean or an object of those", eval.Describe(v))
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// unpin is v with every string (map keys too) copied: a decoder's strings are slices of
// the text it decoded, and a sample's few kept strings would keep its whole archive
// member, transcript and all, for as long as the results hold them.
func unpin(v any) any {
	switch x := v.(type) {
	case string:
		return strings.Clone(x)
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[strings.Clone(k)] = unpin(e)
		}
		return m
	case []any:
		for i, e := range x {
			x[i] = unpin(e)
		}
		return x
	}
	return v
}
