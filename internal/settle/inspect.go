package settle

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// InspectSampleID is the selector that makes Inspect's --sample-id read back exactly
// id. Inspect reads the option's one value as a list by splitting it at every comma and
// stripping whitespace from each piece (inspect_ai's parse_sample_id:
// [id.strip() for id in sample_id.split(",")]); it has no quoting or escape. So an id
// with spaces, quotes or shell characters inside it is its own selector (the command
// runs without a shell), and an id that holds a comma, is empty, or starts or ends
// with whitespace cannot be selected at all: Inspect would read other ids than the
// item's. That is a *CannotRerun saying so, which stops settling ("cannot settle")
// rather than failing the check.
func InspectSampleID(id string) (string, error) {
	why := ""
	first, _ := utf8.DecodeRuneInString(id)
	last, _ := utf8.DecodeLastRuneInString(id)
	switch {
	case id == "":
		why = "is empty"
	case strings.Contains(id, ","):
		why = "holds a comma, where --sample-id splits its list"
	case pySpace(first) || pySpace(last):
		why = "starts or ends with whitespace, which --sample-id strips"
	default:
		return id, nil
	}
	// The id is untrusted text bound for the report: quoted, and no backtick may open a
	// code span there.
	quoted := strings.ReplaceAll(fmt.Sprintf("%q", id), "`", `\x60`)
	return "", &CannotRerun{Why: fmt.Sprintf("Inspect cannot select sample %s: its id %s, and --sample-id has no escape. Give the sample an id without commas or surrounding whitespace", quoted, why)}
}

// pySpace says whether Python's str.strip() strips r: Unicode whitespace, and the
// separators U+001C–U+001F, which Python counts as whitespace and Go does not.
func pySpace(r rune) bool { return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f }
