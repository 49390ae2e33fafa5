package cli_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/cli"
)

// A promptfoo test with no `expected` var shows its one text assertion as the expected
// text: "wrong capital" fails `contains "Madrid"`, and its row says so. The assertion's
// value is another tool's text: escaped in the table like any output.
func TestPromptfooAssertionIsTheExpectedText(t *testing.T) {
	md := pfReasonCheck(t, "")
	if !strings.Contains(md, "| `wrong capital` | contains: Madrid |") {
		t.Errorf("the newly failing row lacks its expected text:\n%s", md)
	}
	md = pfEditedCheck(t, "", func(rec map[string]any) {
		for _, a := range rec["testCase"].(map[string]any)["assert"].([]any) {
			if a := a.(map[string]any); a["type"] == "contains" {
				a["value"] = "Madrid | <img src=x onerror=alert(1)> `x`"
			}
		}
	})
	if !strings.Contains(md, `| contains: Madrid \| &lt;img src=x onerror=alert(1)&gt; \`+"`x\\`"+` |`) || strings.Contains(md, "<img") {
		t.Errorf("the expected text is not escaped:\n%s", md)
	}
}

// The promptfoo example's baseline was made before the report showed assertions as the
// expected text: every item is still the baseline's (the same hash: none changed), and
// the items with one text assertion show it.
func TestPromptfooExpectedTextKeepsItemHashes(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	c := &cli.CLI{Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" },
		Now: func() time.Time { return time.Unix(0, 0) }, GitSHA: func() string { return "" }}
	if code := c.Main([]string{"evalgate", "check", "--config", "../../examples/promptfoo/evalgate.yaml", "--format", "json"}); code != cli.ExitPass {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var r struct {
		Comparison struct {
			Compared int      `json:"compared_items"`
			Changed  []string `json:"changed_items"`
		} `json:"comparison"`
		Items []struct {
			ID       string `json:"item"`
			Expected any    `json:"expected"`
		} `json:"items"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if r.Comparison.Compared != 8 || len(r.Comparison.Changed) != 0 {
		t.Errorf("compared %d, changed %q; want all 8 items the baseline's", r.Comparison.Compared, r.Comparison.Changed)
	}
	// examples/promptfoo/promptfooconfig.yaml: "refund window" has one text assertion
	// (contains "14 days"); "reset password" two (icontains, contains): no one of them.
	want := map[string]any{"refund window": "contains: 14 days", "invoice address": "icontains: billing", "reset password": nil}
	for _, it := range r.Items {
		if w, ok := want[it.ID]; ok && it.Expected != w {
			t.Errorf("%s: expected %v; want %v", it.ID, it.Expected, w)
		}
	}
}
