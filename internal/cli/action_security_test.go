package cli_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/cli"
	"github.com/evalgate/evalgate/internal/testdata/chattest"
)

// gateAttack is a pull request that rewrites its own gate: its results fail the base
// commit's gate, and its own (proposed) gate would pass them.
type gateAttack struct {
	name string
	// base changes the base commit's files (and the workspace's copy, which the pull
	// request starts from); pr makes the pull request's edits in the workspace.
	base func(t *testing.T, files map[string]string)
	pr   func(t *testing.T, ws string)
	// inputs are the pull request's workflow inputs (it may edit its workflow); results
	// the results input (relative to the working directory).
	inputs  map[string]string
	results string
	// own is the pull request's config and results, relative to the workspace: `evalgate
	// check` on them passes, which shows the proposed gate would let the run through.
	own struct{ config, results string }
	// notScored: the proposed gate is shown but never scored (its judge would get this
	// repository's key at another endpoint), so accepting it changes nothing.
	notScored bool
	env       map[string]string
}

// TestGateSecurity runs each attack as a pull request against a base commit: the check
// run fails (the base commit's gate decides), the comment and the check summary show
// the proposed gate first with what it changes, and only a maintainer's accept label
// makes the proposed gate decide, as neutral, titled with the change.
func TestGateSecurity(t *testing.T) {
	// The judge rows: the base commit's judge (baseJudge) scores every output 0; the
	// pull request's own server (prJudge) scores every output 2 of 2.
	baseJudge := chattest.New(t, "/v1", chattest.Always(chattest.Reply{Content: `{"accuracy_score": 0, "faithfulness_score": 0, "rationale": "wrong"}`}))
	prJudge := chattest.New(t, "/v1", chattest.Always(chattest.Reply{Content: `{"accuracy_score": 2, "faithfulness_score": 2, "rationale": "right"}`}))
	judgeEnv := map[string]string{"JUDGE_KEY": "sk-test-judge-key"}

	attacks := []gateAttack{
		{
			name: "removes the failing items and their rubric tests",
			pr: func(t *testing.T, ws string) {
				drop := []string{"e-39-03", "e-39-07", "e-39-12"}
				removeSuiteItems(t, filepath.Join(ws, tutorSuite), drop...)
				removeRubricTests(t, filepath.Join(ws, "examples/tutor-capstone/rubric_tests.yaml"), drop...)
				removeResults(t, filepath.Join(ws, "examples/tutor-capstone/results/regressed.jsonl"), drop...)
			},
		},
		{
			name: "moves the weights onto a dimension that passes",
			pr: func(t *testing.T, ws string) {
				editFile(t, filepath.Join(ws, "evalgate.yaml"),
					"{name: correctness, weight: 0.60,", "{name: correctness, weight: 0.01,",
					"{name: spanish_gloss, weight: 0.25,", "{name: spanish_gloss, weight: 0.01,",
					"{name: schema, weight: 0.10,", "{name: schema, weight: 0.97,",
					"{name: conciseness, weight: 0.05,", "{name: conciseness, weight: 0.01,",
					"regression: {max_drop: 0.02", "regression: {max_drop: 0.5")
				e2eWrite(t, filepath.Join(ws, "examples/tutor-capstone/rubric_tests.yaml"), "[]\n")
			},
		},
		{
			name: "points suite: at an easier suite",
			pr: func(t *testing.T, ws string) {
				easy := filepath.Join(ws, "examples/tutor-capstone/easy.yaml")
				e2eWrite(t, easy, e2eRead(t, filepath.Join(ws, tutorSuite)))
				removeSuiteItems(t, easy, "e-39-03", "e-39-07", "e-39-12")
				removeRubricTests(t, filepath.Join(ws, "examples/tutor-capstone/rubric_tests.yaml"), "e-39-03", "e-39-07", "e-39-12")
				removeResults(t, filepath.Join(ws, "examples/tutor-capstone/results/regressed.jsonl"), "e-39-03", "e-39-07", "e-39-12")
				editFile(t, filepath.Join(ws, "evalgate.yaml"), "suite: examples/tutor-capstone/suite.yaml", "suite: examples/tutor-capstone/easy.yaml")
			},
		},
		{
			name:   "points the config input at a path the base commit lacks",
			inputs: map[string]string{"config": "evals/lenient.yaml"},
			pr: func(t *testing.T, ws string) {
				e2eWrite(t, filepath.Join(ws, "evals/lenient.yaml"), lenientConfig("../examples/tutor-capstone/suite.yaml", "../baselines/tutor-capstone.jsonl"))
			},
			own: struct{ config, results string }{"evals/lenient.yaml", ""},
		},
		{
			name:    "points working-directory at a directory the base commit lacks",
			inputs:  map[string]string{"working-directory": "sub"},
			results: "regressed.jsonl",
			pr: func(t *testing.T, ws string) {
				e2eWrite(t, filepath.Join(ws, "sub/evalgate.yaml"), lenientConfig("../examples/tutor-capstone/suite.yaml", "../baselines/tutor-capstone.jsonl"))
				e2eWrite(t, filepath.Join(ws, "sub/regressed.jsonl"), e2eRead(t, filepath.Join(ws, "examples/tutor-capstone/results/regressed.jsonl")))
			},
			own: struct{ config, results string }{"sub/evalgate.yaml", "sub/regressed.jsonl"},
		},
		{
			name: "changes scorers and normalization",
			pr: func(t *testing.T, ws string) {
				editFile(t, filepath.Join(ws, "evalgate.yaml"),
					"{name: correctness, weight: 0.60, scorer: contains, output_field: english, expected: expected_contains.english}",
					`{name: correctness, weight: 0.60, scorer: regex, output_field: english, pattern: "."}`,
					"{name: schema, weight: 0.10, scorer: json_schema, schema: examples/tutor-capstone/schema.json}",
					`{name: schema, weight: 0.10, scorer: regex, pattern: "."}`,
					"{name: spanish_gloss, weight: 0.25, scorer: contains, output_field: spanish, expected: expected_contains.spanish}",
					"{name: spanish_gloss, weight: 0.25, scorer: contains, output_field: spanish, expected: expected_contains.spanish, normalization: {substring: true}}",
					"regression: {max_drop: 0.02", "regression: {max_drop: 0.5")
				e2eWrite(t, filepath.Join(ws, "examples/tutor-capstone/rubric_tests.yaml"), "[]\n")
			},
		},
		{
			name: "adds a lenient rubric test with a lenient scorer",
			pr: func(t *testing.T, ws string) {
				editFile(t, filepath.Join(ws, "evalgate.yaml"),
					"{name: correctness, weight: 0.60, scorer: contains, output_field: english, expected: expected_contains.english}",
					`{name: correctness, weight: 0.60, scorer: regex, output_field: english, pattern: "."}`,
					"regression: {max_drop: 0.02", "regression: {max_drop: 0.5")
				e2eWrite(t, filepath.Join(ws, "examples/tutor-capstone/rubric_tests.yaml"),
					"- name: any answer is right\n  item: e-39-03\n  output: {english: \"Speaked.\", spanish: \"Habló.\", explanation: \"x\"}\n  want: {correctness: 1}\n")
			},
		},
		{
			name: "forges the judge cache and sets replay: true",
			base: judgeBase(baseJudge.BaseURL()),
			pr: func(t *testing.T, ws string) {
				// The forged cache: the pull request's own judge's verdicts, recorded by
				// evalgate itself, then replayed under the base commit's judge settings.
				cfg := filepath.Join(ws, "evalgate.yaml")
				editFile(t, cfg, baseJudge.BaseURL(), prJudge.BaseURL())
				if code, out := evalgateCheck(t, judgeEnv, cfg, filepath.Join(ws, "examples/tutor-capstone/results/regressed.jsonl")); code != 0 {
					t.Fatalf("recording the forged cache: exit %d\n%s", code, out)
				}
				editFile(t, cfg, prJudge.BaseURL(), baseJudge.BaseURL(), "api_key_env: JUDGE_KEY}", "api_key_env: JUDGE_KEY, replay: true}")
			},
			env: judgeEnv,
		},
		{
			name: "points the judge's base_url at its own server",
			base: judgeBase(baseJudge.BaseURL()),
			pr: func(t *testing.T, ws string) {
				editFile(t, filepath.Join(ws, "evalgate.yaml"), baseJudge.BaseURL(), prJudge.BaseURL())
			},
			notScored: true,
			env:       judgeEnv,
		},
	}
	for _, a := range attacks {
		t.Run(a.name, func(t *testing.T) {
			files := baseFiles(t)
			if a.base != nil {
				a.base(t, files)
			}
			results := a.results
			if results == "" {
				results = "examples/tutor-capstone/results/regressed.jsonl"
			}
			spec := actionSpec{eventName: "pull_request", event: "pull_request.synchronize", env: a.env,
				inputs: map[string]string{"results": results}}
			for k, v := range a.inputs {
				spec.inputs[k] = v
			}
			var afterSetup int
			spec.setup = func(t *testing.T, ws string) {
				defer func() { afterSetup = prJudge.Calls() }()
				e2eMkdir(t, filepath.Join(ws, ".git")) // a checkout: the repository's root
				for p, content := range files {
					if !strings.HasPrefix(p, ".github/") {
						e2eWrite(t, filepath.Join(ws, filepath.FromSlash(p)), content)
					}
				}
				a.pr(t, ws)
				// The pull request's own gate passes its results.
				own := a.own
				if own.config == "" {
					own.config = "evalgate.yaml"
				}
				if own.results == "" {
					own.results = "examples/tutor-capstone/results/regressed.jsonl"
				}
				before := prJudge.Calls()
				if code, out := evalgateCheck(t, a.env, filepath.Join(ws, own.config), filepath.Join(ws, own.results)); code != 0 {
					t.Errorf("evalgate check under the pull request's own gate: exit %d; want 0 (the attack must pass its own gate)\n%s", code, out)
				}
				if a.notScored && prJudge.Calls() == before {
					t.Errorf("the pull request's own gate did not call its own judge")
				}
			}

			for _, accepted := range []bool{false, true} {
				repo := fakeRepo{baseFiles: files, changed: []string{"evalgate.yaml"}}
				spec := spec
				if accepted {
					// The run the maintainer's applying the label started.
					repo.labels, repo.labeledBy, repo.writers = []string{"evalgate/accept"}, "maintainer", []string{"maintainer"}
					spec.event, spec.edit = "pull_request.labeled", appliedBy("evalgate/accept", "maintainer")
				}
				f := newFakeGitHub(t, repo)
				run := runAction(t, "", f, spec)
				prCalls := afterSetup
				comment := onlyComment(t, f)
				rep := readReport(t, run)
				if a.notScored && prJudge.Calls() != prCalls {
					t.Errorf("the action called the pull request's own judge server %d time(s): its key went where the pull request said", prJudge.Calls()-prCalls)
				}
				proposed, _ := rep["proposed_gate"].(map[string]any)
				if proposed == nil {
					t.Fatalf("accepted=%v: the report has no proposed gate; comment:\n%s", accepted, comment)
				}
				if !strings.HasPrefix(strings.TrimPrefix(comment, tutorMarker+"\n"), "> [!") || !strings.Contains(comment, "Proposed gate") {
					t.Errorf("accepted=%v: the comment does not lead with the proposed gate:\n%s", accepted, comment)
				}
				switch {
				case a.notScored:
					if proposed["scored"] != false || proposed["not_scored"] == "" {
						t.Errorf("proposed gate scored: %v", proposed)
					}
				case proposed["scored"] != true || proposed["blocks"] == true || proposed["verdict"] == "fail":
					t.Errorf("accepted=%v: the proposed gate does not pass the run: %v", accepted, proposed)
				}
				if !accepted || a.notScored {
					wantExit(t, run, 1)
					wantCheckRun(t, f, 1, "failure", "blocked tutor-capstone")
					if verdict := rep["verdict"].(map[string]any); verdict["status"] != "fail" {
						t.Errorf("verdict %v; want the base gate's fail", verdict)
					}
					continue
				}
				wantExit(t, run, 0)
				wantCheckRun(t, f, 1, "neutral", "proposed gate (")
				if !strings.Contains(comment, "Proposed gate accepted") || !strings.Contains(comment, "@maintainer") {
					t.Errorf("the accepted comment does not say who accepted the proposed gate:\n%s", comment)
				}
			}
		})
	}
}

