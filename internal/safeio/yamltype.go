package safeio

import (
	"fmt"
	"reflect"
	"time"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// typeError words a goccy/go-yaml type mismatch ("cannot unmarshal string into Go
// struct field Config.Scoring of type float64", which names Go's types and an outer
// field) as the file's own terms: the line, the key the value is under, what it
// must be and what it is: `max_drop: want a number, got "abc"`.
func typeError(file string, te *yaml.TypeError) *InputError {
	return typeMismatch(file, te.Token, wantWords(te.DstType), gotWords(te.SrcType, te.Token))
}

// nodeTypeError words a goccy/go-yaml node mismatch ("string was used where sequence
// is expected") as typeError does: `results: want a list, got "abc"`.
func nodeTypeError(file string, ne *yaml.UnexpectedNodeTypeError) *InputError {
	kind := func(t ast.NodeType) reflect.Type {
		switch t {
		case ast.SequenceType:
			return reflect.TypeFor[[]any]()
		case ast.MappingType, ast.MappingValueType:
			return reflect.TypeFor[map[string]any]()
		case ast.BoolType:
			return reflect.TypeFor[bool]()
		case ast.IntegerType:
			return reflect.TypeFor[int]()
		case ast.FloatType:
			return reflect.TypeFor[float64]()
		}
		return reflect.TypeFor[string]()
	}
	return typeMismatch(file, ne.Token, wantWords(kind(ne.Expected)), gotWords(kind(ne.Actual), ne.Token))
}

// typeMismatch is the error of a value at tk that is not what its key wants.
func typeMismatch(file string, tk *token.Token, want, got string) *InputError {
	msg := fmt.Sprintf("want %s, got %s", want, got)
	at := tk
	if key := yamlKeyOf(tk); key != nil {
		msg, at = key.Value+": "+msg, key
	}
	line := 0
	if at.Position != nil {
		line = at.Position.Line
	}
	return &InputError{File: file, Line: line, Msg: msg}
}

// yamlKeyOf is the token of the mapping key a value is under (`key: value`, block or
// flow), or nil when the value is not a mapping's (a list entry). tk is the value's
// token: a scalar, a flow collection's bracket, a block list's first dash, or a block
// mapping's first colon (its first key's).
func yamlKeyOf(tk *token.Token) *token.Token {
	if tk.Type == token.MappingValueType && tk.Prev != nil {
		tk = tk.Prev // a block mapping: from its first key
	}
	colon := tk.Prev
	if colon == nil || colon.Type != token.MappingValueType || colon.Prev == nil {
		return nil
	}
	return colon.Prev
}

// wantWords says what a Go type holds, in a config's terms.
func wantWords(t reflect.Type) string {
	if t == nil {
		return "another kind of value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == reflect.TypeFor[time.Duration]() {
		return "a duration (30s, 2m)"
	}
	switch t.Kind() {
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "a mapping"
	}
	return "a " + t.String()
}

// gotWords says what the file holds there: a string quoted as written (cut to 60
// characters), a boolean or a number as written, a list or a mapping by its kind.
func gotWords(src reflect.Type, tk *token.Token) string {
	v := []rune(tk.Value)
	if src != nil {
		switch src.Kind() {
		case reflect.Slice, reflect.Array:
			return "a list"
		case reflect.Map, reflect.Struct:
			return "a mapping"
		case reflect.Bool, reflect.Int, reflect.Int64, reflect.Uint64, reflect.Float64:
			if len(v) <= 60 {
				return string(v) // true, 12, 0.5: as written
			}
		}
	}
	if len(v) > 60 {
		return fmt.Sprintf("%q…", string(v[:60]))
	}
	return fmt.Sprintf("%q", string(v))
}
