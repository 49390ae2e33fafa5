package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Formats a report renders to.
const (
	FormatTable    = "table"
	FormatMarkdown = "markdown"
	FormatJSON     = "json"
)

// Formats lists the accepted --format values: every usage string and message is made
// from it (FormatChoices).
var Formats = []string{FormatTable, FormatMarkdown, FormatJSON, FormatJUnit, FormatHTML}

// ComparisonFormats lists the formats of a release-to-release diff (RenderComparison).
var ComparisonFormats = []string{FormatTable, FormatMarkdown, FormatJSON}

// FormatChoices is formats as a usage line shows them: "table|markdown|json|junit|html".
func FormatChoices(formats []string) string { return strings.Join(formats, "|") }

// Render writes the report in a format.
func Render(w io.Writer, r *Report, format string) error {
	if r.jsonOnly && format != FormatJSON {
		return fmt.Errorf("report: built for the JSON format only (its items are not in memory), asked for %s", format)
	}
	switch format {
	case FormatTable:
		return r.WriteTable(w)
	case FormatMarkdown:
		_, err := io.WriteString(w, r.Markdown(MarkdownOptions{}))
		return err
	case FormatJSON:
		return r.WriteJSON(w)
	case FormatJUnit:
		return r.WriteJUnit(w)
	case FormatHTML:
		return r.WriteHTML(w)
	}
	return fmt.Errorf("unknown format %q; want %s", format, strings.Join(Formats, ", "))
}

// writeJSON writes v as indented JSON, without HTML escaping so model outputs read as
// written.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
