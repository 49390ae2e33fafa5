package rubric

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"

	gojson "github.com/goccy/go-json"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/evalgate/evalgate/internal/safeio"
)

// schemaPrinter formats validation messages; a nil printer panics in some error kinds
// (kind.Required), so one must always be given.
var schemaPrinter = message.NewPrinter(language.English)

// jsonSchemaScorer passes when the output parses as JSON and conforms to a JSON Schema.
type jsonSchemaScorer struct {
	schema *jsonschema.Schema
	hash   string
}

func init() {
	register("json_schema", "binary", true, func(d *Dimension, _ *Env) (Scorer, error) {
		if d.Schema == "" {
			return nil, optErr(d, "needs `schema:`, the path of a JSON Schema file (relative to the config)")
		}
		path := d.Schema
		if !filepath.IsAbs(path) {
			path = filepath.Join(d.Dir, path)
		}
		sch, hash, err := compileSchema(path, safeio.RepoRoot(d.Dir))
		if err != nil {
			return nil, optErr(d, "%v", err)
		}
		return &jsonSchemaScorer{schema: sch, hash: hash}, nil
	})
}

// ContentHash makes the rubric hash change when the schema file changes.
func (s *jsonSchemaScorer) ContentHash() string { return s.hash }

func (s *jsonSchemaScorer) Score(in *Input) (Value, error) {
	if in.TextErr != "" {
		return binary(false, in.TextErr), nil
	}
	doc, err := parseOutput(in.Text)
	if err != nil {
		return binary(false, "output is not JSON"), nil
	}
	if err := s.schema.Validate(doc); err != nil {
		msg := err.Error()
		if ve, ok := err.(*jsonschema.ValidationError); ok {
			msg = firstLeaf(ve)
		}
		return binary(false, msg), nil
	}
	return binary(true, ""), nil
}

// firstLeaf gives the most specific cause of a validation error, on one line.
func firstLeaf(ve *jsonschema.ValidationError) string {
	for len(ve.Causes) > 0 {
		ve = ve.Causes[0]
	}
	b, _ := json.Marshal(ve.InstanceLocation)
	return "schema: at " + string(b) + ": " + strings.TrimSpace(ve.ErrorKind.LocalizedString(schemaPrinter))
}

// parseOutput decodes an output for validation as jsonschema.UnmarshalJSON does
// (numbers as json.Number, nothing but space after the value), with goccy/go-json,
// which takes about half the time; the differential test and fuzz target in
// jsonschema_test.go hold the two to the same values and the same refusals.
func parseOutput(text string) (any, error) {
	if !hasNumber(text) { // json.Number changes nothing: no Decoder (and its buffer) needed
		var doc any
		if err := gojson.Unmarshal([]byte(text), &doc); err != nil {
			return nil, err
		}
		return doc, nil
	}
	dec := gojson.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	if rest := strings.TrimLeft(text[dec.InputOffset():], " \t\r\n"); rest != "" {
		return nil, errors.New("invalid character after top-level value")
	}
	return doc, nil
}

// hasNumber reports whether text may hold a JSON number: a digit or a minus sign
// outside its strings.
func hasNumber(text string) bool {
	in := false
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case in && c == '\\':
			i++
		case c == '"':
			in = !in
		case !in && (c >= '0' && c <= '9' || c == '-'):
			return true
		}
	}
	return false
}
