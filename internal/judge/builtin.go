package judge

import (
	_ "embed"
	"slices"
)

// Built-in template names for Config.Template.
const (
	// TemplateAccuracyFaithfulness is seed 001 §2.1's evaluator prompt, byte for byte,
	// with its parse rules (§2.2): accuracy_score and faithfulness_score in 0..2 and a
	// rationale of at most 80 words.
	TemplateAccuracyFaithfulness = "accuracy-faithfulness"
	// TemplateRubric is seed 003's rubric as adopted after its council review,
	// scored pointwise: accuracy, relevance, completeness, conciseness and clarity,
	// each 1..10 with the scoring anchors in the prompt, and notes of at most 80 words.
	// The weights (35/10/20/15/20) and the accuracy ceiling belong to the scoring
	// system, which applies them to these raw scores.
	TemplateRubric = "rubric-1-10"
)

// legacyNames are the built-ins' former names, still accepted in configs.
var legacyNames = map[string]string{"seed001": TemplateAccuracyFaithfulness, "seed003": TemplateRubric}

//go:embed templates/seed001.txt
var seed001Text string

//go:embed templates/seed003.txt
var seed003Text string

// AccuracyFaithfulness returns seed 001's judge template.
func AccuracyFaithfulness() *Template {
	return &Template{
		ID:   TemplateAccuracyFaithfulness,
		Text: seed001Text,
		Keys: []Key{
			{Name: "accuracy_score", Min: 0, Max: 2},
			{Name: "faithfulness_score", Min: 0, Max: 2},
		},
		Rationale: Rationale{Key: "rationale", MaxWords: 80},
	}
}

// Rubric returns seed 003's post-council rubric template.
func Rubric() *Template {
	keys := make([]Key, 0, 5)
	for _, name := range []string{"accuracy", "relevance", "completeness", "conciseness", "clarity"} {
		keys = append(keys, Key{Name: name, Min: 1, Max: 10})
	}
	return &Template{
		ID:        TemplateRubric,
		Text:      seed003Text,
		Keys:      keys,
		Rationale: Rationale{Key: "notes", MaxWords: 80},
	}
}

// builtins maps the built-in names to their constructors.
var builtins = map[string]func() *Template{
	TemplateAccuracyFaithfulness: AccuracyFaithfulness,
	TemplateRubric:               Rubric,
}

// IsBuiltin reports whether name is a built-in template (a current or former name),
// not a file path.
func IsBuiltin(name string) bool {
	_, ok := builtins[name]
	_, legacy := legacyNames[name]
	return ok || legacy
}

// BuiltinTemplates returns the built-in template names, sorted.
func BuiltinTemplates() []string {
	names := make([]string, 0, len(builtins))
	for n := range builtins {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}
