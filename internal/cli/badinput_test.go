package cli_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/cli"
	"github.com/evalgate/evalgate/internal/eval"
)

// badCase is one entry of the bad-input catalog. The case runs in a temp directory
// holding testdata/bad/_base (a valid config, suite, results and schema) overlaid with
// testdata/bad/<name>/ when that exists, then with files (for bytes a text editor or git
// would mangle: BOM, CRLF, invalid UTF-8, a 16 MiB line).
type badCase struct {
	name  string
	files map[string]string // generated files, written after the overlay
	args  []string          // after "evalgate check --config evalgate.yaml --out out/report.json"
	// cmd replaces "check" (validate takes no --out).
	cmd string
	// config replaces the --config path (relative to the temp dir).
	config string
	// setup prepares what files cannot hold (a FIFO, a symlink to a device), last.
	setup func(t *testing.T, dir string)
	// want must match stderr: the file, the line (file:line) and the item where the
	// problem has them, and what is wrong.
	want string
}

// The lines of _base/results.jsonl, so generated cases can break one of them.
const (
	baseLine1 = `{"id": "c-01", "output": "{\"english\": \"Ate.\", \"spanish\": \"Comió.\", \"explanation\": \"Irregular past.\"}", "latency_e2e_ms": 210, "input_tokens": 120, "output_tokens": 30}`
	baseLine2 = `{"id": "c-02", "output": "{\"english\": \"Went.\", \"spanish\": \"Fue.\", \"explanation\": \"Irregular past.\"}", "latency_e2e_ms": 190, "input_tokens": 118, "output_tokens": 31}`
	baseLine3 = `{"id": "c-03", "output": "{\"english\": \"Saw.\", \"spanish\": \"Vio.\", \"explanation\": \"Irregular past.\"}", "latency_e2e_ms": 205, "input_tokens": 119, "output_tokens": 29}`
)

func results(lines ...string) string { return strings.Join(lines, "\n") + "\n" }