// judgeBase makes the base commit's gate a single llm_judge dimension whose judge is at
// url, with no baseline: every item must score at least 0.8.
func judgeBase(url string) func(t *testing.T, files map[string]string) {
	return func(t *testing.T, files map[string]string) {
		files["evalgate.yaml"] = fmt.Sprintf(`name: tutor-capstone
suite: examples/tutor-capstone/suite.yaml
scoring:
  version: scoringSystem/1.0.0
  dimensions:
    - {name: accuracy, weight: 1, scorer: llm_judge, judge: j, key: accuracy_score, scale: "0-2"}
judges:
  j: {model: gpt-4o-2024-08-06, template: seed001, base_url: %s, api_key_env: JUDGE_KEY}
grading:
  version: gradingSystem/1.0.0
  gates:
    - {name: accuracy, metric: mean_score, min: 0.8, level: hard}
`, url)
	}
}

// lenientConfig is a gate every run passes: the tutor suite, one dimension at a tenth of
// the weight that matters, a bar of 0.1.
func lenientConfig(suite, baseline string) string {
	return fmt.Sprintf(`name: tutor-capstone
suite: %s
baseline: %s
scoring:
  version: scoringSystem/1.0.0
  dimensions:
    - {name: conciseness, weight: 1, scorer: word_budget, output_field: explanation, max_words: 300}
grading:
  version: gradingSystem/1.0.0
  gates:
    - {name: capstone, metric: mean_score, min: 0.1, level: hard}
  regression: {max_drop: 1, mode: absolute}
`, suite, baseline)
}

