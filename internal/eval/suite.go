package eval

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"math"
	"path/filepath"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"

	"github.com/evalgate/evalgate/internal/safeio"
)

// Suite is the regression set as it is loaded, run and scored: the items themselves
// (fields, prompt, context), with unique ids, in file order, and their Index. The
// scorer releases each item once its last run is scored (Release): from then on At
// and Item give nil for it, and only the Index, which every later stage reads
// (rubric.Scored.Suite), knows it. Use it by pointer.
type Suite struct {
	*Index
	items []*Item // nil once released
}

// SuiteOf is a suite whose items are x's entries (Index.At): ids, lines, tags, hashes
// and positions, without fields, prompt or context.
func SuiteOf(x *Index) *Suite {
	s := &Suite{Index: x, items: make([]*Item, x.Len())}
	for i := range s.items {
		s.items[i] = x.At(i)
	}
	return s
}

// newSuite is an empty suite of the file.
func newSuite(file string) *Suite { return &Suite{Index: NewIndex(file)} }

// At is item i itself; nil once released.
func (s *Suite) At(i int) *Item {
	if i < len(s.items) {
		return s.items[i]
	}
	return nil
}

// Item returns the item with the given id (At); nil, true once released.
func (s *Suite) Item(id string) (*Item, bool) {
	i, ok := s.Find(id)
	if !ok {
		return nil, false
	}
	return s.At(i), true
}

// All yields every item in suite order (At).
func (s *Suite) All() iter.Seq2[int, *Item] {
	return func(yield func(int, *Item) bool) {
		for i := range s.Len() {
			if !yield(i, s.At(i)) {
				return
			}
		}
	}
}

// Release lets the suite forget item i itself once nothing will read it again: the
// scorer, after the item's last run. Its Index entry stays.
func (s *Suite) Release(i int) {
	if i < len(s.items) {
		s.items[i] = nil
	}
}

// ReleaseAll releases every item (Release).
func (s *Suite) ReleaseAll() { s.items = nil }

// LoadSuite reads a suite from YAML (.yaml, .yml) or JSONL (.jsonl, .ndjson).
func LoadSuite(path string) (*Suite, error) {
	data, err := readText(path, "suite")
	if err != nil {
		return nil, err
	}
	return ParseSuite(path, data)
}

// ParseSuite parses suite bytes; path decides the format and names the file in errors.
func ParseSuite(path string, data []byte) (*Suite, error) {
	if err := checkText(path, "suite", data); err != nil {
		return nil, err
	}
	s := newSuite(path)
	sum := sha256.Sum256(data)
	s.Hash = hex.EncodeToString(sum[:])
	s.Name = s.defaultName()
	var err error
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml":
		err = s.parseYAML(data)
	case ".jsonl", ".ndjson":
		err = splitLines(data, func(line int, text []byte) error {
			fields, err := decodeRecord(path, line, text)
			if err != nil {
				return err
			}
			return s.add(line, fields)
		})
	default:
		return nil, Errorf(path, 0, "", "unknown suite format %q; want .yaml, .yml or .jsonl", filepath.Ext(path))
	}
	if err != nil {
		return nil, err
	}
	if s.Len() == 0 {
		return nil, Errorf(path, 0, "", "suite has no items")
	}
	return s, nil
}

// defaultName is the file's base name without extension.
func (s *Suite) defaultName() string {
	base := filepath.Base(s.File)
	return strings.TrimSuffix(base, filepath.Ext(base))
}

func (s *Suite) add(line int, fields map[string]any) error {
	it, err := newItem(s.File, line, fields)
	if err != nil {
		return err
	}
	return s.AddItem(it)
}

// parseYAML accepts a list of items, or a mapping with `items:` and an optional `name:`.
// The usual layout is parsed one item at a time (see splitItems); anything else, and
// any error on the way, goes through the whole-file parse, which has the last word.
func (s *Suite) parseYAML(data []byte) error {
	if skeleton, items, ok := splitItems(data); ok {
		if s.parseYAMLItems(skeleton, items) == nil {
			return nil
		}
		s.items, s.idx, s.Name = nil, itemIndex{}, s.defaultName()
	}
	return s.parseYAMLWhole(data)
}

