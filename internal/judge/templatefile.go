package judge

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/goccy/go-yaml"
)

// LoadTemplate returns the built-in template called name ("accuracy-faithfulness",
// "rubric-1-10", or their former names "seed001", "seed003"), or
// else reads the template file at that path.
//
// A template file starts with YAML front matter declaring what the reply must carry,
// then the prompt text:
//
//	---
//	id: tone-v1            # optional; defaults to the file name without extension
//	keys:
//	  - {name: tone, min: 1, max: 5}
//	rationale: {key: rationale, max_words: 60}   # optional
//	---
//	Rate the tone of {{candidate_answer}} for the task {{task}} ...
func LoadTemplate(name string) (*Template, error) {
	if name == "" {
		name = TemplateAccuracyFaithfulness
	}
	if n, ok := legacyNames[name]; ok {
		name = n
	}
	if f, ok := builtins[name]; ok {
		return f(), nil
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("judge template %q is neither a built-in (%s) nor a readable file: %w",
			name, strings.Join(BuiltinTemplates(), ", "), err)
	}
	return ParseTemplateFile(name, data)
}

// templateFront is a template file's front matter.
type templateFront struct {
	ID        string `yaml:"id"`
	Keys      []Key  `yaml:"keys"`
	Rationale *struct {
		Key      string `yaml:"key"`
		MaxWords int    `yaml:"max_words"`
	} `yaml:"rationale"`
}

// ParseTemplateFile reads a template file's contents; path is used for the default id
// and in error messages.
func ParseTemplateFile(path string, data []byte) (*Template, error) {
	data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	rest, ok := bytes.CutPrefix(data, []byte("---\n"))
	if !ok {
		return nil, fmt.Errorf("%s: a judge template starts with front matter declaring its keys (---, keys: [...], ---)", path)
	}
	front, text, ok := bytes.Cut(rest, []byte("\n---\n"))
	if !ok {
		return nil, fmt.Errorf("%s: front matter is not closed by a --- line", path)
	}
	var fm templateFront
	if err := unmarshalFront(front, &fm); err != nil {
		return nil, fmt.Errorf("%s: front matter: %w", path, err)
	}
	id := fm.ID
	if id == "" {
		id = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	var r Rationale
	if fm.Rationale != nil {
		r = Rationale{Key: fm.Rationale.Key, MaxWords: fm.Rationale.MaxWords}
		if r.Key == "" {
			return nil, fmt.Errorf("%s: rationale has no key", path)
		}
	}
	t, err := NewTemplate(id, string(text), fm.Keys, r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// unmarshalFront decodes front matter strictly. goccy/go-yaml v1.18 can panic on some
// malformed input (a tag before a value on the next line); that is bad input, not a crash.
func unmarshalFront(front []byte, fm *templateFront) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("malformed YAML (%v)", r)
		}
	}()
	return yaml.UnmarshalWithOptions(front, fm, yaml.Strict())
}