func readBase(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "bad", "_base", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func badCases(t *testing.T) []badCase {
	suite := readBase(t, "suite.yaml")
	config := readBase(t, "evalgate.yaml")
	huge := `{"id": "c-02", "output": "` + strings.Repeat("went ", eval.MaxLineBytes/5+1) + `"}`
	cases := []badCase{
		// Results files (JSONL).
		{name: "malformed_jsonl_line", want: `results\.jsonl:2(:\d+)?: item "c-02": malformed JSON: unexpected EOF`},
		// The id is named only when it reads whole as the record's first key.
		{name: "malformed_line_cut_in_its_id", files: map[string]string{"results.jsonl": results(baseLine1, `{"id": "c-0`, baseLine3)},
			want: `results\.jsonl:2(:\d+)?: malformed JSON: unexpected EOF`},
		{name: "malformed_line_id_not_first", files: map[string]string{"results.jsonl": results(baseLine1, `{"output": "x", "id": "c-02"`, baseLine3)},
			want: `results\.jsonl:2(:\d+)?: malformed JSON: unexpected EOF`},
		{name: "bom_in_results", files: map[string]string{"results.jsonl": "\uFEFF" + results(baseLine1, baseLine2, baseLine3)},
			want: `results\.jsonl:1: file starts with a UTF-8 byte order mark`},
		{name: "crlf_in_results", files: map[string]string{"results.jsonl": strings.ReplaceAll(results(baseLine1, baseLine2, baseLine3), "\n", "\r\n")},
			want: `results\.jsonl:1: carriage return \(CRLF line ending\)`},
		{name: "invalid_utf8_in_results", files: map[string]string{"results.jsonl": results(baseLine1, baseLine2, strings.Replace(baseLine3, "Saw.", "Saw\xff.", 1))},
			want: `results\.jsonl:3: invalid UTF-8`},
		{name: "nul_byte_in_results", files: map[string]string{"results.jsonl": results(baseLine1, strings.Replace(baseLine2, "Went.", "Went\x00.", 1), baseLine3)},
			want: `results\.jsonl:2: NUL byte`},
		{name: "nan_in_json", want: `results\.jsonl:2:\d+: item "c-02": malformed JSON: invalid character 'N'`},
		{name: "infinity_in_json", want: `results\.jsonl:2:\d+: item "c-02": malformed JSON: invalid character 'I'`},
		{name: "number_overflow_in_json", want: `results\.jsonl:2:\d+: item "c-02": number 1e999 is out of range; want a finite number`},
		{name: "empty_results_file", want: `results\.jsonl: results file is empty`},
		{name: "blank_results_file", want: `results\.jsonl: results file is empty`},
		{name: "duplicate_result_ids", want: `results\.jsonl:3: item "c-01": duplicate result for the item; first on line 1`},
		{name: "result_for_unknown_id", want: `results\.jsonl:2: item "c-99": no such item in suite .*suite\.yaml`},
		{name: "duplicate_key_in_record", want: `results\.jsonl:2: item "c-02": key "output" appears twice`},
		{name: "latency_not_a_number", want: `results\.jsonl:2: item "c-02": field "latency_e2e_ms" is the string "fast"; want a number`},
		{name: "latency_negative", want: `results\.jsonl:2: item "c-02": field "latency_e2e_ms" is -5; want a number ≥ 0`},
		{name: "tokens_not_whole", want: `results\.jsonl:2: item "c-02": field "output_tokens" is 1\.5; want a whole number`},
		{name: "timed_out_not_bool", want: `results\.jsonl:2: item "c-02": field "timed_out" is the string "yes"; want true or false`},
		{name: "error_not_string", want: `results\.jsonl:2: item "c-02": field "error" is a number; want a string`},
		{name: "scores_not_object", want: `results\.jsonl:2: item "c-02": field "scores" is a list; want an object`},
		// The first record lacks its id: the same error as on any other line, not a
		// "cannot tell which tool wrote this results file" from format detection.
		{name: "first_record_without_id", files: map[string]string{"results.jsonl": results(strings.Replace(baseLine1, `"id": "c-01", `, "", 1), baseLine2, baseLine3)},
			want: `results\.jsonl:1: record has no "id"`},
		{name: "only_record_without_id", files: map[string]string{"results.jsonl": results(strings.Replace(baseLine1, `"id": "c-01", `, "", 1))},
			want: `results\.jsonl:1: record has no "id"`},
		{name: "only_record_of_no_known_tool", files: map[string]string{"results.jsonl": results(`{"question": "q", "answer": "a"}`)},
			want: `results\.jsonl: cannot tell which tool wrote this results file \(the first record's keys match no known format\); pass --results-format`},
		{name: "long_first_record_without_id", files: map[string]string{"results.jsonl": results(`{"output": "`+strings.Repeat("went ", 300<<10)+`"}`, baseLine2)},
			want: `results\.jsonl:1: record has no "id"`},
		{name: "id_is_number", want: `results\.jsonl:2: field "id" is a number; want a non-empty string`},
		{name: "missing_output", want: `results\.jsonl:2: item "c-02": record has no "output"`},
		{name: "null_output", want: `results\.jsonl:2: item "c-02": field "output" is null`},
		{name: "record_not_object", want: `results\.jsonl:2: want a JSON object on each line`},
		{name: "two_records_on_a_line", want: `results\.jsonl:2: .*more than one JSON value on the line`},
		{name: "huge_output_line", files: map[string]string{"results.jsonl": results(baseLine1, huge, baseLine3)},
			want: `results\.jsonl:2: line is longer than 64 MiB, the limit for one record`},
		{name: "results_file_missing", want: `runs/pr\.jsonl: cannot read results file: no such file or directory`},
		{name: "results_flag_is_directory", args: []string{"--results", "."}, want: `\.: is a directory; want a regular results file`},

		// Suites.
		{name: "empty_suite", want: `suite\.yaml:2: suite has no items`},
		{name: "duplicate_suite_ids", want: `suite\.yaml:7: item "c-01": duplicate id; first defined on line 3`},
		{name: "nan_in_yaml_suite", want: `suite\.yaml:5: item "c-02": field "difficulty": NaN and infinities are not allowed`},
		{name: "expected_field_absent", want: `suite\.yaml:5: item "c-02": dimension "correctness" needs the item field "expected_contains\.english"`},
		{name: "expected_not_strings", want: `suite\.yaml:5: item "c-02": field "expected_contains\.english" is a number; want a string or a list of strings`},
		{name: "bom_in_suite", files: map[string]string{"suite.yaml": "\uFEFF" + suite},
			want: `suite\.yaml:1: file starts with a UTF-8 byte order mark`},
		{name: "crlf_in_suite", files: map[string]string{"suite.yaml": strings.ReplaceAll(suite, "\n", "\r\n")},
			want: `suite\.yaml:1: carriage return`},
		{name: "invalid_utf8_in_suite", files: map[string]string{"suite.yaml": strings.Replace(suite, "comió", "comi\xc3", 1)},
			want: `suite\.yaml:5: invalid UTF-8`},
		{name: "yaml_syntax_error_suite", want: `suite\.yaml:\d+:\d+: .*`},
		{name: "suite_item_not_mapping", want: `suite\.yaml:5: an item must be a mapping`},
		{name: "suite_item_without_id", want: `suite\.yaml:5: item has no "id"`},
		{name: "suite_unknown_top_level_key", want: `suite\.yaml:2: unknown top-level key "itmes"; want name, description, version or items`},
		{name: "suite_tags_not_list", want: `suite\.yaml:5: item "c-02": field "tags" is the string "irregular"; want a list of strings`},
		{name: "suite_duplicate_yaml_key", want: `suite\.yaml:7:5: mapping key "expected_contains" already defined at \[6:5\]`},
		{name: "malformed_jsonl_suite", want: `suite\.jsonl:3:\d+: item "c-03": malformed JSON`},
		{name: "suite_unknown_format", want: `suite\.csv: unknown suite format "\.csv"; want \.yaml, \.yml or \.jsonl`},

		// The config file: the scoring system.
		{name: "config_missing", config: "nope.yaml", want: `nope\.yaml: no config file`},
		{name: "bom_in_config", files: map[string]string{"evalgate.yaml": "\uFEFF" + config},
			want: `evalgate\.yaml:1: file starts with a UTF-8 byte order mark`},
		{name: "invalid_utf8_in_config", files: map[string]string{"evalgate.yaml": strings.Replace(config, "name: bad-base", "name: bad-\xffbase", 1)},
			want: `evalgate\.yaml:2(:\d+)?: invalid UTF-8`},
		{name: "empty_config", files: map[string]string{"evalgate.yaml": "# nothing here\n"},
			want: `evalgate\.yaml(:1)?: .*(empty|want one YAML document)`},
		{name: "yaml_syntax_error_config", want: `evalgate\.yaml:\d+:\d+: .*`},
		{name: "yaml_tag_before_value_config", want: `evalgate\.yaml:3: cannot decode this YAML`}, // the tag's line
		{name: "yaml_tag_before_value_suite", want: `suite\.yaml:5: item "c-02": field "tags" is the string "irregular"; want a list of strings`},
		{name: "config_duplicate_key", want: `evalgate\.yaml:14:1: mapping key "grading" already defined at \[10:1\]`},
		{name: "unknown_config_field", want: `evalgate\.yaml:7:27: unknown field "wieght"; did you mean "weight"\?`},
		{name: "unknown_top_level_config_key", want: `evalgate\.yaml:10:1: unknown field "gradign"; did you mean "grading"\?`},
		// YAML type errors in plain words: the file, the line, the key, what it wants and
		// what it got (never goccy/go-yaml's "cannot unmarshal string into Go struct field
		// Config.Scoring of type float64", which names Go types and an outer field).
		{name: "weight_not_a_number", want: `evalgate\.yaml:7: weight: want a number, got "high"\n`},
		{name: "max_drop_not_a_number", want: `evalgate\.yaml:7: max_drop: want a number, got "abc"\n`},
		{name: "results_not_a_list", files: map[string]string{"evalgate.yaml": strings.Replace(config, "results: [results.jsonl]", "results: {run: results.jsonl}", 1)},
			want: `evalgate\.yaml:4: results: want a list, got a mapping\n`},
		{name: "name_not_a_string", files: map[string]string{"evalgate.yaml": strings.Replace(config, "name: bad-base", "name: [bad, base]", 1)},
			want: `evalgate\.yaml:2: name: want a string, got a list\n`},
		{name: "weights_sum_to_0_9", want: `evalgate\.yaml:7:5: weights sum to 0\.9; they must sum to 1\.0 \(±0\.001\)`},
		{name: "negative_weight", want: `evalgate\.yaml:7:35: weight -0\.6 of "correctness"; want a number in \[0, 1\]`},
		{name: "duplicate_dimension_name", want: `evalgate\.yaml:9:14: duplicate dimension name "schema"`},
		{name: "dimension_named_like_item_key", want: `evalgate\.yaml:8:14: dimension name "pass" is also a key of each item in the JSON report, so the report could not tell them apart; rename the dimension \(reserved names: item, prompt, .*, pass, `},
		{name: "unknown_scorer", want: `evalgate\.yaml:7:48: unknown scorer "containz" for "correctness"; did you mean "contains"\? want one of .*contains.*word_budget`},
		{name: "unknown_scale", want: `evalgate\.yaml:9:68: unknown scale "0-3" for "conciseness"; did you mean "0-2"\? want one of .*0-2.*1-10`},
		{name: "unknown_normalize", want: `evalgate\.yaml:9:72: normalize "zscore" for "conciseness"; want minmax or max`},
		{name: "missing_schema_file", want: `evalgate\.yaml:8:7: dimension "schema" \(scorer json_schema\): schema file .*schemas/answer\.json: no such file or directory`},
		{name: "invalid_schema_json", want: `evalgate\.yaml:9:7: dimension "schema" \(scorer json_schema\): schema file .*schema\.json is not valid JSON`},
		{name: "bad_regex", want: `evalgate\.yaml:9:7: dimension "conciseness" \(scorer regex\): pattern: error parsing regexp: missing closing \)`},
		{name: "missing_max_words", want: `evalgate\.yaml:9:7: dimension "conciseness" \(scorer word_budget\): needs .max_words:. > 0`},
		{name: "bad_scoring_version", want: `evalgate\.yaml:5:12: scoring version is "1\.0"; want scoringSystem/X\.Y\.Z`},
		{name: "metadata_key_not_snake_case", want: `evalgate\.yaml:5:11: metadata key "Model-ID"; want lowercase snake_case`},

		// The config file: the grading system.
		{name: "bad_grading_version", want: `evalgate\.yaml:11:12: grading version is "grading-v1"; want gradingSystem/X\.Y\.Z`},
		{name: "gate_unknown_metric", want: `evalgate\.yaml:13:29: unknown metric "mean_scroe"; did you mean "mean_score"\? want one of \[.*mean_score.*\]`},
		{name: "gate_min_and_max", want: `evalgate\.yaml:13:7: gate "floor" needs exactly one of min, max or max_increase`},
		{name: "gate_unknown_level", want: `evalgate\.yaml:13:58: level "blocking"; want hard or soft`},
		{name: "regression_bad_mode", want: `evalgate\.yaml:12:38: mode "percent"; want absolute or relative`},

		// Values a dimension reads from the results.
		{name: "recorded_value_off_scale", want: `results\.jsonl:2: item "c-02": recorded value "accuracy_score": value 3 is outside the 0-2 scale \[0, 2\]`},
		{name: "recorded_value_absent", want: `results\.jsonl:2: item "c-02": dimension "accuracy" needs the recorded value "accuracy_score".*declare .default:.`},
		{name: "latency_absent", want: `results\.jsonl:2: item "c-02": dimension "latency" needs "latency_e2e_ms" on every result.*declare .default:.`},

		// Baselines.
		{name: "baseline_not_a_baseline", want: `baseline\.json:5: not a baseline file: json: unknown field "scores"`},
		{name: "baseline_wrong_schema_version", want: `baseline\.json:1: baseline schema_version 7 was written by a newer evalgate \(this one reads versions up to 2\): upgrade evalgate`},
		// A later format's header, with a field this evalgate has never heard of and
		// one it reads differently: refused for its version, not for either field.
		{name: "baseline_newer_schema_version", files: map[string]string{
			"evalgate.yaml": config + "baseline: baseline.jsonl\n",
			"baseline.jsonl": `{"schema_version":3,"suite":"bad-base","scoringSystem":"scoringSystem/1.0.0","source":{},"items":{"count":1},"item_encoding":"columns"}` + "\n" +
				`{"ids":["c-01"],"scores":[1]}` + "\n"},
			want: `baseline\.jsonl:1: baseline schema_version 3 was written by a newer evalgate \(this one reads versions up to 2\): upgrade evalgate to read it`},
		{name: "baseline_older_unknown_schema_version", files: map[string]string{
			"evalgate.yaml": config + "baseline: baseline.json\n",
			"baseline.json": `{"schema_version": 0, "suite": "bad-base", "mean": 0.97}`},
			want: `baseline\.json: baseline schema_version 0; this evalgate reads 1 and 2`},

		// Usage.
		{name: "unknown_format", args: []string{"--format", "xml"}, want: `unknown --format "xml"; did you mean "html"\? want table, markdown, json, junit, html`},
		{name: "unknown_flag", args: []string{"--bogus"}, want: `flag provided but not defined: -bogus`},
		{name: "argument_is_a_results_file", args: []string{"results.jsonl"}, want: `results\.jsonl: cannot read results file`},
		{name: "validate_bad_results", cmd: "validate", want: `results\.jsonl:2: item "c-99": no such item in suite`,
			files: map[string]string{"results.jsonl": results(baseLine1, strings.Replace(baseLine2, "c-02", "c-99", 1))}},
	}
	return append(cases, hardeningCases(t)...)
}

// TestBadInput runs every catalog case through the real command in-process: exit code 2,
// a message that points at the place, no panic, and no report left behind.
func TestBadInput(t *testing.T) {
	cases := badCases(t)
	if len(cases) < 30 {
		t.Fatalf("catalog has %d cases; want at least 30", len(cases))
	}
	seen := map[string]bool{}
	for _, tc := range cases {
		if seen[tc.name] {
			t.Fatalf("duplicate case %q", tc.name)
		}
		seen[tc.name] = true
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			copyTree(t, filepath.Join("testdata", "bad", "_base"), dir)
			caseDir := filepath.Join("testdata", "bad", tc.name)
			if _, err := os.Stat(caseDir); err == nil {
				copyTree(t, caseDir, dir)
			} else if tc.files == nil && tc.args == nil && tc.config == "" && tc.setup == nil {
				t.Fatalf("case %q has neither testdata/bad/%s/ nor generated files or args", tc.name, tc.name)
			}
			for name, content := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if tc.setup != nil {
				tc.setup(t, dir)
			}
			cfg := filepath.Join(dir, "evalgate.yaml")
			if tc.config != "" {
				cfg = filepath.Join(dir, tc.config)
			}
			outDir := filepath.Join(dir, "out")
			cmd := tc.cmd
			args := []string{"evalgate", "check", "--config", cfg, "--out", filepath.Join(outDir, "report.json")}
			if cmd != "" {
				args = []string{"evalgate", cmd, "--config", cfg}
			}
			args = append(args, tc.args...)
			code, stdout, stderr := runMain(t, dir, args)
			if code != cli.ExitBadInput {
				t.Errorf("exit code %d; want %d\nstderr:\n%s", code, cli.ExitBadInput, stderr)
			}
			if !regexp.MustCompile(tc.want).MatchString(stderr) {
				t.Errorf("stderr does not match %q:\n%s", tc.want, stderr)
			}
			if strings.Contains(stderr, "goroutine ") || strings.Contains(stderr, "panic") {
				t.Errorf("stderr looks like a panic:\n%s", stderr)
			}
			if stdout != "" {
				t.Errorf("stdout on bad input: %q", stdout)
			}
			if entries, err := os.ReadDir(outDir); err == nil && len(entries) > 0 {
				var names []string
				for _, e := range entries {
					names = append(names, e.Name())
				}
				t.Errorf("bad input left files in the --out directory: %v", names)
			}
		})
	}
}

