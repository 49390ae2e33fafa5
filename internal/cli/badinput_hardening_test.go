package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/cli"
)

// laughs is a "billion laughs" anchor chain as YAML lines indented by indent: level i
// is a flow list of ten aliases of level i-1, so level 10 would expand to 10^10 scalars.
func laughs(indent string, levels int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%sa0: &a0 [lol]\n", indent)
	for i := 1; i <= levels; i++ {
		fmt.Fprintf(&b, "%sa%d: &a%d [%s]\n", indent, i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*a%d, ", i-1), 10), ", "))
	}
	return b.String()
}

func nested(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }

// hardeningCases are hostile inputs: alias bombs, deep nesting, special files.
func hardeningCases(t *testing.T) []badCase {
	suite := readBase(t, "suite.yaml")
	config := readBase(t, "evalgate.yaml")
	// An item field holding the anchor chain: the base suite has 11 lines, so "a0" is on
	// line 16 and the first alias of a4 (21111 nodes: 1 + 10×2111, where a0 is a list
	// and a scalar) is on line 21, inside a5.
	bombSuite := suite + "  - id: c-04\n    prompt: boom\n    expected_contains: {english: [x], spanish: [y]}\n    bomb:\n" + laughs("      ", 10)
	bombConfig := config + "metadata:\n  bomb: x\nx:\n" + laughs("  ", 10)
	deepLine := `{"id": "c-02", "output": "x", "extra": ` + nested(1000) + `}`
	fifo := func(name string) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			p := filepath.Join(dir, name)
			os.Remove(p)
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	symlink := func(name, target string) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			p := filepath.Join(dir, name)
			os.Remove(p)
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
		}
	}
	return []badCase{
		// YAML alias expansion (a hang before the limit).
		{name: "yaml_alias_bomb_suite", files: map[string]string{"suite.yaml": bombSuite},
			want: `suite\.yaml:21:\d+: alias \*a4 expands to 21111 nodes; the limit is 10000 per alias`},
		{name: "yaml_alias_bomb_config", files: map[string]string{"evalgate.yaml": bombConfig},
			want: `evalgate\.yaml:\d+:\d+: alias \*a4 expands to 21111 nodes; the limit is 10000 per alias`},
		// Nesting depth (quadratic memory before the limit). "expected_contains:" and
		// the item list are two levels; 1000 brackets make 1002.
		{name: "yaml_deep_flow_suite", files: map[string]string{"suite.yaml": suite + "  - id: c-04\n    expected_contains: " + nested(1000) + "\n"},
			want: `suite\.yaml:13:\d+: YAML nested more than 1000 levels deep; the limit is 1000`},
		{name: "yaml_deep_config", files: map[string]string{"evalgate.yaml": config + "x: " + nested(200_000) + "\n"},
			want: `evalgate\.yaml:15:\d+: YAML nested more than 1000 levels deep`},
		{name: "json_deep_results_record", files: map[string]string{"results.jsonl": results(baseLine1, deepLine, baseLine3)},
			want: `results\.jsonl:2: JSON nested more than 1000 levels deep; the limit is 1000`},
		{name: "json_deep_baseline", files: map[string]string{"baseline.json": "{\"items\":\n" + nested(1001) + "}\n",
			"evalgate.yaml": config + "baseline: baseline.json\n"},
			want: `baseline\.json:2: JSON nested more than 1000 levels deep`},
		// Special files where a regular file is needed: refused at once, never read.
		{name: "results_is_fifo", setup: fifo("results.jsonl"),
			want: `results\.jsonl: is a named pipe \(FIFO\); want a regular results file`},
		{name: "results_is_dev_zero", args: []string{"--results", "/dev/zero"},
			want: `/dev/zero: is a character device; want a regular results file`},
		{name: "config_is_dev_urandom", setup: symlink("evalgate.yaml", "/dev/urandom"),
			want: `evalgate\.yaml: is a character device; want a regular config file`},
		{name: "suite_is_fifo", setup: fifo("suite.yaml"),
			want: `suite\.yaml: is a named pipe \(FIFO\); want a regular suite file`},
		// Numbers past their documented range (they overflowed the JSON report to +Inf).
		{name: "latency_huge", files: map[string]string{"results.jsonl": results(baseLine1, strings.Replace(baseLine2, `"latency_e2e_ms": 190`, `"latency_e2e_ms": 1.7e308`, 1), baseLine3)},
			want: `results\.jsonl:2: item "c-02": field "latency_e2e_ms" is 1\.7e\+308; want at most 1e\+12 ms`},
		{name: "tokens_huge", files: map[string]string{"results.jsonl": results(baseLine1, strings.Replace(baseLine2, `"input_tokens": 118`, `"input_tokens": 1e16`, 1), baseLine3)},
			want: `results\.jsonl:2: item "c-02": field "input_tokens" is 1e\+16; want at most 1e\+15 tokens`},
		// NaN and infinities in the config: reported with file and line whether or not a
		// baseline exists (a NaN max_drop never blocks; a NaN threshold failed closed
		// with exit 1 instead of exit 2).
		{name: "max_drop_nan", files: map[string]string{"evalgate.yaml": strings.Replace(config, "  gates:", "  regression: {max_drop: .nan}\n  gates:", 1)},
			want: `evalgate\.yaml:13:26: \.nan is not a finite number`},
		{name: "gate_threshold_nan", files: map[string]string{"evalgate.yaml": strings.Replace(config, "min: 0.5", "min: .NaN", 1)},
			want: `evalgate\.yaml:14:\d+: \.NaN is not a finite number`},
		{name: "weight_infinite", files: map[string]string{"evalgate.yaml": strings.Replace(config, "weight: 0.1,", "weight: -.inf,", 1)},
			want: `evalgate\.yaml:10:\d+: -\.inf is not a finite number`},
		// Paths a config names stay inside its repository (here: no .git, so the
		// config's directory), symlinks resolved; a schema's $ref too, never the network.
		{name: "suite_outside_repository", files: map[string]string{"evalgate.yaml": strings.Replace(config, "suite: suite.yaml", "suite: /etc/hostname", 1)},
			want: `evalgate\.yaml:3:\d+: suite /etc/hostname is outside the repository`},
		{name: "suite_symlink_outside_repository", setup: symlink("suite.yaml", "/etc/hostname"),
			want: `evalgate\.yaml:3:\d+: suite .*suite\.yaml resolves to /etc/hostname, outside the repository`},
		{name: "schema_ref_outside_repository", files: map[string]string{"schema.json": `{"properties": {"english": {"$ref": "file:///etc/passwd"}}}`},
			want: `evalgate\.yaml:9:\d+: dimension "schema" \(scorer json_schema\): schema file .*schema\.json: \$ref "file:///etc/passwd": schema file /etc/passwd is outside the repository`},
		{name: "schema_ref_network", files: map[string]string{"schema.json": `{"properties": {"english": {"$ref": "http://127.0.0.1:9/s.json"}}}`},
			want: `evalgate\.yaml:9:\d+: .*\$ref "http://127\.0\.0\.1:9/s\.json": only files beside the schema are read, never the network`},
		{name: "judge_template_outside_repository", files: map[string]string{"evalgate.yaml": config + "judges:\n  j: {model: m, template: /etc/passwd}\n"},
			want: `evalgate\.yaml:16:\d+: judge template /etc/passwd is outside the repository`},
		// Baselines: each item once.
		{name: "baseline_duplicate_item_id", files: map[string]string{"evalgate.yaml": config + "baseline: baselines/bad-base.jsonl\n"},
			setup: func(t *testing.T, dir string) { duplicateBaselineItem(t, dir) },
			want:  `bad-base\.jsonl:3: item "c-01": duplicate item id; first on line 2`},
		{name: "rubric_tests_outside_repository", files: map[string]string{"evalgate.yaml": config + "rubric_tests: /etc/hostname\n"},
			want: `evalgate\.yaml:15: rubric_tests: /etc/hostname is outside the repository`},
		{name: "results_stdin_twice", args: []string{"--results", "-", "--results", "-"},
			want: `--results - \(standard input\) may be given once`},
		// Standard input is evalgate's JSONL: a format flag naming another tool's is
		// refused, not ignored (the records were then refused one by one as lacking an id).
		{name: "results_stdin_other_format", args: []string{"--results", "-", "--results-format", "lm-eval"},
			want: `--results - \(standard input\) is read as evalgate's JSONL, not lm-eval: give the lm-eval file by name`},
	}
}

