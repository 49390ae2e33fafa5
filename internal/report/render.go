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

// Formats lists the accepted --format values.
var Formats = []string{FormatTable, FormatMarkdown, FormatJSON}

// Render writes the report in a format.
func Render(w io.Writer, r *Report, format string) error {
	switch format {
	case FormatTable:
		return r.WriteTable(w)
	case FormatMarkdown:
		_, err := io.WriteString(w, r.Markdown(MarkdownOptions{}))
		return err
	case FormatJSON:
		return r.WriteJSON(w)
	}
	return fmt.Errorf("unknown format %q; want %s", format, strings.Join(Formats, ", "))
}

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error { return writeJSON(w, r) }

// writeJSON writes v as indented JSON, without HTML escaping so model outputs read as
// written.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
