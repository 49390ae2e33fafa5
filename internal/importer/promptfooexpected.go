package importer

import (
	"strconv"

	"github.com/evalgate/evalgate/internal/eval"
)

// pfTextAsserts are the promptfoo assertions that hold the output to a text given as
// their value: what a reader would call the expected answer.
var pfTextAsserts = map[string]bool{"equals": true, "contains": true, "icontains": true, "starts-with": true, "regex": true}

// pfExpectedAssertion is the expected text of a test that names no `expected` var: its
// one assertion of pfTextAsserts, as "contains: 14 days" ("equals" gives the value
// alone), cut to eval.MaxNoteRunes. "" when the test has none of them, or several (no
// one of them is the answer), or its value is not a string or a number. The test's
// other assertions (javascript, is-json, a judge) hold no expected text and are passed
// over. The text is the result's (expected_assertion), never the item's: the item's
// hash stays its suite fields'.
func pfExpectedAssertion(rec map[string]any) string {
	tc, _ := rec["testCase"].(map[string]any)
	asserts, _ := tc["assert"].([]any)
	text := ""
	for _, a := range asserts {
		m, _ := a.(map[string]any)
		typ, _ := m["type"].(string)
		if !pfTextAsserts[typ] {
			continue
		}
		if text != "" {
			return ""
		}
		var v string
		switch x := m["value"].(type) {
		case string:
			v = x
		case float64:
			v = strconv.FormatFloat(x, 'f', -1, 64)
		default:
			return ""
		}
		if v == "" {
			return ""
		}
		text = typ + ": " + v
		if typ == "equals" {
			text = v
		}
	}
	return eval.ClipNote(text)
}