// TestResultsFromStdin: `--results -` reads the run from standard input.
func TestResultsFromStdin(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, filepath.Join("testdata", "bad", "_base"), dir)
	var so, se strings.Builder
	c := &cli.CLI{
		Stdin: strings.NewReader(results(baseLine1, baseLine2, baseLine3)), Stdout: &so, Stderr: &se,
		Getenv: func(string) string { return "" },
		Now:    func() time.Time { return time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC) },
		GitSHA: func() string { return "0000000000000000000000000000000000000000" },
	}
	// The config names no file called "-"; the run comes from stdin only.
	os.Remove(filepath.Join(dir, "results.jsonl"))
	code := c.Main([]string{"evalgate", "check", "--config", filepath.Join(dir, "evalgate.yaml"), "--results", "-", "--format", "json"})
	if code != cli.ExitPass {
		t.Fatalf("exit %d; stderr:\n%s", code, se.String())
	}
	if !strings.Contains(so.String(), `"c-03"`) {
		t.Errorf("report lacks the items read from stdin:\n%s", so.String())
	}
}

// TestOutTargets: --out writes a regular file atomically, writes through a device,
// refuses a directory (naming the path the user gave), and - is stdout.
func TestOutTargets(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, filepath.Join("testdata", "bad", "_base"), dir)
	cfg := filepath.Join(dir, "evalgate.yaml")
	check := func(out string) (int, string, string) {
		return runMain(t, dir, []string{"evalgate", "check", "--config", cfg, "--format", "json", "--out", out})
	}
	if code, stdout, stderr := check("-"); code != cli.ExitPass || !strings.HasPrefix(stdout, "{") {
		t.Errorf("--out -: exit %d, stdout %.40q, stderr %s", code, stdout, stderr)
	}
	if code, _, stderr := check("/dev/null"); code != cli.ExitPass {
		t.Errorf("--out /dev/null: exit %d: %s", code, stderr)
	}
	if st, err := os.Stat("/dev/null"); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("/dev/null is no longer a device: %v %v", st.Mode(), err)
	}
	if _, err := os.Stat("/dev/full"); err == nil {
		code, _, stderr := check("/dev/full")
		// A full disk is not the user's input: evalgate could not run (exit 3).
		if code != cli.ExitCouldNotRun || !strings.Contains(stderr, "cannot write /dev/full: no space left on device") {
			t.Errorf("--out /dev/full: exit %d: %s", code, stderr)
		}
	}
	sub := filepath.Join(dir, "reports")
	os.Mkdir(sub, 0o755)
	code, _, stderr := check(sub)
	if code != cli.ExitBadInput || !strings.Contains(stderr, "cannot write "+sub+": is a directory") {
		t.Errorf("--out DIR: exit %d: %s", code, stderr)
	}
	if entries, _ := os.ReadDir(sub); len(entries) != 0 {
		t.Errorf("--out DIR left %v", entries)
	}
}

