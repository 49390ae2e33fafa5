package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/ghaction"
	"github.com/evalgate/evalgate/internal/report"
	"github.com/evalgate/evalgate/internal/settle"
)

// In a privileged workflow (workflow_run, pull_request_target) settle never runs the
// config's `run:` block: the report gives the command for the unprivileged job, and that
// command, pasted into a shell, parses and runs (exit 0 or 1). The fixture is the
// newcomer's case (settle_newcomer.txtar), in a folder whose name holds a space.
func TestSettlePrivilegedGivesCommand(t *testing.T) {
	ar, err := txtar.ParseFile("testdata/script/settle_newcomer.txtar")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "my suite")
	for _, f := range ar.Files {
		p := filepath.Join(dir, f.Name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	if out, err := exec.Command("sh", "gen.sh").CombinedOutput(); err != nil {
		t.Fatalf("gen.sh: %v\n%s", err, out)
	}
	main := func(args ...string) (int, string) {
		var stdout, stderr bytes.Buffer
		c := New()
		c.Stdout, c.Stderr = &stdout, &stderr
		c.Getenv = func(k string) string {
			if k == "GITHUB_SHA" {
				return ""
			}
			return os.Getenv(k)
		}
		code := c.Main(append([]string{"evalgate"}, args...))
		return code, stdout.String() + stderr.String()
	}
	for _, args := range [][]string{{"run", "--runs", "3", "--out-dir", "base", "--quiet"},
		{"baseline", "--results", "base/run1.jsonl", "--results", "base/run2.jsonl", "--results", "base/run3.jsonl", "--out", "baseline.json"}} {
		if code, out := main(args...); code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, out)
		}
	}
	t.Setenv("BROKEN", "1")
	if code, out := main("run", "--out", "pr.jsonl", "--quiet"); code != 0 {
		t.Fatalf("run: exit %d\n%s", code, out)
	}
	c := New()
	opts := CheckOptions{CheckPlan: CheckPlan{Config: filepath.Join(dir, "evalgate.yaml"), Results: []string{filepath.Join(dir, "pr.jsonl")}}, CheckEnv: CheckEnv{Now: c.Now()}}
	l, err := Load(opts)
	if err != nil {
		t.Fatal(err)
	}
	r, err := l.Check(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Verdict.Status != gate.Inconclusive {
		t.Fatalf("verdict %s; want inconclusive", r.Verdict.Status)
	}
	g := &gateRun{l: l, canSettle: true}
	r, err = c.settleInAction(context.Background(), ghaction.CheckInput{Privileged: true, Settle: true}, g, opts, r)
	if err != nil {
		t.Fatal(err)
	}
	if r.Settle != nil {
		t.Fatalf("settle ran in a privileged context: %+v", r.Settle)
	}
	var notice string
	for _, n := range r.Notices {
		if strings.HasPrefix(n.Text, "settle did not run") && n.Slot == report.NoticeNote {
			notice = n.Text
		}
	}
	_, cmd, ok := strings.Cut(notice, "`")
	cmd = strings.TrimSuffix(cmd, "`")
	if !ok || !strings.HasPrefix(cmd, "evalgate check ") || !strings.HasSuffix(cmd, " --settle") {
		t.Fatalf("no settle command in the notices %v", r.Notices)
	}
	if _, err := os.Stat("settled"); err == nil {
		t.Fatal("something was re-run")
	}
	if out, err := exec.Command("sh", "-n", "-c", cmd).CombinedOutput(); err != nil {
		t.Fatalf("the pasted command %q does not parse: %v\n%s", cmd, err, out)
	}
	// Run as the shell would split it (no expansion is in it: Split reads the same words).
	args, err := settle.Split(cmd)
	if err != nil {
		t.Fatal(err)
	}
	code, out := main(args[1:]...)
	if code != 0 && code != 1 {
		t.Fatalf("%q: exit %d; want 0 or 1\n%s", cmd, code, out)
	}
	if !strings.Contains(out, "settle: ") {
		t.Errorf("%q did not settle:\n%s", cmd, out)
	}
}
