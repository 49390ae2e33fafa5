package eval

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"sync"

	"github.com/evalgate/evalgate/internal/jsonenc"
)

// Item is one entry of the regression set.
type Item struct {
	ID      string
	Prompt  string   // the `prompt` field, or `input` when there is no prompt
	Context string   // the `context` field, if any
	Tags    []string // the `tags` field, if any
	// Fields holds every field of the record as JSON values (string, float64, bool,
	// []any, map[string]any, nil), reference answers included, so a dimension can name
	// any of them (`expected`, `expected_contains.english`, ...).
	Fields map[string]any
	Line   int    // line of the item in its file (1-based)
	Hash   string // sha256 of the item's canonical JSON: changes when any field changes
	Index  int    // position in the suite (0-based)
	Pos    int    // position in the whole suite when this is a shard of it (else Index)
}

// Field returns the value at a dotted path into the item's fields.
func (it *Item) Field(path string) (any, bool) { return Lookup(it.Fields, path) }

// Lookup follows a dotted path ("expected_contains.english") through nested objects.
func Lookup(m map[string]any, path string) (any, bool) {
	var cur any = m
	for more := true; more; {
		var part string
		part, path, more = strings.Cut(path, ".")
		obj, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		cur, ok = obj[part]
		if !ok {
			return nil, false
		}
	}
	return cur, true
}

// hashBufs are scratch buffers for hashFields, which runs on every decoding worker.
var hashBufs = sync.Pool{New: func() any { return new([]byte) }}

// hashFields is the sha256 of the canonical JSON (sorted keys) of fields.
func hashFields(fields map[string]any) string {
	buf := hashBufs.Get().(*[]byte)
	defer hashBufs.Put(buf)
	b, ok := jsonenc.Append((*buf)[:0], fields, true) // as json.Marshal: sorted keys, HTML escaped
	if !ok {
		b, _ = json.Marshal(fields)
	} else if cap(b) <= 1<<20 {
		*buf = b // keep the grown buffer, not a huge one
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// newItem validates the common fields of a suite record and builds the Item.
func newItem(file string, line int, fields map[string]any) (*Item, error) {
	return newItemHashed(file, line, fields, "")
}

// newItemHashed is newItem with the item's hash given when the caller has it already
// (hashFields(fields), computed from the record's line); "" computes it.
func newItemHashed(file string, line int, fields map[string]any, hash string) (*Item, error) {
	rawID, ok := fields["id"]
	if !ok {
		return nil, Errorf(file, line, "", "item has no \"id\"; every item needs a unique string id")
	}
	id, ok := rawID.(string)
	if !ok || strings.TrimSpace(id) == "" {
		return nil, Errorf(file, line, "", "field \"id\" is %s; want a non-empty string", Describe(rawID))
	}
	it := &Item{ID: id, Fields: fields, Line: line}
	for _, k := range []string{"prompt", "input", "context"} {
		v, ok := fields[k]
		if !ok || v == nil {
			continue
		}
		s, ok := v.(string)
		if !ok {
			return nil, Errorf(file, line, id, "field %q is %s; want a string", k, Describe(v))
		}
		switch k {
		case "prompt":
			it.Prompt = s
		case "input":
			if it.Prompt == "" {
				it.Prompt = s
			}
		case "context":
			it.Context = s
		}
	}
	if v, ok := fields["tags"]; ok && v != nil {
		list, ok := v.([]any)
		if !ok {
			return nil, Errorf(file, line, id, "field \"tags\" is %s; want a list of strings", Describe(v))
		}
		for _, t := range list {
			s, ok := t.(string)
			if !ok {
				return nil, Errorf(file, line, id, "field \"tags\" holds %s; want a list of strings", Describe(t))
			}
			it.Tags = append(it.Tags, strings.Clone(s)) // kept after Release: no slice of a record's line
		}
	}
	if hash == "" {
		hash = hashFields(fields)
	}
	it.Hash = hash
	return it, nil
}

// Describe names a JSON value for error messages ("a number", "the string \"fast\"").
func Describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		if len(x) > 40 {
			x = x[:40] + "…"
		}
		b, _ := json.Marshal(x)
		return "the string " + string(b)
	case float64, json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return "an unsupported value"
}
