package config_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/judge"
	"github.com/evalgate/evalgate/internal/rubric"
	"github.com/evalgate/evalgate/internal/testdata/schematest"
)

// The config's JSON Schema (schema/evalgate.schema.json) is what editors validate
// evalgate.yaml with. These tests keep it honest: every shipped config validates, configs
// evalgate refuses for a reason the schema can see are refused by it too, and every key
// of the Go types the config decodes into is described, with enums that match the code.

const configSchemaPath = "../../schema/evalgate.schema.json"

// yamlInstance reads a YAML file as a JSON Schema instance.
func yamlInstance(t *testing.T, path string) any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return inst
}

func TestConfigSchemaAcceptsShippedConfigs(t *testing.T) {
	sch := schematest.Compile(t, configSchemaPath)
	paths, _ := filepath.Glob("../../examples/*/evalgate.yaml")
	if len(paths) == 0 {
		t.Fatal("no examples/*/evalgate.yaml")
	}
	paths = append(paths, "../../evalgate.yaml", "../cli/testdata/bad/_base/evalgate.yaml")
	if _, err := os.Stat("../../bench/evalgate.yaml"); err == nil {
		paths = append(paths, "../../bench/evalgate.yaml")
	}
	for _, p := range paths {
		t.Run(strings.TrimPrefix(p, "../../"), func(t *testing.T) {
			if err := sch.Validate(yamlInstance(t, p)); err != nil {
				t.Errorf("%s does not validate against %s:\n%v", p, configSchemaPath, err)
			}
			// evalgate itself must accept what the schema accepts here.
			if _, err := config.Load(p, nil); err != nil {
				t.Errorf("evalgate refuses %s: %v", p, err)
			}
		})
	}
}

// TestConfigSchemaRefusesBadConfigs: the bad-input catalog's config cases that a schema
// can decide are refused by the schema as well as by evalgate.
func TestConfigSchemaRefusesBadConfigs(t *testing.T) {
	sch := schematest.Compile(t, configSchemaPath)
	for _, name := range []string{
		"unknown_config_field", "unknown_top_level_config_key", "weight_not_a_number", "negative_weight",
		"unknown_scorer", "unknown_scale", "unknown_normalize", "missing_max_words",
		"bad_scoring_version", "bad_grading_version", "metadata_key_not_snake_case",
		"gate_unknown_metric", "gate_min_and_max", "gate_unknown_level", "regression_bad_mode",
		"dimension_named_like_item_key",
	} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join("../cli/testdata/bad", name, "evalgate.yaml")
			if err := sch.Validate(yamlInstance(t, p)); err == nil {
				t.Errorf("the schema accepts %s, which evalgate refuses", p)
			}
		})
	}
}

func TestConfigSchemaCoversEveryKey(t *testing.T) {
	doc := schematest.Doc(t, configSchemaPath)
	for _, tc := range []struct {
		def string
		typ any
	}{
		{"", config.Config{}},
		{"scoring", rubric.System{}},
		{"dimension", rubric.Dimension{}},
		{"normalization", rubric.Normalization{}},
		{"ceiling", rubric.Ceiling{}},
		{"veto", rubric.Veto{}},
		{"pass", rubric.PassRule{}},
		{"condition", rubric.Condition{}},
		{"grading", gate.System{}},
		{"gate", gate.Gate{}},
		{"regression", gate.Regression{}},
		{"grades", gate.Grades{}},
		{"band", gate.Band{}},
		{"judge", judge.Config{}},
	} {
		typ := reflect.TypeOf(tc.typ)
		node := schematest.Def(t, doc, tc.def)
		if diff := cmp.Diff(schematest.StructKeys(typ, "yaml"), schematest.PropKeys(node)); diff != "" {
			t.Errorf("%s keys vs schema $defs/%s properties (-go +schema):\n%s", typ, tc.def, diff)
		}
		if node["additionalProperties"] != false {
			t.Errorf("$defs/%s allows unknown keys; evalgate refuses them", tc.def)
		}
		props, _ := node["properties"].(map[string]any)
		for k, v := range props {
			p, _ := v.(map[string]any)
			_, hasDesc := p["description"]
			if _, isRef := p["$ref"]; !hasDesc && !isRef {
				t.Errorf("$defs/%s.%s has no description", tc.def, k)
			}
		}
	}
}

func enumOf(t *testing.T, node map[string]any, path ...string) []string {
	t.Helper()
	cur := node
	for _, p := range path {
		next, ok := cur[p].(map[string]any)
		if !ok {
			t.Fatalf("schema: no %v", path)
		}
		cur = next
	}
	var out []string
	for _, v := range cur["enum"].([]any) {
		out = append(out, v.(string))
	}
	sort.Strings(out)
	return out
}

func TestConfigSchemaEnumsMatchCode(t *testing.T) {
	doc := schematest.Doc(t, configSchemaPath)
	dim := schematest.Def(t, doc, "dimension")
	if diff := cmp.Diff(rubric.ScorerNames(), enumOf(t, dim, "properties", "scorer")); diff != "" {
		t.Errorf("scorers (-code +schema):\n%s", diff)
	}
	scales := strings.Split(rubric.ScaleNames(), ", ")
	if diff := cmp.Diff(scales, enumOf(t, dim, "properties", "scale")); diff != "" {
		t.Errorf("scales (-code +schema):\n%s", diff)
	}
	var cats []string
	for c := range rubric.SafetyCategories {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	if diff := cmp.Diff(cats, enumOf(t, dim, "properties", "categories", "items")); diff != "" {
		t.Errorf("safety categories (-code +schema):\n%s", diff)
	}

	// Metrics: the run metrics are an enum, dimension metrics a suffix pattern.
	metric := schematest.Def(t, doc, "metric")
	alts := metric["anyOf"].([]any)
	var run []string
	for _, v := range alts[0].(map[string]any)["enum"].([]any) {
		run = append(run, v.(string))
	}
	sort.Strings(run)
	if diff := cmp.Diff((&rubric.System{}).MetricNames(), run); diff != "" {
		t.Errorf("run metrics (-code +schema):\n%s", diff)
	}
	pat := regexp.MustCompile(alts[1].(map[string]any)["pattern"].(string))
	sys := &rubric.System{Dimensions: []rubric.Dimension{{Name: "accuracy"}, {Name: "spanish_gloss"}}}
	for _, m := range sys.MetricNames() {
		if !slices.Contains(run, m) && !pat.MatchString(m) {
			t.Errorf("metric %q is neither in the schema's enum nor matches %s", m, pat)
		}
	}
	for _, suf := range rubric.DimensionMetricSuffixes {
		if !pat.MatchString("accuracy" + suf) {
			t.Errorf("dimension metric suffix %q not in the schema's pattern %s", suf, pat)
		}
	}
}
