package eval

import (
	"math"

	"github.com/goccy/go-yaml/ast"
)

// plainFields converts an item mapping that holds only plain YAML (string keys,
// scalars, lists and mappings: no tags, anchors, aliases or merge keys) straight to the
// JSON types a JSONL item decodes to, without yaml.NodeToValue and the JSON round trip
// of toJSONFields, which cost as much as parsing. ok is false for anything else, which
// then takes that slower path; a test and a fuzz target hold the two to the same result.
func plainFields(m *ast.MappingNode) (map[string]any, bool) {
	v, ok := plainValue(m)
	if !ok {
		return nil, false
	}
	return v.(map[string]any), true
}

func plainValue(n ast.Node) (any, bool) {
	switch n := n.(type) {
	case *ast.StringNode:
		return n.Value, true
	case *ast.LiteralNode:
		return n.Value.Value, true
	case *ast.NullNode:
		return nil, true
	case *ast.BoolNode:
		return n.Value, true
	case *ast.IntegerNode:
		switch v := n.Value.(type) {
		case int64:
			return float64(v), true
		case uint64:
			return float64(v), true
		}
	case *ast.FloatNode:
		if !math.IsNaN(n.Value) && !math.IsInf(n.Value, 0) {
			return n.Value, true
		}
	case *ast.MappingNode:
		m := make(map[string]any, len(n.Values))
		for _, kv := range n.Values {
			k, ok := kv.Key.(*ast.StringNode)
			if !ok {
				return nil, false
			}
			if _, dup := m[k.Value]; dup {
				return nil, false
			}
			v, ok := plainValue(kv.Value)
			if !ok {
				return nil, false
			}
			m[k.Value] = v
		}
		return m, true
	case *ast.SequenceNode:
		s := make([]any, len(n.Values))
		for i, e := range n.Values {
			v, ok := plainValue(e)
			if !ok {
				return nil, false
			}
			s[i] = v
		}
		return s, true
	}
	return nil, false
}
