package cli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/evalgate/evalgate/internal/cli"
	"github.com/evalgate/evalgate/internal/runner"
	"github.com/evalgate/evalgate/internal/testdata/chattest"
)

// budgetConfig is an openai-mode run of a 10-item suite against the fake at url,
// priced at $1,000 per million tokens either way ($0.001 a token) so the figures are
// easy to follow.
func budgetConfig(t *testing.T, url string) string {
	t.Helper()
	dir := t.TempDir()
	var suite strings.Builder
	for i := 1; i <= 10; i++ {
		// Each prompt is 10 bytes: "Q-01 what?".
		fmt.Fprintf(&suite, "{\"id\": \"q-%02d\", \"prompt\": \"Q-%02d what?\", \"expected\": \"A-%02d\"}\n", i, i, i)
	}
	cfg := `suite: suite.jsonl
metadata: {model_id: fake-model-2026-01-01}
pricing:
  models:
    fake-model-2026-01-01: {input: 1000, output: 1000}
run:
  concurrency: 1
  openai:
    model: fake-model-2026-01-01
    base_url: ` + url + `
    max_tokens: 10
    max_retries: -1
scoring:
  version: scoringSystem/1.0.0
  dimensions: [{name: correctness, weight: 1, scorer: contains}]
grading:
  version: gradingSystem/1.0.0
  gates: [{metric: pass_rate, min: 0.9}]
`
	for name, body := range map[string]string{"suite.jsonl": suite.String(), "evalgate.yaml": cfg} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "evalgate.yaml")
}

// answer replies "A-NN" to "Q-NN what?", with 10 prompt and 5 completion tokens.
func answer(_ int, req chattest.Request) chattest.Reply {
	return chattest.Reply{Content: "A-" + strings.TrimSuffix(strings.TrimPrefix(req.Prompt(), "Q-"), " what?"), PromptTokens: 10, CompletionTokens: 5}
}

type runLine struct {
	ID           string `json:"id"`
	Output       string `json:"output"`
	InputTokens  *int64 `json:"input_tokens"`
	OutputTokens *int64 `json:"output_tokens"`
}

func readRunLines(t *testing.T, path string) []runLine {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []runLine
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r runLine
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("%s: %q: %v", path, l, err)
		}
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b runLine) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// TestRunBudgetStopsAndResumes: `evalgate run` with max_cost_usd stops starting calls
// once the budget cannot cover the next one, keeps what ran, and `--resume` with a
// larger budget completes the file, equal to an unbudgeted run's.
func TestRunBudgetStopsAndResumes(t *testing.T) {
	srv := chattest.New(t, "/v1", answer)
	cfg := budgetConfig(t, srv.BaseURL())
	dir := filepath.Dir(cfg)
	run := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		c := &cli.CLI{Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }, Now: time.Now, GitSHA: func() string { return "" }}
		code := c.Main(append([]string{"evalgate", "run", "--config", cfg, "--quiet"}, args...))
		return code, stdout.String(), stderr.String()
	}

	full := filepath.Join(dir, "full.jsonl")
	if code, _, stderr := run("--out", full); code != 0 {
		t.Fatalf("unbudgeted run: exit %d: %s", code, stderr)
	}
	if srv.Calls() != 10 {
		t.Fatalf("unbudgeted run made %d calls; want 10", srv.Calls())
	}

	// One item's worst case: its prompt's 10 bytes as 10 tokens, plus 16 tokens of
	// message overhead, in; max_tokens 10 out: (10 + 16 + 10) × $0.001 = $0.036.
	// What it costs: 10 + 5 tokens × $0.001 = $0.015.
	// With one item at a time, item k+1 (k done) starts only if
	//   0.015 × k + 0.036 ≤ 0.11, i.e. k ≤ 4.93:
	// items 1 to 5 run ($0.075 spent); the 6th would need 0.075 + 0.036 = 0.111 > 0.11.
	cut := filepath.Join(dir, "cut.jsonl")
	code, stdout, stderr := run("--out", cut, "--max-cost-usd", "0.11")
	if code != 0 {
		t.Fatalf("budgeted run: exit %d: %s", code, stderr)
	}
	if calls := srv.Calls() - 10; calls != 5 {
		t.Errorf("budgeted run made %d calls; want 5 (no call starts after the budget)", calls)
	}
	if !strings.Contains(stdout, "cut by its budget: $0.075 spent of max_cost_usd $0.11, 5 item(s) not run") {
		t.Errorf("stdout does not say the run was cut:\n%s", stdout)
	}
	if got := readRunLines(t, cut); len(got) != 5 {
		t.Errorf("%d results kept; want the 5 that ran", len(got))
	}
	note, err := runner.ReadBudgetNote(cut)
	if err != nil || note == nil {
		t.Fatalf("budget note: %v, %v", note, err)
	}
	if note.NotRun != 5 || note.Items != 10 || note.SpentUSD > note.MaxCostUSD {
		t.Errorf("note %+v; want 5 of 10 not run, spent ≤ max", note)
	}

	// The scored report says so at the top, and the 5 items never run are missing.
	var out, errb bytes.Buffer
	c := &cli.CLI{Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }, Now: time.Now, GitSHA: func() string { return "" }}
	if code := c.Main([]string{"evalgate", "check", "--config", cfg, "--results", cut, "--format", "markdown"}); code != 1 {
		t.Errorf("check of the cut run: exit %d; want 1 (missing items fail): %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "cut by its budget") || !strings.Contains(out.String(), "5 of 10 items never ran") {
		t.Errorf("check's report does not say the run was cut by its budget:\n%s", out.String())
	}

	// Resume with a larger budget: the 5 others run, and the note goes.
	before := srv.Calls()
	if code, stdout, stderr := run("--out", cut, "--resume", "--max-cost-usd", "1"); code != 0 || strings.Contains(stdout, "cut by") {
		t.Fatalf("resume: exit %d: %s%s", code, stdout, stderr)
	}
	if calls := srv.Calls() - before; calls != 5 {
		t.Errorf("resume made %d calls; want the 5 items not run", calls)
	}
	if n, _ := runner.ReadBudgetNote(cut); n != nil {
		t.Errorf("the budget note stays after the run completed: %+v", n)
	}
	if diff := cmp.Diff(readRunLines(t, full), readRunLines(t, cut)); diff != "" {
		t.Errorf("resumed results differ from an unbudgeted run's in ids, outputs or tokens (-full +resumed):\n%s", diff)
	}
}

