// Package schematest holds what the JSON Schema tests of the config and of the report
// share: reading and compiling a schema file, and comparing a schema's properties with
// the keys of the Go types it describes. Only tests import it.
package schematest

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Doc reads a schema file as a JSON object.
func Doc(t testing.TB, path string) map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		t.Fatalf("%s is not a JSON object", path)
	}
	return obj
}

// Compile compiles a schema file (draft 2020-12 unless it says otherwise).
func Compile(t testing.TB, path string) *jsonschema.Schema {
	t.Helper()
	doc := Doc(t, path)
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	url := "file:///" + filepath.Base(path)
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatalf("%s does not compile: %v", path, err)
	}
	return sch
}

// Def returns $defs/name of a schema, or the schema itself for "".
func Def(t testing.TB, doc map[string]any, name string) map[string]any {
	t.Helper()
	if name == "" {
		return doc
	}
	d, ok := doc["$defs"].(map[string]any)[name].(map[string]any)
	if !ok {
		t.Fatalf("schema has no $defs/%s", name)
	}
	return d
}

// PropKeys lists a schema node's property names, sorted.
func PropKeys(node map[string]any) []string {
	props, _ := node["properties"].(map[string]any)
	out := make([]string, 0, len(props))
	for k := range props {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// StructKeys lists the names a struct's exported fields take under a struct tag
// ("json" or "yaml"), sorted; untagged fields take their Go name, lowercased for yaml
// as goccy/go-yaml does.
func StructKeys(typ reflect.Type, tag string) []string {
	var out []string
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get(tag), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
			if tag == "yaml" {
				name = strings.ToLower(name)
			}
		}
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}
