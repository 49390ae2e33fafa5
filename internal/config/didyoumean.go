package config

import (
	"errors"
	"reflect"
	"regexp"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/suggest"
)

var unknownField = regexp.MustCompile(`^unknown field "([^"]*)"$`)

// withFieldHint adds "did you mean" to an unknown-field error: the keys accepted at
// that place are those of the Go type found by walking Config along the key's YAML path.
func withFieldHint(f *ast.File, err error) error {
	var ie *eval.InputError
	if !errors.As(err, &ie) || ie.Line == 0 {
		return err
	}
	m := unknownField.FindStringSubmatch(ie.Msg)
	if m == nil {
		return err
	}
	path := keyPath(f, ie.Line, ie.Col)
	if path == "" {
		return err
	}
	keys := yamlKeys(reflect.TypeFor[Config](), pathSegments(path))
	if hint := suggest.DidYouMean(m[1], keys); hint != "" {
		ie.Msg += "; " + strings.TrimSuffix(hint, " ")
	}
	return err
}

// keyPath is the YAML path ("$.scoring.dimensions[0].wieght") of the mapping key at
// line:col, or "".
func keyPath(f *ast.File, line, col int) string {
	var found string
	for _, doc := range f.Docs {
		ast.Walk(visitor(func(n ast.Node) {
			if mv, ok := n.(*ast.MappingValueNode); ok && mv.Key != nil {
				if p := mv.Key.GetToken().Position; p.Line == line && p.Column == col {
					found = mv.GetPath()
				}
			}
		}), doc)
	}
	return found
}

type visitor func(ast.Node)

func (v visitor) Visit(n ast.Node) ast.Visitor {
	v(n)
	return v
}

var segment = regexp.MustCompile(`\.([^.\[]+)|\[\d+\]`)

// pathSegments splits "$.a.b[0].c" into "a", "b", "[]", "c".
func pathSegments(path string) []string {
	var out []string
	for _, m := range segment.FindAllStringSubmatch(strings.TrimPrefix(path, "$"), -1) {
		if m[1] == "" {
			out = append(out, "[]")
		} else {
			out = append(out, m[1])
		}
	}
	return out
}

// yamlKeys are the keys the struct holding the last segment accepts, or nil when the
// path leaves the known types.
func yamlKeys(t reflect.Type, segs []string) []string {
	for i, s := range segs {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if i == len(segs)-1 {
			break
		}
		switch t.Kind() {
		case reflect.Slice, reflect.Array, reflect.Map:
			t = t.Elem()
		case reflect.Struct:
			f, ok := fieldByKey(t, s)
			if !ok {
				return nil
			}
			t = f.Type
		default:
			return nil
		}
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	var keys []string
	for f := range t.Fields() {
		if k := yamlKey(f); k != "" {
			keys = append(keys, k)
		}
	}
	return keys
}

func fieldByKey(t reflect.Type, key string) (reflect.StructField, bool) {
	for f := range t.Fields() {
		if yamlKey(f) == key {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// yamlKey is the key a struct field is read from, or "" when YAML does not set it.
func yamlKey(f reflect.StructField) string {
	if !f.IsExported() {
		return ""
	}
	name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	switch name {
	case "-":
		return ""
	case "":
		return strings.ToLower(f.Name)
	}
	return name
}