// evalgateCheck runs `evalgate check` in-process with env and returns its exit code and
// output.
func evalgateCheck(t *testing.T, env map[string]string, config, results string) (int, string) {
	t.Helper()
	var out strings.Builder
	c := &cli.CLI{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out,
		Getenv: func(k string) string { return env[k] }, Now: func() time.Time { return goldenNow }}
	code := c.Main([]string{"evalgate", "check", "--config", config, "--results", results})
	return code, out.String()
}

// readReport reads the run's JSON report as a map.
func readReport(t *testing.T, run actionRun) map[string]any {
	t.Helper()
	var r map[string]any
	if err := json.Unmarshal([]byte(e2eRead(t, filepath.Join(run.workspace, run.outputs["report-path"]))), &r); err != nil {
		t.Fatalf("report: %v", err)
	}
	return r
}

// editFile replaces each old string with its new one (pairs), failing on one not found.
func editFile(t *testing.T, path string, pairs ...string) {
	t.Helper()
	s := e2eRead(t, path)
	for i := 0; i+1 < len(pairs); i += 2 {
		if !strings.Contains(s, pairs[i]) {
			t.Fatalf("%s lacks %q", path, pairs[i])
		}
		s = strings.ReplaceAll(s, pairs[i], pairs[i+1])
	}
	e2eWrite(t, path, s)
}

