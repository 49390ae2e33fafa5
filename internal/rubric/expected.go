package rubric

import (
	"fmt"

	"github.com/evalgate/evalgate/internal/eval"
)

// expectedStrings reads a reference answer: a string or a list of strings at a dotted
// path of the item (falling back through paths in order). A result record may carry
// suite fields too; the item's own fields win.
func expectedStrings(in *Input, d *Dimension, paths ...string) ([]string, error) {
	if d.Expected != "" {
		paths = []string{d.Expected}
	}
	for _, p := range paths {
		v, ok := in.Item.Field(p)
		if !ok && in.Result != nil {
			v, ok = eval.Lookup(in.Result.Fields, p)
		}
		if !ok {
			continue
		}
		switch x := v.(type) {
		case string:
			return []string{x}, nil
		case []any:
			out := make([]string, 0, len(x))
			for _, e := range x {
				s, ok := e.(string)
				if !ok {
					return nil, suiteFieldError{fmt.Errorf("field %q holds a non-string; want a string or a list of strings", p)}
				}
				out = append(out, s)
			}
			if len(out) == 0 {
				return nil, suiteFieldError{fmt.Errorf("field %q is an empty list; want at least one expected string", p)}
			}
			return out, nil
		default:
			return nil, suiteFieldError{fmt.Errorf("field %q is %s; want a string or a list of strings", p, eval.Describe(v))}
		}
	}
	return nil, suiteFieldError{fmt.Errorf("dimension %q needs the item field %q; the item has none (set `expected:` on the dimension to another field)", d.Name, paths[0])}
}
