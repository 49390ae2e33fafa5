package rubric

import (
	"encoding/json"
	"path/filepath"
	"strings"

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
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(in.Text))
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