// TestRunBudgetRefusesUnpricedModel: a budget needs a price for the system's model.
func TestRunBudgetRefusesUnpricedModel(t *testing.T) {
	srv := chattest.New(t, "/v1", answer)
	cfg := budgetConfig(t, srv.BaseURL())
	data, _ := os.ReadFile(cfg)
	data = bytes.Replace(data, []byte("    fake-model-2026-01-01: {input: 1000, output: 1000}\n"), []byte("    other: {input: 1, output: 1}\n"), 1)
	if err := os.WriteFile(cfg, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	c := &cli.CLI{Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }, Now: time.Now, GitSHA: func() string { return "" }}
	code := c.Main([]string{"evalgate", "run", "--config", cfg, "--out", filepath.Join(t.TempDir(), "r.jsonl"), "--max-cost-usd", "1"})
	if code != 2 || !strings.Contains(stderr.String(), "cost unknown: fake-model-2026-01-01") {
		t.Errorf("exit %d, stderr %q; want 2 and cost unknown: fake-model-2026-01-01", code, stderr.String())
	}
	if srv.Calls() != 0 {
		t.Errorf("%d calls made", srv.Calls())
	}
}

// TestBaselineRefusesARunCutByItsBudget: a baseline made from a run its budget cut
// would count the items never run as failing, and read low ever after; `baseline`
// refuses it (exit 2, nothing written) until `run --resume` finishes the file. Before,
// it wrote a baseline of 5 of 10 items.
func TestBaselineRefusesARunCutByItsBudget(t *testing.T) {
	srv := chattest.New(t, "/v1", answer)
	cfg := budgetConfig(t, srv.BaseURL())
	dir := filepath.Dir(cfg)
	// As in TestRunBudgetStopsAndResumes: $0.11 runs 5 of the 10 items.
	cut, base := filepath.Join(dir, "cut.jsonl"), filepath.Join(dir, "base.jsonl")
	if code, out := evalgateMain("run", "--config", cfg, "--quiet", "--out", cut, "--max-cost-usd", "0.11"); code != 0 || !strings.Contains(out, "5 item(s) not run") {
		t.Fatalf("run: exit %d: %s", code, out)
	}
	code, out := evalgateMain("baseline", "--config", cfg, "--quiet", "--results", cut, "--out", base)
	if code != 2 || !strings.Contains(out, "cut.jsonl: its run was cut by its budget (5 of 10 items never ran") {
		t.Errorf("baseline of a cut run: exit %d: %s; want 2, naming the file and the items never run", code, out)
	}
	if _, err := os.Stat(base); err == nil {
		t.Errorf("baseline of a cut run was written")
	}
	if code, out := evalgateMain("run", "--config", cfg, "--quiet", "--out", cut, "--resume", "--max-cost-usd", "1"); code != 0 {
		t.Fatalf("resume: exit %d: %s", code, out)
	}
	if code, out := evalgateMain("baseline", "--config", cfg, "--quiet", "--results", cut, "--out", base); code != 0 {
		t.Errorf("baseline of the finished run: exit %d: %s", code, out)
	}
}