// TestBadInputCasesUsed fails when a directory under testdata/bad has no catalog entry,
// so a case cannot be added on disk and silently never run.
func TestBadInputCasesUsed(t *testing.T) {
	names := map[string]bool{}
	for _, tc := range badCases(t) {
		names[tc.name] = true
	}
	entries, err := os.ReadDir(filepath.Join("testdata", "bad"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() && e.Name() != "_base" && !names[e.Name()] {
			t.Errorf("testdata/bad/%s has no case in badCases", e.Name())
		}
	}
}

// TestBadInputBase makes sure the catalog starts from a config that passes: each case's
// failure is then its own.
func TestBadInputBase(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, filepath.Join("testdata", "bad", "_base"), dir)
	out := filepath.Join(dir, "out", "report.json")
	code, _, stderr := runMain(t, dir, []string{"evalgate", "check", "--config", filepath.Join(dir, "evalgate.yaml"), "--out", out})
	if code != cli.ExitPass {
		t.Fatalf("base config: exit code %d; want 0\n%s", code, stderr)
	}
	if _, err := os.Stat(out); err != nil {
		t.Errorf("base config: --out not written: %v", err)
	}
}

// runMain runs the command in-process and turns a panic into a test failure.
func runMain(t *testing.T, dir string, args []string) (code int, stdout, stderr string) {
	t.Helper()
	return runMainEnv(t, dir, args, nil)
}

// runMainEnv is runMain with environment variables.
func runMainEnv(t *testing.T, dir string, args []string, env map[string]string) (code int, stdout, stderr string) {
	t.Helper()
	var so, se bytes.Buffer
	c := &cli.CLI{
		Stdin: strings.NewReader(""), Stdout: &so, Stderr: &se,
		Getenv: func(k string) string { return env[k] },
		Now:    func() time.Time { return time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC) },
		GitSHA: func() string { return "0000000000000000000000000000000000000000" },
	}
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("panic: %v\n%s", r, debug.Stack())
			}
		}()
		code = c.Main(args)
	}()
	return code, so.String(), se.String()
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		target := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
