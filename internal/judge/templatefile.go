package judge

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/goccy/go-yaml"

	"github.com/evalgate/evalgate/internal/safeio"
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
	data, err := safeio.ReadFile(name, "judge template", safeio.MaxSmallFileBytes)
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
	if err := unmarshalFront(path, front, &fm); err != nil {
		return nil, err
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

// unmarshalFront decodes front matter strictly, within safeio's YAML limits (nesting,
// aliases). The front matter starts on the file's second line, after "---".
func unmarshalFront(path string, front []byte, fm *templateFront) error {
	err := safeio.UnmarshalYAML(path, front, fm, yaml.Strict())
	var ie *safeio.InputError
	if errors.As(err, &ie) {
		if ie.Line > 0 {
			ie.Line++
		}
		ie.Msg = "front matter: " + ie.Msg
	}
	return err
}