// TestCostCapsRefuseNaNAndInfinity: a dollar cap that is not a number compares false
// with everything, so it capped nothing: `run --max-cost-usd NaN` ran every item with
// no cap and exit 0, and `--settle-max-cost-usd NaN` settled without one (the config
// cannot say NaN: its numbers are finite). Each is refused as the flag is parsed (exit
// 2, no call made), as is +Inf.
func TestCostCapsRefuseNaNAndInfinity(t *testing.T) {
	srv := chattest.New(t, "/v1", answer)
	cfg := budgetConfig(t, srv.BaseURL())
	dir := filepath.Dir(cfg)
	out := filepath.Join(dir, "r.jsonl")
	for _, v := range []string{"NaN", "+Inf"} {
		if code, msg := evalgateMain("run", "--config", cfg, "--quiet", "--out", out, "--max-cost-usd", v); code != 2 || !strings.Contains(msg, `flag -max-cost-usd: "`+v+`" is not a finite number`) {
			t.Errorf("run --max-cost-usd %s: exit %d: %s; want 2, naming the flag", v, code, msg)
		}
		if code, msg := evalgateMain("check", "--config", cfg, "--quiet", "--results", out, "--settle", "--settle-max-cost-usd", v); code != 2 || !strings.Contains(msg, `flag -settle-max-cost-usd: "`+v+`" is not a finite number`) {
			t.Errorf("check --settle-max-cost-usd %s: exit %d: %s; want 2, naming the flag", v, code, msg)
		}
	}
	if srv.Calls() != 0 {
		t.Errorf("%d calls made under a cap that is not a number", srv.Calls())
	}
}

// evalgateMain runs `evalgate args...` in-process: its exit code, stdout and stderr.
func evalgateMain(args ...string) (int, string) {
	var stdout, stderr bytes.Buffer
	c := &cli.CLI{Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }, Now: time.Now, GitSHA: func() string { return "" }}
	code := c.Main(append([]string{"evalgate"}, args...))
	return code, stdout.String() + stderr.String()
}

// TestCheckNamesARunCutBeforeAnyItem: a cap under one item's worst case cuts the run
// before any item ran, and leaves an empty results file beside its note; check then
// says the budget cut it and how to go on (exit 2), where it said only "results file
// is empty".
func TestCheckNamesARunCutBeforeAnyItem(t *testing.T) {
	srv := chattest.New(t, "/v1", answer)
	cfg := budgetConfig(t, srv.BaseURL())
	out := filepath.Join(filepath.Dir(cfg), "r.jsonl")
	// One item's worst case is $0.036 (TestRunBudgetStopsAndResumes): $0.03 runs none.
	if code, msg := evalgateMain("run", "--config", cfg, "--quiet", "--out", out, "--max-cost-usd", "0.03"); code != 0 || !strings.Contains(msg, "10 item(s) not run") {
		t.Fatalf("run: exit %d: %s", code, msg)
	}
	code, msg := evalgateMain("check", "--config", cfg, "--quiet", "--results", out)
	if code != 2 || !strings.Contains(msg, "r.jsonl: its run was cut by its budget before any item ran ($0.00 spent of max_cost_usd $0.03") || !strings.Contains(msg, "10 of 10 items not run") {
		t.Errorf("check of a run cut before any item: exit %d: %s; want 2 and why", code, msg)
	}
	if srv.Calls() != 0 {
		t.Errorf("%d calls made", srv.Calls())
	}
}
