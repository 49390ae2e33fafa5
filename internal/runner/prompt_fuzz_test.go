package runner_test

import (
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/runner"
)

// FuzzParsePrompt: a config's prompt template (outside input) gives a template or an
// error, never a panic; every field it names is a non-empty path without spaces, and
// an item holding each of them renders it with no error and no placeholder left.
func FuzzParsePrompt(f *testing.F) {
	for _, s := range []string{
		"{{prompt}} / {{expected_contains.english}}", "{{ }}", "{{a.b.c}}{{a.b.c}}", "{{{x}}}",
		"{{ prompt }}\n{{context}}", "}}{{", "{{a\nb}}", "{{.}}", "{{a..b}}", "plain text",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		p, err := runner.ParsePrompt(text)
		if err != nil {
			return
		}
		fields := map[string]any{}
		conflict := false
		for _, name := range p.Fields() {
			if name == "" || strings.ContainsAny(name, " \t\n") {
				t.Fatalf("ParsePrompt(%q) names field %q", text, name)
			}
			conflict = conflict || !set(fields, strings.Split(name, "."))
		}
		if conflict {
			return // one field is a prefix of another ({{a}} and {{a.b}}): no item holds both as text
		}
		if _, err := p.Render(runner.Item{ID: "a", Fields: fields}); err != nil {
			t.Fatalf("Render(%q) with every field present: %v", text, err)
		}
	})
}

// set puts "v" at path in m, making the maps on the way; false when the path runs into
// a value already set, or ends on a map.
func set(m map[string]any, path []string) bool {
	for _, k := range path[:len(path)-1] {
		next, ok := m[k]
		if !ok {
			next = map[string]any{}
			m[k] = next
		}
		if m, ok = next.(map[string]any); !ok {
			return false
		}
	}
	last := path[len(path)-1]
	if _, ok := m[last].(map[string]any); ok {
		return false
	}
	m[last] = "v"
	return true
}
