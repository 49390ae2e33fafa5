package judge

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Placeholder names a template may use. Each is filled from the Request field of the
// same name.
const (
	PlaceholderTask            = "task"
	PlaceholderReferenceAnswer = "reference_answer"
	PlaceholderProvidedContext = "provided_context"
	PlaceholderCandidateAnswer = "candidate_answer"
)

// Placeholders lists the allowed placeholder names in the order error messages show them.
var Placeholders = []string{PlaceholderTask, PlaceholderReferenceAnswer, PlaceholderProvidedContext, PlaceholderCandidateAnswer}

// placeholderRE finds {{name}}, tolerating spaces inside the braces.
var placeholderRE = regexp.MustCompile(`\{\{\s*([^{}]*?)\s*\}\}`)

// Template is a judge prompt and the reply it asks for: the text with placeholders, the
// score keys with their allowed range, and the rationale rule.
type Template struct {
	// ID names the template in run metadata: "accuracy-faithfulness", "rubric-1-10" or the file's id.
	ID string
	// Text is the user message, with {{placeholders}}.
	Text string
	// Keys are the integer scores the reply must carry, in prompt order.
	Keys []Key
	// Rationale is the reply's free-text justification rule.
	Rationale Rationale
}

// Key is one required integer score in the judge's reply and its allowed range.
type Key struct {
	Name string `yaml:"name" json:"name"`
	Min  int    `yaml:"min" json:"min"`
	Max  int    `yaml:"max" json:"max"`
}

// Rationale is the rule for the reply's justification string: under Key, non-empty,
// and at most MaxWords words (0 = no limit). An empty Key means the reply has none.
type Rationale struct {
	Key      string `json:"key"`
	MaxWords int    `json:"max_words"`
}

// NewTemplate checks a template definition: known placeholders only, the candidate
// answer among them, at least one key, sensible ranges.
func NewTemplate(id, text string, keys []Key, rationale Rationale) (*Template, error) {
	t := &Template{ID: id, Text: text, Keys: keys, Rationale: rationale}
	if err := t.validate(); err != nil {
		return nil, err
	}
	return t, nil
}

func (t *Template) validate() error {
	var unknown []string
	used := t.placeholders()
	for _, name := range used {
		if !slices.Contains(Placeholders, name) {
			unknown = append(unknown, "{{"+name+"}}")
		}
	}
	if len(unknown) > 0 {
		return fmt.Errorf("template %q: unknown placeholder %s; allowed: %s",
			t.ID, strings.Join(unknown, ", "), allowedList())
	}
	if !slices.Contains(used, PlaceholderCandidateAnswer) {
		return fmt.Errorf("template %q: no {{%s}} placeholder; the judge would never see the answer it scores", t.ID, PlaceholderCandidateAnswer)
	}
	if len(t.Keys) == 0 {
		return fmt.Errorf("template %q: no score keys; declare the keys the reply must carry", t.ID)
	}
	seen := map[string]bool{}
	for _, k := range t.Keys {
		switch {
		case k.Name == "":
			return fmt.Errorf("template %q: a score key has no name", t.ID)
		case seen[k.Name] || k.Name == t.Rationale.Key:
			return fmt.Errorf("template %q: key %q is declared twice", t.ID, k.Name)
		case k.Min >= k.Max:
			return fmt.Errorf("template %q: key %q has range %d..%d; want min < max", t.ID, k.Name, k.Min, k.Max)
		}
		seen[k.Name] = true
	}
	if t.Rationale.MaxWords < 0 {
		return fmt.Errorf("template %q: rationale max_words is %d; want 0 (no limit) or more", t.ID, t.Rationale.MaxWords)
	}
	return nil
}

func allowedList() string {
	s := make([]string, len(Placeholders))
	for i, p := range Placeholders {
		s[i] = "{{" + p + "}}"
	}
	return strings.Join(s, ", ")
}

// placeholders returns the distinct placeholder names in the text, in order.
func (t *Template) placeholders() []string {
	var names []string
	for _, m := range placeholderRE.FindAllStringSubmatch(t.Text, -1) {
		if !slices.Contains(names, m[1]) {
			names = append(names, m[1])
		}
	}
	return names
}

// KeyNames returns the score keys' names in order.
func (t *Template) KeyNames() []string {
	names := make([]string, len(t.Keys))
	for i, k := range t.Keys {
		names[i] = k.Name
	}
	return names
}

// Hash is "sha256:" and the hex SHA-256 of everything that decides what the judge is
// asked and how its reply is read: the text, the sandbox wording, the keys, the
// rationale rule. The ID is left out, so renaming a template does not void a cache.
func (t *Template) Hash() string {
	b, _ := json.Marshal(struct {
		Text      string
		System    string
		Sandbox   int
		Keys      []Key
		Rationale Rationale
	}{t.Text, SandboxNotice, sandboxVersion, t.Keys, t.Rationale})
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}