// parseYAMLWhole parses the whole file as one tree.
func (s *Suite) parseYAMLWhole(data []byte) error {
	f, err := safeio.ParseYAML(s.File, data)
	if err != nil {
		return err
	}
	seq, err := s.parseTop(f)
	if err != nil {
		return err
	}
	for _, node := range seq.Values {
		if err := s.addNode(node, 0); err != nil {
			return err
		}
	}
	return nil
}

// parseYAMLItems parses the skeleton (the top-level keys) and then each item alone.
func (s *Suite) parseYAMLItems(skeleton []byte, items []yamlItem) error {
	if skeleton != nil {
		f, err := safeio.ParseYAML(s.File, skeleton)
		if err != nil {
			return err
		}
		if seq, err := s.parseTop(f); err != nil && seq == nil { // a skeleton's list is empty
			return err
		}
	}
	parts := safeio.NewYAMLParts(s.File)
	for _, it := range items {
		f, err := parts.Parse(it.data)
		if err != nil {
			return err
		}
		seq, ok := f.Docs[0].Body.(*ast.SequenceNode)
		if len(f.Docs) != 1 || !ok || len(seq.Values) != 1 {
			return errNotOneItem
		}
		if err := s.addNode(seq.Values[0], it.off); err != nil {
			return err
		}
	}
	return nil
}

var errNotOneItem = errors.New("not one item")

// parseTop reads the top level: a list, or a mapping of name, description, version and
// items. It returns the items list (empty in a skeleton).
func (s *Suite) parseTop(f *ast.File) (*ast.SequenceNode, error) {
	if len(f.Docs) != 1 || f.Docs[0].Body == nil {
		return nil, Errorf(s.File, 0, "", "want one YAML document holding a list of items or a mapping with \"items\"")
	}
	body := f.Docs[0].Body
	var seq *ast.SequenceNode
	seqLine := line(body) // where an empty list is reported
	switch n := body.(type) {
	case *ast.SequenceNode:
		seq = n
	case *ast.MappingNode:
		for _, kv := range n.Values {
			key := kv.Key.String()
			switch key {
			case "name":
				var name string
				if err := NodeToValue(s.File, kv.Value, &name); err != nil {
					return nil, err
				}
				s.Name = name
			case "items":
				sq, ok := kv.Value.(*ast.SequenceNode)
				if !ok {
					return nil, Errorf(s.File, line(kv.Value), "", "\"items\" must be a list of items")
				}
				seq = sq
				seqLine = line(kv.Key)
			case "description", "version":
			default:
				return nil, Errorf(s.File, line(kv.Key), "", "unknown top-level key %q; want name, description, version or items", key)
			}
		}
	default:
		return nil, Errorf(s.File, line(body), "", "want a list of items or a mapping with \"items\"")
	}
	if seq == nil {
		return nil, Errorf(s.File, 0, "", "no \"items\" list")
	}
	if len(seq.Values) == 0 {
		return seq, Errorf(s.File, seqLine, "", "suite has no items")
	}
	return seq, nil
}

// addNode decodes one item node; off is the number of file lines before the node's
// document (an item parsed alone).
func (s *Suite) addNode(node ast.Node, off int) error {
	ln := line(node) + off
	m, ok := node.(*ast.MappingNode)
	if !ok {
		return Errorf(s.File, ln, "", "an item must be a mapping with at least an \"id\"")
	}
	if fields, ok := plainFields(m); ok {
		return s.add(ln, fields)
	}
	var raw map[string]any
	if err := NodeToValue(s.File, node, &raw); err != nil {
		return err
	}
	fields, err := toJSONFields(raw)
	if err != nil {
		return Errorf(s.File, ln, idOf(raw), "%v", err)
	}
	return s.add(ln, fields)
}

func idOf(m map[string]any) string {
	if s, ok := m["id"].(string); ok {
		return s
	}
	return ""
}

func line(n ast.Node) int {
	if n == nil || n.GetToken() == nil {
		return 0
	}
	return n.GetToken().Position.Line
}

