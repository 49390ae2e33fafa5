package report_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/cli"
	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/report"
	"github.com/evalgate/evalgate/internal/testdata/schematest"
)

// The JSON report (--format json) is a contract for the programs that read it:
// schema/report.schema.json describes it. These tests validate real reports of the
// shipped examples against it, show that the schema can fail, and keep its properties
// in step with the Go types.

const reportSchemaPath = "../../schema/report.schema.json"

func compileReportSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	return schematest.Compile(t, reportSchemaPath)
}

// jsonReport runs `evalgate check --format json` in-process from the repository root.
func jsonReport(t *testing.T, args ...string) []byte {
	t.Helper()
	var out, errb bytes.Buffer
	c := &cli.CLI{
		Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
		Getenv: func(string) string { return "" },
		Now:    func() time.Time { return time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC) },
		GitSHA: func() string { return "0123456789abcdef0123456789abcdef01234567" },
	}
	code := c.Main(append([]string{"evalgate", "check", "--format", "json"}, args...))
	if code != cli.ExitPass && code != cli.ExitGateFailed {
		t.Fatalf("evalgate check %v: exit %d\n%s", args, code, errb.String())
	}
	return out.Bytes()
}

func instance(t *testing.T, data []byte) any {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("report is not JSON: %v", err)
	}
	return inst
}

func TestReportSchemaAcceptsReports(t *testing.T) {
	sch := compileReportSchema(t)
	t.Chdir("../..")
	tutor := "examples/tutor-capstone/evalgate.yaml"
	cases := map[string][]string{
		"tutor pass":         {"--config", tutor},
		"tutor regressed":    {"--config", tutor, "--results", "examples/tutor-capstone/results/regressed.jsonl"},
		"tutor improved":     {"--config", tutor, "--results", "examples/tutor-capstone/results/improved.jsonl"},
		"tutor release runs": {"--config", tutor, "--results", "examples/tutor-capstone/release/run1.jsonl", "--results", "examples/tutor-capstone/release/run2.jsonl", "--results", "examples/tutor-capstone/release/run3.jsonl"},
		"tutor no baseline":  {"--config", tutor, "--baseline", filepath.Join(t.TempDir(), "none.json")},
		"repository default": {},
	}
	others, _ := filepath.Glob("examples/*/evalgate.yaml")
	for _, p := range others {
		if p != tutor {
			cases[filepath.Base(filepath.Dir(p))] = []string{"--config", p}
		}
	}
	statuses := map[string]bool{}
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			data := jsonReport(t, args...)
			if err := sch.Validate(instance(t, data)); err != nil {
				t.Fatalf("report does not validate against %s:\n%v", reportSchemaPath, err)
			}
			var r struct {
				Verdict struct{ Status string }
				Items   []map[string]json.RawMessage
			}
			if err := json.Unmarshal(data, &r); err != nil {
				t.Fatal(err)
			}
			statuses[r.Verdict.Status] = true
			// Seed 000's keys come first, in this order.
			want := []string{"item", "prompt", "expected", "got", "score", "breakdown", "weighted"}
			for _, it := range firstKeys(t, data, len(want)) {
				if diff := cmp.Diff(want, it); diff != "" {
					t.Fatalf("item keys do not start with seed 000's (-want +got):\n%s", diff)
				}
			}
		})
	}
	if !statuses["fail"] || !statuses["warn"] && !statuses["pass"] {
		t.Errorf("verdicts seen %v; the cases should include a failing and a passing report", statuses)
	}
}

// firstKeys returns the first n keys of each item object, in document order.
func firstKeys(t *testing.T, data []byte, n int) [][]string {
	t.Helper()
	var r struct{ Items []json.RawMessage }
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for _, raw := range r.Items {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.Token() // {
		var keys []string
		for dec.More() && len(keys) < n {
			tok, _ := dec.Token()
			keys = append(keys, tok.(string))
			var skip json.RawMessage
			dec.Decode(&skip)
		}
		out = append(out, keys)
	}
	return out
}

// TestReportSchemaRefuses shows the schema can fail: reports with a required part
// removed or a value out of its domain are refused.
func TestReportSchemaRefuses(t *testing.T) {
	sch := compileReportSchema(t)
	t.Chdir("../..")
	good := jsonReport(t, "--config", "examples/tutor-capstone/evalgate.yaml", "--results", "examples/tutor-capstone/results/regressed.jsonl")
	for _, tc := range []struct {
		name   string
		mutate func(r map[string]any)
	}{
		{"no items", func(r map[string]any) { delete(r, "items") }},
		{"no scoringSystem", func(r map[string]any) { delete(r, "scoringSystem") }},
		{"no gradingSystem", func(r map[string]any) { delete(r, "gradingSystem") }},
		{"item without breakdown", func(r map[string]any) { delete(item0(r), "breakdown") }},
		{"item without got", func(r map[string]any) { delete(item0(r), "got") }},
		{"item score above 1", func(r map[string]any) { item0(r)["score"] = 1.5 }},
		{"breakdown value below 0", func(r map[string]any) {
			item0(r)["breakdown"].(map[string]any)["correctness"] = -0.1
		}},
		{"unknown verdict", func(r map[string]any) { r["verdict"].(map[string]any)["status"] = "maybe" }},
		{"unknown top-level key", func(r map[string]any) { r["scores"] = []any{} }},
		{"gate without status", func(r map[string]any) { delete(r["gates"].([]any)[0].(map[string]any), "status") }},
		{"comparison without delta", func(r map[string]any) { delete(r["comparison"].(map[string]any), "delta") }},
		{"metadata without code_version", func(r map[string]any) { delete(r["metadata"].(map[string]any), "code_version") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r map[string]any
			if err := json.Unmarshal(good, &r); err != nil {
				t.Fatal(err)
			}
			tc.mutate(r)
			b, _ := json.Marshal(r)
			if err := sch.Validate(instance(t, b)); err == nil {
				t.Errorf("the schema accepts a report with %s", tc.name)
			}
		})
	}
}

func item0(r map[string]any) map[string]any { return r["items"].([]any)[0].(map[string]any) }

func TestReportSchemaCoversEveryKey(t *testing.T) {
	doc := schematest.Doc(t, reportSchemaPath)
	for _, tc := range []struct {
		def string
		typ any
	}{
		{"", report.Report{}},
		{"metadata", report.Metadata{}},
		{"summary", report.Summary{}},
		{"judge_usage", report.JudgeUsage{}},
		{"dimension", report.Dimension{}},
		{"run", report.Run{}},
		{"verdict", gate.Verdict{}},
		{"regression", gate.RegressionDecision{}},
		{"resolving_power", gate.ResolvingPower{}},
		{"evidence_item", baseline.EvidenceItem{}},
		{"gate", gate.Result{}},
		{"grade", gate.GradeResult{}},
		{"comparison", baseline.Comparison{}},
		{"delta", baseline.DimensionDelta{}},
		{"item_change", baseline.ItemChange{}},
	} {
		if diff := cmp.Diff(schematest.StructKeys(reflect.TypeOf(tc.typ), "json"), schematest.PropKeys(schematest.Def(t, doc, tc.def))); diff != "" {
			t.Errorf("%T JSON keys vs schema $defs/%s (-go +schema):\n%s", tc.typ, tc.def, diff)
		}
	}
}
