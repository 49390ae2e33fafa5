package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/evalgate/evalgate/internal/importer"
)

// varsExcerptRunes bounds the excerpt of a test's vars in testHint.
const varsExcerptRunes = 80

// testHint names a promptfoo test for a person when its id is only a hash of its vars
// (vars-1f5b3b015d5b): where its record is in the results file at path (the line of a
// JSONL export, else results[i]) and the start of its vars, each value quoted (they
// are untrusted text), so a reader can find the test in promptfooconfig.yaml:
// `results.json results[3], vars: lang="en", question="What is the refund…`.
func testHint(path string, rec importer.Record) string {
	hint := filepath.Base(path)
	switch {
	case rec.Line > 0:
		hint += " line " + strconv.Itoa(rec.Line)
	case rec.Where != "":
		hint += " " + rec.Where
	}
	vars, _ := rec.Fields["vars"].(map[string]any)
	if len(vars) == 0 {
		return hint
	}
	keys := make([]string, 0, len(vars))
	for k := range vars {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		v := ""
		if s, ok := vars[k].(string); ok {
			v = strconv.Quote(s)
		} else if b, err := json.Marshal(vars[k]); err == nil {
			v = printable(string(b)) // JSON leaves bidi and tag characters raw
		}
		parts = append(parts, strconv.Quote(k)[1:len(strconv.Quote(k))-1]+"="+v)
	}
	return hint + ", vars: " + clipRunes(strings.Join(parts, ", "), varsExcerptRunes)
}

// printable is s with every rune strconv.Quote would escape (controls, bidi and tag
// characters, the invisible ones) written as \uXXXX or \UXXXXXXXX, and the rest as is.
func printable(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case strconv.IsPrint(r):
			b.WriteRune(r)
		case r > 0xFFFF:
			fmt.Fprintf(&b, `\U%08X`, r)
		default:
			fmt.Fprintf(&b, `\u%04X`, r)
		}
	}
	return b.String()
}

// clipRunes is s cut to n runes at most, "…" marking the cut.
func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}
