package report_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/cli"
	"github.com/evalgate/evalgate/internal/report"
	"github.com/evalgate/evalgate/internal/testdata/testtools"
)

func checked(t *testing.T, config string, results ...string) *report.Report {
	t.Helper()
	r, err := cli.Check(context.Background(), cli.CheckOptions{CheckPlan: cli.CheckPlan{Config: config, Results: results}, CheckEnv: cli.CheckEnv{Now: time.Unix(0, 0)}})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The chart is parsed by mermaid's own parser (npm mermaid, under jsdom), the version
// GitHub renders: testdata/mermaid holds the pinned packages (scripts/install-test-tools.sh
// runs npm ci there).
func TestMermaidChartParsesWithMermaid(t *testing.T) {
	node := testtools.Require(t, "runs mermaid's parser", "node")
	if _, err := os.Stat("testdata/mermaid/node_modules/mermaid/package.json"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("testdata/mermaid/node_modules missing: run scripts/install-test-tools.sh")
		}
		t.Skip("testdata/mermaid/node_modules missing: run scripts/install-test-tools.sh to check the chart with mermaid's parser")
	}
	var all strings.Builder
	for _, tc := range []struct{ config, results string }{
		{"../../examples/tutor-capstone/evalgate.yaml", "../../examples/tutor-capstone/results/regressed.jsonl"},
		{"../../examples/tutor-capstone/evalgate.yaml", "../../examples/tutor-capstone/results/improved.jsonl"},
		{"../../examples/council-rubric/evalgate.yaml", ""},
		{"../../examples/release-readiness/evalgate.yaml", ""},
	} {
		var res []string
		if tc.results != "" {
			res = []string{tc.results}
		}
		md := checked(t, tc.config, res...).Markdown(report.MarkdownOptions{})
		if !strings.Contains(md, "```mermaid\nxychart-beta\n") {
			t.Fatalf("%s: no chart in the comment", tc.config)
		}
		all.WriteString(md)
	}
	// One node process parses the four comments' charts (loading mermaid takes seconds).
	cmd := exec.Command(node, "testdata/mermaid/check.mjs")
	cmd.Stdin = strings.NewReader(all.String())
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "ok 4 ") {
		t.Errorf("mermaid's parser says: %v\n%s", err, out)
	}
}

// Without a baseline there is nothing to set the pull request against: no chart, not an
// empty one.
func TestMermaidChartLeftOutWithoutData(t *testing.T) {
	r := checked(t, "../../examples/tutor-capstone/evalgate.yaml")
	r.Comparison = nil
	if c := r.MermaidChart(); c != "" {
		t.Errorf("chart without a comparison:\n%s", c)
	}
	if md := r.Markdown(report.MarkdownOptions{}); strings.Contains(md, "mermaid") {
		t.Error("the comment draws a chart without a baseline")
	}
}

// The chart is small (a few hundred characters), sits in the history section, and is
// cut whole before the tables when the comment would exceed its budget.
func TestMermaidChartStaysWithinTheCommentBudget(t *testing.T) {
	r := checked(t, "../../examples/tutor-capstone/evalgate.yaml", "../../examples/tutor-capstone/results/regressed.jsonl")
	chart := r.MermaidChart()
	if chart == "" || len(chart) > 1000 {
		t.Fatalf("chart of %d characters", len(chart))
	}
	full := r.Markdown(report.MarkdownOptions{})
	if !strings.Contains(full, chart) {
		t.Fatal("the comment lacks the chart")
	}
	// A budget the tables and the history cannot both fit: the chart goes (whole), and
	// the comment says so.
	const limit = 2500
	tight := r.Markdown(report.MarkdownOptions{MaxChars: limit})
	if strings.Contains(tight, "```mermaid") || !strings.Contains(tight, "The history left out") || len(tight) > limit {
		t.Errorf("budget %d: %d chars, chart kept %v", limit, len(tight), strings.Contains(tight, "```mermaid"))
	}
}
