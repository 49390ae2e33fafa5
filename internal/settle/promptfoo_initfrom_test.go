package settle_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/importer"
)

// The `rerun:` command `evalgate init --from promptfooconfig.yaml` writes settles a
// suite against promptfoo itself, as written but for where promptfoo comes from: npx
// (which fetches it) becomes the node and entrypoint installed for the tests, so it
// runs offline. The pull request breaks the test "price (USD) $5?", whose description
// holds regular-expression characters: --filter-pattern selects it only quoted.
func TestSettlePromptfooInitFromTemplate(t *testing.T) {
	node, entry := promptfooFor(t, importer.PromptfooNewest)
	config := pfSettleConfig + "  - description: price (USD) $5?\n    vars: {question: price (USD) $5?}\n"
	provider := strings.Replace(pfProvider, "prompt === 'refund window'", "prompt === 'price (USD) $5?'", 1)
	if provider == pfProvider {
		t.Fatal("the provider breaks no other test")
	}
	dir := pfProject(t, config, provider)
	pf := func(out, repeat string) { pfEval(t, node, entry, dir, out, repeat) }
	run := evalgateMain
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
	r := checkBlocked(t, "--config", cfgPath, "--settle", "--settle-budget", "18", "--settle-dir", settleDir)
	if r.Settle.Outcome != "fail" || r.Settle.Stop != "decided" || len(r.Settle.Rounds) == 0 {
		t.Fatalf("settle %+v; want a fail after at least one round", r.Settle)
	}
	if r.Settle.Rounds[0].Items[0] != "price (USD) $5?" {
		t.Errorf("round 1 re-ran %q; want the broken test first", r.Settle.Rounds[0].Items)
	}
	// Each round ran exactly its items in promptfoo, selected through the pattern.
	for i, round := range r.Settle.Rounds {
		if got := pfDescriptions(t, filepath.Join(settleDir, "rerun"+strconv.Itoa(i+1)+".json")); strings.Join(got, "|") != strings.Join(round.Items, "|") {
			t.Errorf("round %d: promptfoo ran %q; want %q", i+1, got, round.Items)
		}
	}
}
