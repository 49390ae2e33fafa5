package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/ghaction"
)

// The action's settle input (auto) settles what check --settle settles, not only an
// inconclusive verdict: here a pass in doubt. 100 items pass every one of 3 baseline
// runs; the pull request's one run breaks 2 of them (a drop of 2/100 = 2.0 pts, at
// max_drop 2.0 pts): the first look passes, unsure. The action re-ran nothing and
// reported the pass; now it re-runs the broken items (they fail again), as check
// --settle does, and the verdict is no longer a plain pass. In a privileged workflow
// it runs nothing and names the command instead.
func TestActionSettlesAnUnsurePass(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	var suite, pr strings.Builder
	suite.WriteString("name: thin\nitems:\n")
	base := make([]strings.Builder, 3)
	for i := range 100 {
		id := fmt.Sprintf("item %03d", i)
		fmt.Fprintf(&suite, "  - {id: %q, prompt: p, expected_contains: [yes]}\n", id)
		for r := range base {
			fmt.Fprintf(&base[r], "{\"id\":%q,\"output\":\"yes\"}\n", id)
		}
		out := "yes"
		if i < 2 {
			out = "no"
		}
		fmt.Fprintf(&pr, "{\"id\":%q,\"output\":%q}\n", id, out)
	}
	files := map[string]string{
		"suite.yaml": suite.String(), "pr.jsonl": pr.String(),
		"base1.jsonl": base[0].String(), "base2.jsonl": base[1].String(), "base3.jsonl": base[2].String(),
		// The pull request's system: the 2 items it broke fail again when re-run.
		"system.sh": "case \"$EVALGATE_ITEM_ID\" in 'item 00'[01]) echo no ;; *) echo yes ;; esac\n",
		"evalgate.yaml": `name: thin
suite: suite.yaml
baseline: baseline.jsonl
run:
  exec:
    command: [sh, system.sh]
scoring:
  version: scoringSystem/1.0.0
  dimensions:
    - {name: answer, weight: 1.0, scorer: contains}
grading:
  version: gradingSystem/1.0.0
  regression: {max_drop: 0.02}
settle: {budget: 8}
`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := New()
	c.Getenv = func(k string) string {
		if k == "GITHUB_SHA" {
			return ""
		}
		return os.Getenv(k)
	}
	var sink strings.Builder
	c.Stdout, c.Stderr = &sink, &sink
	if code := c.Main([]string{"evalgate", "baseline", "--results", "base1.jsonl", "--results", "base2.jsonl", "--results", "base3.jsonl", "--out", "baseline.jsonl"}); code != 0 {
		t.Fatalf("baseline: exit %d\n%s", code, sink.String())
	}
	opts := CheckOptions{CheckPlan: CheckPlan{Config: filepath.Join(dir, "evalgate.yaml"), Results: []string{filepath.Join(dir, "pr.jsonl")}}, CheckEnv: CheckEnv{Now: c.Now()}}
	check := func(in ghaction.CheckInput) *reportView {
		t.Helper()
		l, err := Load(opts)
		if err != nil {
			t.Fatal(err)
		}
		g := &gateRun{l: l, opts: opts, canSettle: true}
		r, err := g.check(context.Background(), c, in)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		v := &reportView{status: r.Verdict.Status, settled: r.Settle != nil}
		if r.Regression != nil {
			v.unsure = r.Regression.Unsure
		}
		if r.Settle != nil {
			v.rounds = len(r.Settle.Rounds)
		}
		for _, n := range r.Notices {
			v.notices = append(v.notices, n.Text)
		}
		return v
	}
	// Without settle: the first look passes, in doubt (the premise).
	first := check(ghaction.CheckInput{})
	if first.status != gate.Pass || !first.unsure || first.settled {
		t.Fatalf("first look: %+v; want an unsure pass, not settled", first)
	}
	got := check(ghaction.CheckInput{Settle: true})
	if !got.settled || got.rounds < 1 {
		t.Fatalf("settle auto: %+v; want at least one round of re-runs", got)
	}
	if got.status == gate.Pass {
		t.Errorf("settle auto: still pass after re-runs that fail again: %+v", got)
	}
	priv := check(ghaction.CheckInput{Settle: true, Privileged: true})
	if priv.settled || !strings.Contains(strings.Join(priv.notices, "\n"), "settle did not run") {
		t.Errorf("privileged: %+v; want no settle and the command for the unprivileged job", priv)
	}
	if _, err := os.Stat(filepath.Join(dir, "rerun1.jsonl")); err == nil {
		t.Error("a rerun file in the working folder")
	}
}

// reportView is what TestActionSettlesAnUnsurePass reads of a report.
type reportView struct {
	status          gate.Status
	unsure, settled bool
	rounds          int
	notices         []string
}