// toJSONFields turns decoded YAML into JSON types, refusing NaN and infinities.
func toJSONFields(raw map[string]any) (map[string]any, error) {
	if err := checkFinite(raw); err != nil {
		return nil, err
	}
	b, err := json.Marshal(raw)
	if err != nil {
		return nil, fmt.Errorf("cannot represent item as JSON: %v", err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, err
	}
	return out, nil
}

func checkFinite(v any) error {
	switch x := v.(type) {
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("NaN and infinities are not allowed")
		}
	case map[string]any:
		for k, e := range x {
			if err := checkFinite(e); err != nil {
				return fmt.Errorf("field %q: %w", k, err)
			}
		}
	case []any:
		for _, e := range x {
			if err := checkFinite(e); err != nil {
				return err
			}
		}
	}
	return nil
}

// decodeRecord decodes one JSONL line into JSON fields.
func decodeRecord(file string, line int, text []byte) (map[string]any, error) {
	if len(text) > MaxLineBytes {
		return nil, Errorf(file, line, "", "line is longer than %d MiB, the limit for one record", MaxLineBytes>>20)
	}
	if err := safeio.CheckJSONDepth(file, text, line); err != nil {
		return nil, err
	}
	trimmed := bytes.TrimSpace(text)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, Errorf(file, line, "", "want a JSON object on each line")
	}
	var fields map[string]any
	if decodeFast(trimmed, &fields) == nil {
		if topLevelKeys(trimmed) != len(fields) {
			if err := checkDuplicateKeys(trimmed); err != nil {
				return nil, Errorf(file, line, idOf(fields), "%v", err)
			}
		}
		return fields, nil
	}
	// The fast decoder refused the line: encoding/json decodes it again for its error
	// message (its wording and offsets are the ones users see).
	fields = nil
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	if err := dec.Decode(&fields); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) { // valid JSON, but a number no float64 holds (1e999)
			col := int(te.Offset) - len(strings.TrimPrefix(te.Value, "number ")) + 1
			return nil, &InputError{File: file, Line: line, Col: max(col, 1), Item: idOf(fields),
				Msg: fmt.Sprintf("%s is out of range; want a finite number", te.Value)}
		}
		je := jsonError(file, line, err)
		je.Item = leadingID(trimmed)
		return nil, je
	}
	if rest := bytes.TrimSpace(trimmed[dec.InputOffset():]); len(rest) > 0 {
		return nil, Errorf(file, line, idOf(fields), "more than one JSON value on the line (%q follows the object); JSONL holds one object per line", clip(string(rest), 20))
	}
	// encoding/json keeps the last of repeated keys silently; a cheap count of the
	// top-level keys finds the repeat, and only then is the record decoded again.
	if topLevelKeys(trimmed) != len(fields) {
		if err := checkDuplicateKeys(trimmed); err != nil {
			return nil, Errorf(file, line, idOf(fields), "%v", err)
		}
	}
	return fields, nil
}

// leadingIDBytes bounds how much of a malformed line leadingID reads.
const leadingIDBytes = 4 << 10

// leadingID is the id of a malformed JSON record when it is the record's first key and
// reads whole within its first 4 KiB, so the error can name the item; else "".
func leadingID(text []byte) string {
	dec := json.NewDecoder(bytes.NewReader(text[:min(len(text), leadingIDBytes)]))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return ""
	}
	if k, err := dec.Token(); err != nil || k != "id" {
		return ""
	}
	if v, err := dec.Token(); err == nil {
		if id, ok := v.(string); ok && strings.TrimSpace(id) != "" {
			return id
		}
	}
	return ""
}

func jsonError(file string, line int, err error) *InputError {
	col := 0
	var se *json.SyntaxError
	if errors.As(err, &se) {
		col = int(se.Offset)
	}
	return &InputError{File: file, Line: line, Col: col, Msg: "malformed JSON: " + err.Error()}
}

// NodeToValue is yaml.NodeToValue with its errors (and goccy/go-yaml's panics on some
// valid YAML) as *InputError.
func NodeToValue(file string, node ast.Node, v any, opts ...yaml.DecodeOption) error {
	return safeio.DecodeNode(file, node, v, opts...)
}

// clip cuts s to at most n bytes for a message, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
