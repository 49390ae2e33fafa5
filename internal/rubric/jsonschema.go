package rubric

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
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
		data, err := safeio.ReadFile(path, "JSON Schema", safeio.MaxSmallFileBytes)
		if err != nil {
			var ie *safeio.InputError
			if errors.As(err, &ie) {
				err = errors.New(strings.TrimPrefix(ie.Msg, "cannot read JSON Schema file: "))
			}
			return nil, optErr(d, "schema file %s: %v", path, err)
		}
		if err := safeio.CheckJSONDepth(path, data, 1); err != nil {
			return nil, optErr(d, "schema file %v", err)
		}
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(data)))
		if err != nil {
			return nil, optErr(d, "schema file %s is not valid JSON: %v", path, err)
		}
		c := jsonschema.NewCompiler()
		url := "file:///" + filepath.ToSlash(filepath.Base(path))
		if err := c.AddResource(url, doc); err != nil {
			return nil, optErr(d, "schema file %s: %v", path, err)
		}
		sch, err := c.Compile(url)
		if err != nil {
			return nil, optErr(d, "schema file %s: %v", path, err)
		}
		sum := sha256.Sum256(data)
		return &jsonSchemaScorer{schema: sch, hash: hex.EncodeToString(sum[:])}, nil
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

func unwrapOS(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