// removeSuiteItems drops the items with ids from a suite YAML file written one
// "  - id:" block per item.
func removeSuiteItems(t *testing.T, path string, ids ...string) {
	t.Helper()
	removeBlocks(t, path, "  - id: ", ids)
}

// removeRubricTests drops the rubric tests (a "- name:" block each) of the items ids.
func removeRubricTests(t *testing.T, path string, ids ...string) {
	t.Helper()
	lines := strings.SplitAfter(e2eRead(t, path), "\n")
	var out, block []string
	flush := func() {
		keep := true
		for _, l := range block {
			for _, id := range ids {
				if strings.TrimSpace(l) == "item: "+id {
					keep = false
				}
			}
		}
		if keep {
			out = append(out, block...)
		}
		block = nil
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "- ") {
			flush()
		}
		block = append(block, l)
	}
	flush()
	e2eWrite(t, path, strings.Join(out, ""))
}

func removeBlocks(t *testing.T, path, start string, ids []string) {
	t.Helper()
	lines := strings.SplitAfter(e2eRead(t, path), "\n")
	var out []string
	skip := false
	for _, l := range lines {
		if strings.HasPrefix(l, start) {
			skip = false
			for _, id := range ids {
				skip = skip || strings.TrimSpace(strings.TrimPrefix(l, start)) == id
			}
		}
		if !skip {
			out = append(out, l)
		}
	}
	e2eWrite(t, path, strings.Join(out, ""))
}

