package safeio

import (
	"errors"
	"math"
	"reflect"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// notWhole is a value where a whole number is wanted that is not one: a number with a
// fraction (`runs: 2.5`, which goccy/go-yaml would cut to 2 without a word), out of
// range, or not a number at all. Value is the scalar's text, by which notWholeError
// finds it in the file; Got says what it is.
type notWhole struct{ Value, Got string }

func (e *notWhole) Error() string { return "want a whole number, got " + e.Got }

// wholeNumbers are the decode options that refuse a fraction where a whole number is
// wanted, in every int field of every YAML file DecodeNode reads.
var wholeNumbers = []yaml.DecodeOption{
	yaml.CustomUnmarshaler[int](func(dst *int, b []byte) error {
		n, err := wholeNumber(b, math.MinInt, math.MaxInt)
		*dst = int(n)
		return err
	}),
	yaml.CustomUnmarshaler[int64](func(dst *int64, b []byte) error {
		n, err := wholeNumber(b, math.MinInt64, math.MaxInt64)
		*dst = n
		return err
	}),
}

// wholeNumber decodes one scalar as YAML would (12, 0x10, 1_000, 3.0) into a whole
// number between lo and hi, and refuses a fraction (2.5), a number out of range or a
// value that is not a number at all.
func wholeNumber(b []byte, lo, hi int64) (int64, error) {
	var v any
	if err := yaml.Unmarshal(b, &v); err != nil {
		return 0, err
	}
	written := strings.TrimSpace(string(b))
	switch n := v.(type) {
	case int64:
		if n >= lo && n <= hi {
			return n, nil
		}
	case uint64:
		if n <= uint64(hi) {
			return int64(n), nil
		}
	case float64:
		if n == math.Trunc(n) && n >= -(1<<53) && n <= 1<<53 && int64(n) >= lo && int64(n) <= hi {
			return int64(n), nil
		}
	case string:
		return 0, &notWhole{Value: n, Got: gotWords(reflect.TypeFor[string](), &token.Token{Value: n})}
	case []any:
		return 0, &notWhole{Got: "a list"}
	case map[string]any:
		return 0, &notWhole{Got: "a mapping"}
	}
	return 0, &notWhole{Value: written, Got: written} // a fraction, a bool, out of range
}

// notWholeError places a notWhole at the first scalar in node written as e.Value: the
// decoder gives a custom unmarshaler's error no position. A list or a mapping has no
// text to find: the error names node's line.
func notWholeError(file string, node ast.Node, e *notWhole) *InputError {
	var at *token.Token
	if e.Value != "" {
		ast.Walk(visitFunc(func(n ast.Node) bool {
			if at != nil {
				return false
			}
			if _, ok := n.(ast.ScalarNode); ok && n.GetToken() != nil && n.GetToken().Value == e.Value {
				at = n.GetToken()
				return false
			}
			return true
		}), node)
	}
	if at == nil {
		return &InputError{File: file, Line: nodeLine(node), Msg: e.Error()}
	}
	return typeMismatch(file, at, "a whole number", e.Got)
}

// visitFunc is an ast.Visitor from a function: false stops the walk below a node.
type visitFunc func(ast.Node) bool

func (f visitFunc) Visit(n ast.Node) ast.Visitor {
	if f(n) {
		return f
	}
	return nil
}

// asNotWhole is errors.As for a notWhole.
func asNotWhole(err error) (*notWhole, bool) {
	var e *notWhole
	return e, errors.As(err, &e)
}
