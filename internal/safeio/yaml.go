package safeio

import (
	"errors"
	"fmt"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"
)

// ParseYAML parses YAML with two limits goccy/go-yaml does not have:
//
//   - nesting deeper than MaxDepth is refused from the tokens, before the parser sees
//     them (the parser's time and memory grow with the square of the depth);
//   - an alias that expands to more than MaxAliasNodes nodes, or aliases that expand to
//     more than a small multiple of the document's own nodes in all, are refused (an
//     anchor chain, "billion laughs", would expand without end in every walk of the
//     decoded value).
//
// Errors are *InputError naming path and the line.
func ParseYAML(path string, data []byte) (*ast.File, error) {
	return NewYAMLParts(path).Parse(data)
}

// YAMLParts parses the parts of one YAML file one at a time (a large suite's items,
// each as its own small document, so the whole file's tree is never built) under one
// alias budget: the parts' aliases together expand to no more than the whole file's
// would be allowed to. Limits are as ParseYAML's; lines are the part's own.
type YAMLParts struct {
	path string
	a    aliasSizer
}

// NewYAMLParts starts the parts of the file at path.
func NewYAMLParts(path string) *YAMLParts {
	return &YAMLParts{path: path, a: aliasSizer{path: path, anchors: map[string]int{}}}
}

// Parse parses the next part.
func (p *YAMLParts) Parse(data []byte) (*ast.File, error) {
	path := p.path
	tokens := lexer.Tokenize(string(data))
	if err := checkYAMLDepth(path, tokens); err != nil {
		return nil, err
	}
	f, err := parser.Parse(tokens, 0)
	if err != nil {
		return nil, YAMLError(path, err)
	}
	if err := checkAliases(&p.a, f); err != nil {
		return nil, err
	}
	return f, nil
}

// UnmarshalYAML is ParseYAML of one document, decoded into v by DecodeNode (so a
// panic of the decoder is an error too). Every YAML decode of outside input goes
// through it, DecodeYAML or DecodeNode: never yaml.Unmarshal.
func UnmarshalYAML(path string, data []byte, v any, opts ...yaml.DecodeOption) error {
	f, err := ParseYAML(path, data)
	if err != nil {
		return err
	}
	if len(f.Docs) != 1 || f.Docs[0].Body == nil {
		return Errorf(path, 0, "", "want one YAML document")
	}
	return DecodeNode(path, f.Docs[0].Body, v, opts...)
}

// DecodeYAML is UnmarshalYAML for a file that may also be empty (or only comments),
// leaving v as it is: a file read only for what it names, such as a workflow's steps.
func DecodeYAML(path string, data []byte, v any, opts ...yaml.DecodeOption) error {
	f, err := ParseYAML(path, data)
	if err != nil {
		return err
	}
	if len(f.Docs) > 1 {
		return Errorf(path, 0, "", "want one YAML document")
	}
	if len(f.Docs) == 0 || f.Docs[0].Body == nil {
		return nil
	}
	return DecodeNode(path, f.Docs[0].Body, v, opts...)
}

// checkYAMLDepth counts nesting from the tokens: flow collections by their brackets,
// block collections by the indentation of their keys and entries (a stack of columns,
// one per open level). Flow nested in block adds to it.
func checkYAMLDepth(path string, tokens token.Tokens) error {
	var cols []int // columns of the open block levels
	flow := 0
	for i, tk := range tokens {
		switch tk.Type {
		case token.DocumentHeaderType, token.DocumentEndType:
			cols, flow = cols[:0], 0
			continue
		case token.SequenceStartType, token.MappingStartType:
			flow++
		case token.SequenceEndType, token.MappingEndType:
			if flow > 0 {
				flow--
			}
			continue
		case token.SequenceEntryType, token.MappingKeyType, token.MappingValueType:
			if flow > 0 {
				continue
			}
			col := tk.Position.Column
			if tk.Type == token.MappingValueType && i > 0 { // the level is the key's
				col = tokens[i-1].Position.Column
			}
			for len(cols) > 0 && cols[len(cols)-1] > col {
				cols = cols[:len(cols)-1]
			}
			if len(cols) == 0 || cols[len(cols)-1] < col {
				cols = append(cols, col)
			}
		default:
			continue
		}
		if d := len(cols) + flow; d > MaxDepth {
			return &InputError{File: path, Line: tk.Position.Line, Col: tk.Position.Column,
				Msg: fmt.Sprintf("YAML nested more than %d levels deep; the limit is %d", MaxDepth, MaxDepth)}
		}
	}
	return nil
}

// checkAliases sizes every alias's expansion without expanding it: an anchor's size is
// computed once, where it is defined, from the sizes of the anchors it uses.
func checkAliases(a *aliasSizer, f *ast.File) error {
	for _, doc := range f.Docs {
		clear(a.anchors)
		a.size(doc.Body)
		if a.err != nil {
			return a.err
		}
	}
	if budget := max(minAliasBudget, aliasRatio*a.own); a.expanded > budget {
		return &InputError{File: a.path, Line: a.lastLine, Msg: fmt.Sprintf(
			"YAML aliases expand to more than %d nodes in all (%d times the document's own nodes); reuse fewer anchors", budget, aliasRatio)}
	}
	return nil
}