// removeResults drops the records of ids from a JSONL results file.
func removeResults(t *testing.T, path string, ids ...string) {
	t.Helper()
	var out []string
	for _, l := range strings.SplitAfter(e2eRead(t, path), "\n") {
		keep := true
		for _, id := range ids {
			keep = keep && !strings.Contains(l, `"id": "`+id+`"`)
		}
		if keep {
			out = append(out, l)
		}
	}
	e2eWrite(t, path, strings.Join(out, ""))
}

// TestProposedGateAddsItems: an item the pull request adds has a result the base
// commit's suite lacks. The base gate skips it (no "no such item" error, no effect on its
// score), and the proposed gate scores it and lists it as new.
func TestProposedGateAddsItems(t *testing.T) {
	t.Parallel()
	f := newFakeGitHub(t, fakeRepo{baseFiles: baseFiles(t), changed: []string{tutorSuite}})
	spec := prSpec("pull_request.synchronize", "pr.jsonl", nil)
	spec.setup = func(t *testing.T, ws string) {
		suite := filepath.Join(ws, tutorSuite)
		e2eWrite(t, suite, e2eRead(t, suite)+"  - id: e-39-99\n    prompt: \"Conjugate 'swim' — past simple, 3rd singular.\"\n    expected_contains:\n      english: [swam]\n      spanish: [nadó]\n    tags: [past-simple, motion]\n")
		res := filepath.Join(ws, "examples/tutor-capstone/results/pr.jsonl")
		e2eWrite(t, res, e2eRead(t, res)+`{"id": "e-39-99", "output": "{\"english\": \"Swam.\", \"spanish\": \"Nadó.\", \"explanation\": \"Irregular past.\"}", "latency_e2e_ms": 200}`+"\n")
	}
	run := runAction(t, "", f, spec)
	wantExit(t, run, 0)
	// The base gate's score is the one without the new item: pr.jsonl's 0.9725.
	wantOutputs(t, run, map[string]string{"score": "0.9725", "verdict": "warn"})
	comment := onlyComment(t, f)
	if !strings.Contains(comment, "adds (scored, shown as new, not gated until accepted): <code>e-39-99</code>") {
		t.Errorf("the new item is not shown as new:\n%s", comment)
	}
	proposed := readReport(t, run)["proposed_gate"].(map[string]any)
	if proposed["added_total"] != 1.0 || proposed["scored"] != true {
		t.Errorf("proposed gate %v; want one added item, scored", proposed)
	}
}

// TestFirstAdoption: only a base commit without a config at the path its own workflow
// names makes a first adoption; require-base-config refuses it; a base commit with a
// config at the path the running workflow names, but not at its own, is an error naming
// both.
func TestFirstAdoption(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		base   map[string]string
		inputs map[string]string
		exit   int
		want   string
	}{
		{name: "adopted here", base: map[string]string{}, exit: 0, want: "This pull request adds evalgate"},
		{name: "require-base-config refuses it", base: map[string]string{}, inputs: map[string]string{"require-base-config": "true"}, exit: 2,
			want: "require-base-config: the base commit 9049f12 has no evalgate config at evalgate.yaml"},
		{name: "the base workflow's path is missing, the running one's is not", exit: 2,
			base: map[string]string{e2eWorkflow: strings.Replace(e2eWorkflowYAML, "results: results/*.jsonl", "config: evals/gone.yaml", 1), "evalgate.yaml": "x"},
			want: "has no evalgate config at evals/gone.yaml, the path its own workflow names, but has one at evalgate.yaml"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := newFakeGitHub(t, fakeRepo{baseFiles: c.base})
			run := runAction(t, "", f, prSpec("pull_request.opened", "pr.jsonl", c.inputs))
			wantExit(t, run, c.exit)
			if !strings.Contains(run.summary+run.stdout, c.want) {
				t.Errorf("summary and log lack %q:\n%s\n%s", c.want, run.summary, run.stdout)
			}
		})
	}
}