// TestLargestNumbersStayFinite: the largest accepted latency and token counts on every
// record still give a JSON report (every aggregate finite).
func TestLargestNumbersStayFinite(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, filepath.Join("testdata", "bad", "_base"), dir)
	var lines []string
	for _, l := range []string{baseLine1, baseLine2, baseLine3} {
		for _, f := range []string{"latency_e2e_ms", "input_tokens", "output_tokens"} {
			i := strings.Index(l, `"`+f+`": `) + len(f) + 4
			j := i + strings.IndexAny(l[i:], ",}")
			v := "1e15"
			if f == "latency_e2e_ms" {
				v = "1e12"
			}
			l = l[:i] + v + l[j:]
		}
		lines = append(lines, l)
	}
	if err := os.WriteFile(filepath.Join(dir, "results.jsonl"), []byte(results(lines...)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runMain(t, dir, []string{"evalgate", "check", "--config", filepath.Join(dir, "evalgate.yaml"), "--format", "json"})
	if code == cli.ExitBadInput || !strings.Contains(stdout, `"latency_e2e_p95_ms"`) {
		t.Fatalf("exit %d: %s\n%.300s", code, stderr, stdout)
	}
	if strings.Contains(stdout, "Inf") || strings.Contains(stdout, "NaN") {
		t.Errorf("non-finite figure in the report")
	}
}

// makeBaseline runs `evalgate baseline` over the case's config and results.
func makeBaseline(t *testing.T, dir string) string {
	t.Helper()
	out := filepath.Join(dir, "baselines", "bad-base.jsonl") // its own directory: the index reads every baseline there
	code, _, stderr := runMain(t, dir, []string{"evalgate", "baseline", "--config", filepath.Join(dir, "evalgate.yaml"), "--out", out})
	if code != cli.ExitPass {
		t.Fatalf("evalgate baseline: exit %d: %s", code, stderr)
	}
	return out
}

// duplicateBaselineItem writes a baseline whose second item line repeats the first.
func duplicateBaselineItem(t *testing.T, dir string) {
	t.Helper()
	p := makeBaseline(t, dir)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	if len(lines) < 4 || !strings.Contains(lines[1], `"c-01"`) {
		t.Fatalf("unexpected baseline layout:\n%s", b)
	}
	lines[2] = lines[1]
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRemovedItemsListed: an item the suite no longer has is listed by id, not only
// counted.
func TestRemovedItemsListed(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, filepath.Join("testdata", "bad", "_base"), dir)
	cfg := filepath.Join(dir, "evalgate.yaml")
	os.WriteFile(cfg, []byte(readBase(t, "evalgate.yaml")+"baseline: baselines/bad-base.jsonl\n"), 0o644)
	makeBaseline(t, dir)
	suite := readBase(t, "suite.yaml")
	suite = suite[:strings.Index(suite, "  - id: c-03")]
	os.WriteFile(filepath.Join(dir, "suite.yaml"), []byte(suite), 0o644)
	os.WriteFile(filepath.Join(dir, "results.jsonl"), []byte(results(baseLine1, baseLine2)), 0o644)
	for _, format := range []string{"markdown", "table"} {
		code, stdout, stderr := runMain(t, dir, []string{"evalgate", "check", "--config", cfg, "--format", format})
		if code == cli.ExitBadInput {
			t.Fatalf("exit 2: %s", stderr)
		}
		if !regexp.MustCompile(`removed \(in the baseline, no longer in the suite\): c-03`).MatchString(stdout) {
			t.Errorf("%s: removed item not listed:\n%s", format, stdout)
		}
	}
}

// TestCompareNaNMaxDrop: --max-drop NaN is bad usage (exit 2), not a gate that can
// never block.
func TestCompareNaNMaxDrop(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, filepath.Join("testdata", "bad", "_base"), dir)
	b := makeBaseline(t, dir)
	code, _, stderr := runMain(t, dir, []string{"evalgate", "compare", "--max-drop", "NaN", b, b})
	if code != cli.ExitBadInput || !strings.Contains(stderr, `flag -max-drop: "NaN" is not a finite number`) {
		t.Errorf("exit %d: %s", code, stderr)
	}
}
