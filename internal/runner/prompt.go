package runner

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// fieldRE finds {{field}} or {{a.b}} placeholders, tolerating spaces inside the braces.
var fieldRE = regexp.MustCompile(`\{\{\s*([^{}]*?)\s*\}\}`)

// Prompt is a message template whose placeholders name item fields: {{prompt}} (which
// falls back to the item's `input`, as the suite loader does), {{context}}, or any
// field, with dots for nested ones ({{expected_contains.english}}).
type Prompt struct {
	text   string
	fields []string
}

// ParsePrompt checks a template: placeholders must be non-empty field paths.
func ParsePrompt(text string) (*Prompt, error) {
	p := &Prompt{text: text}
	for _, m := range fieldRE.FindAllStringSubmatch(text, -1) {
		name := m[1]
		if name == "" || strings.ContainsAny(name, " \t\n") {
			return nil, fmt.Errorf("prompt template: placeholder %q is not a field name; write {{prompt}} or {{field.path}}", m[0])
		}
		if !slices.Contains(p.fields, name) {
			p.fields = append(p.fields, name)
		}
	}
	return p, nil
}

// Fields returns the field paths the template reads, in order of first use.
func (p *Prompt) Fields() []string { return p.fields }

// Render fills the template from it's fields in one pass (a value containing "{{x}}"
// is inserted as text). Strings go in as they are; other values as JSON. A field the
// item lacks is an error naming the item and the field.
func (p *Prompt) Render(it Item) (string, error) {
	var missing []string
	out := fieldRE.ReplaceAllStringFunc(p.text, func(m string) string {
		name := fieldRE.FindStringSubmatch(m)[1]
		v, ok := lookupField(it.Fields, name)
		if !ok {
			missing = append(missing, name)
			return ""
		}
		if s, ok := v.(string); ok {
			return s
		}
		b, _ := json.Marshal(v)
		return string(b)
	})
	if len(missing) > 0 {
		return "", fmt.Errorf("item %q has no field %s for the prompt template", it.ID, strings.Join(quoteAll(missing), ", "))
	}
	return out, nil
}

// Check renders the template for every item and reports every item that lacks a
// field, so a run does not stop halfway on a hole in the suite.
func (p *Prompt) Check(items []Item) error {
	var errs []string
	for _, it := range items {
		if _, err := p.Render(it); err != nil {
			errs = append(errs, err.Error())
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("runner: %s", strings.Join(errs, "; "))
	}
	return nil
}

// lookupField follows a dotted path; "prompt" falls back to "input".
func lookupField(fields map[string]any, path string) (any, bool) {
	v, ok := lookupPath(fields, path)
	if !ok && path == "prompt" {
		return lookupPath(fields, "input")
	}
	return v, ok && v != nil
}

func lookupPath(m map[string]any, path string) (any, bool) {
	var cur any = m
	for _, part := range strings.Split(path, ".") {
		obj, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = obj[part]; !ok {
			return nil, false
		}
	}
	return cur, true
}

func quoteAll(s []string) []string {
	q := make([]string, len(s))
	for i, x := range s {
		q[i] = fmt.Sprintf("%q", x)
	}
	return q
}