type aliasSizer struct {
	path     string
	anchors  map[string]int // anchor name → nodes its value expands to
	own      int            // nodes written in the document
	expanded int            // nodes aliases add, saturating
	lastLine int
	err      error
}

const saturated = 1 << 40

func (a *aliasSizer) size(n ast.Node) int {
	if n == nil || a.err != nil {
		return 0
	}
	switch n := n.(type) {
	case *ast.AliasNode:
		a.own++
		name := n.Value.GetToken().Value
		s, ok := a.anchors[name]
		if !ok {
			return 1 // unknown or recursive: the decoder reports it
		}
		if s > MaxAliasNodes {
			tk := n.GetToken()
			a.err = &InputError{File: a.path, Line: tk.Position.Line, Col: tk.Position.Column, Msg: fmt.Sprintf(
				"alias *%s expands to %s nodes; the limit is %d per alias (anchors that reuse anchors multiply)", name, count(s), MaxAliasNodes)}
			return 0
		}
		a.expanded = min(a.expanded+s, saturated)
		a.lastLine = n.GetToken().Position.Line
		return s
	case *ast.AnchorNode:
		name := n.Name.GetToken().Value
		a.anchors[name] = 1 // an alias to the anchor inside its own value
		s := a.size(n.Value)
		a.anchors[name] = s
		return s
	case *ast.TagNode:
		return a.size(n.Value)
	case *ast.MappingNode:
		return collectionSize(a, n.Values)
	case *ast.MappingValueNode:
		return min(a.size(n.Key)+a.size(n.Value), saturated)
	case *ast.MappingKeyNode:
		return a.size(n.Value)
	case *ast.SequenceNode:
		return collectionSize(a, n.Values)
	case *ast.CommentGroupNode, *ast.CommentNode:
		return 0
	default:
		a.own++
		return 1
	}
}

// collectionSize is one node for the collection plus its children's sizes.
func collectionSize[T ast.Node](a *aliasSizer, children []T) int {
	a.own++
	s := 1
	for _, c := range children {
		s = min(s+a.size(c), saturated)
	}
	return s
}

func count(n int) string {
	if n >= saturated {
		return "more than a trillion"
	}
	return fmt.Sprint(n)
}

// DecodeNode is yaml.NodeToValue with its errors as *InputError. goccy/go-yaml v1.18
// panics on some valid YAML (a tag before a scalar on the next line, `results: !!str\n  x`,
// decoded into a list; found by fuzzing): the panic is bad input too, not a crash.
func DecodeNode(file string, node ast.Node, v any, opts ...yaml.DecodeOption) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &InputError{File: file, Line: panicLine(node), Msg: fmt.Sprintf("cannot decode this YAML (%v); check the tags (!...) and the indentation", r)}
		}
	}()
	if err := yaml.NodeToValue(node, v, append(opts, wholeNumbers...)...); err != nil {
		if nw, ok := asNotWhole(err); ok {
			return notWholeError(file, node, nw)
		}
		return YAMLError(file, err)
	}
	return nil
}

// YAMLError converts a goccy/go-yaml error into an *InputError with line and column.
func YAMLError(file string, err error) error {
	var ie *InputError
	if errors.As(err, &ie) {
		return err
	}
	var te *yaml.TypeError
	if errors.As(err, &te) && te.Token != nil {
		return typeError(file, te)
	}
	var ne *yaml.UnexpectedNodeTypeError
	if errors.As(err, &ne) && ne.Token != nil {
		return nodeTypeError(file, ne)
	}
	var ye yaml.Error
	if errors.As(err, &ye) && ye.GetToken() != nil {
		p := ye.GetToken().Position
		return &InputError{File: file, Line: p.Line, Col: p.Column, Msg: ye.GetMessage()}
	}
	return &InputError{File: file, Msg: err.Error()}
}

// panicLine is where the decoder most likely panicked in n: the first tag whose value
// starts on a later line (the cause found so far), else n's own line.
func panicLine(n ast.Node) int {
	var f tagOverLines
	if n != nil {
		ast.Walk(&f, n)
	}
	if f.line > 0 {
		return f.line
	}
	return nodeLine(n)
}

// tagOverLines finds the first tag whose value is not on the tag's line.
type tagOverLines struct{ line int }

func (f *tagOverLines) Visit(n ast.Node) ast.Visitor {
	if f.line > 0 || n == nil {
		return nil
	}
	if t, ok := n.(*ast.TagNode); ok && t.Value != nil && t.GetToken() != nil && t.Value.GetToken() != nil &&
		t.Value.GetToken().Position.Line > t.GetToken().Position.Line {
		f.line = t.GetToken().Position.Line
		return nil
	}
	return f
}

func nodeLine(n ast.Node) int {
	if n == nil || n.GetToken() == nil {
		return 0
	}
	return n.GetToken().Position.Line
}
