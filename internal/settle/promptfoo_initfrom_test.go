package settle_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/cli"
	"github.com/evalgate/evalgate/internal/importer"
)

// The `rerun:` command `evalgate init --from promptfooconfig.yaml` writes settles a
// suite against promptfoo itself, as written but for where promptfoo comes from: npx
// (which fetches it) becomes the node and entrypoint installed for the tests, so it
// runs offline. The pull request breaks the test "price (USD) $5?", whose description
// holds regular-expression characters: --filter-pattern selects it only quoted.
func TestSettlePromptfooInitFromTemplate(t *testing.T) {
	node, entry := promptfooFor(t, importer.PromptfooNewest)
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	for k, v := range map[string]string{"HOME": home, "PROMPTFOO_CONFIG_DIR": filepath.Join(home, ".promptfoo"),
		"PROMPTFOO_DISABLE_TELEMETRY": "1", "PROMPTFOO_DISABLE_UPDATE": "1", "PROMPTFOO_DISABLE_SHARING": "1",
		"PROMPTFOO_DISABLE_REMOTE_GENERATION": "1", "PROMPTFOO_SELF_HOSTED": "1", "PROMPTFOO_DISABLE_DEBUG_LOG": "1",
		"PROMPTFOO_DISABLE_ERROR_LOG": "1"} {
		t.Setenv(k, v)
	}
	config := pfSettleConfig + "  - description: price (USD) $5?\n    vars: {question: price (USD) $5?}\n"
	provider := strings.Replace(pfProvider, "prompt === 'refund window'", "prompt === 'price (USD) $5?'", 1)
	if provider == pfProvider {
		t.Fatal("the provider breaks no other test")
	}
	for name, text := range map[string]string{"promptfooconfig.yaml": config, "provider.js": provider} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pf := func(out, repeat string) {
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
	run := func(args ...string) (int, string, string) {
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
	pf("base.json", "3")
	cfgPath := filepath.Join(dir, "evalgate.yaml")
	if code, out, errOut := run("init", "--dir", dir, "--from", filepath.Join(dir, "promptfooconfig.yaml")); code != 0 {
		t.Fatalf("init --from: exit %d\n%s%s", code, out, errOut)
	}
	data, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	const npx = "rerun: [npx, --yes, promptfoo@" + importer.PromptfooNewest + ", "
	if !strings.Contains(string(data), npx) {
		t.Fatalf("init --from wrote no npx rerun: command:\n%s", data)
	}
	here, _ := json.Marshal([]string{node, entry})
	written := strings.Replace(string(data), npx, "rerun: ["+strings.Trim(string(here), "[]")+", ", 1)
	if err := os.WriteFile(cfgPath, []byte(written), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := run("baseline", "--config", cfgPath, "--results", filepath.Join(dir, "base.json")); code != 0 {
		t.Fatalf("baseline: exit %d\n%s%s", code, out, errOut)
	}
	t.Setenv("SETTLE_BROKEN", "1") // the pull request, and its re-runs
	pf("results.json", "1")
	settleDir := filepath.Join(dir, "settled")
	code, out, errOut := run("check", "--config", cfgPath, "--settle", "--settle-budget", "18", "--settle-dir", settleDir, "--format", "json")
	if code != 1 {
		t.Fatalf("check --settle: exit %d; want 1 (blocked)\n%s%s", code, out, errOut)
	}
	var r struct {
		Settle struct {
			Initial, Outcome, Stop string
			Rounds                 []struct{ Items []string }
		}
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Settle.Outcome != "fail" || r.Settle.Stop != "decided" || len(r.Settle.Rounds) == 0 {
		t.Fatalf("settle %+v; want a fail after at least one round", r.Settle)
	}
	if r.Settle.Rounds[0].Items[0] != "price (USD) $5?" {
		t.Errorf("round 1 re-ran %q; want the broken test first", r.Settle.Rounds[0].Items)
	}
	// Each round ran exactly its items in promptfoo, selected through the pattern.
	for i, round := range r.Settle.Rounds {
		b, err := os.ReadFile(filepath.Join(settleDir, "rerun"+strconv.Itoa(i+1)+".json"))
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
		if err := json.Unmarshal(b, &pr); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, x := range pr.Results.Results {
			got = append(got, x.TestCase.Description)
		}
		if strings.Join(got, "|") != strings.Join(round.Items, "|") {
			t.Errorf("round %d: promptfoo ran %q; want %q", i+1, got, round.Items)
		}
	}
}
