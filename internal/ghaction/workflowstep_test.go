package ghaction

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestFindGateStep(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, yaml, checkName string
		want                  gateInputs
		ok                    bool
		err                   string
	}{
		{name: "defaults", checkName: "evalgate", ok: true, want: gateInputs{Config: "evalgate.yaml", WorkingDirectory: "."},
			yaml: "jobs:\n  a:\n    steps:\n      - uses: actions/checkout@v4\n      - uses: evalgate/evalgate@v1\n        with: {results: r.jsonl}\n"},
		{name: "its own inputs", checkName: "evalgate", ok: true, want: gateInputs{Config: "e.yaml", WorkingDirectory: "evals", Baseline: "b.json"},
			yaml: "jobs:\n  a:\n    steps:\n      - uses: evalgate/evalgate@v1.2.0\n        with: {config: e.yaml, working-directory: evals, baseline: b.json}\n"},
		{name: "by check-name among several", checkName: "second", ok: true, want: gateInputs{Config: "two.yaml", WorkingDirectory: "."},
			yaml: "jobs:\n  a:\n    steps:\n      - uses: evalgate/evalgate@v1\n        with: {config: one.yaml}\n      - uses: evalgate/evalgate@v1\n        with: {config: two.yaml, check-name: second}\n"},
		{name: "baseline mode and the setup action are not the gate", checkName: "evalgate",
			yaml: "jobs:\n  a:\n    steps:\n      - uses: evalgate/evalgate/setup@v1\n      - uses: evalgate/evalgate@v1\n        with: {mode: baseline, config: x.yaml}\n"},
		{name: "a mirror of another name, the action's own repository", checkName: "evalgate", ok: true, want: gateInputs{Config: "m.yaml", WorkingDirectory: "."},
			yaml: "jobs:\n  a:\n    steps:\n      - uses: Acme/evalgate-mirror@v1\n        with: {config: m.yaml}\n"},
		{name: "no such step", checkName: "evalgate", yaml: "jobs:\n  a:\n    steps:\n      - run: echo hi\n"},
		{name: "an expression cannot be read", checkName: "evalgate", err: "with an expression",
			yaml: "jobs:\n  a:\n    steps:\n      - uses: evalgate/evalgate@v1\n        with: {config: '${{ matrix.config }}'}\n"},
		{name: "two steps of one check with different configs", checkName: "evalgate", err: "different configs",
			yaml: "jobs:\n  a:\n    steps:\n      - uses: evalgate/evalgate@v1\n        with: {config: one.yaml}\n  b:\n    steps:\n      - uses: evalgate/evalgate@v1\n        with: {config: two.yaml}\n"},
		{name: "not YAML", checkName: "evalgate", err: "not valid YAML", yaml: "jobs: [\n"},
		// goccy/go-yaml's decoder panics on a tag before a scalar on the next line where
		// a list is wanted: bad input, named by its line, not a crash of the action.
		{name: "a tag the decoder panics on", checkName: "evalgate", err: "not valid YAML: line 3: cannot decode this YAML",
			yaml: "jobs:\n  a:\n    steps: !!str\n      x\n"},
		{name: "an empty file has no step", checkName: "evalgate", yaml: "# nothing yet\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok, err := findGateStep([]byte(c.yaml), c.checkName, "acme/evalgate-mirror")
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v; want one containing %q", err, c.err)
				}
				return
			}
			if err != nil || ok != c.ok || got != c.want {
				t.Errorf("findGateStep = %+v, %v, %v; want %+v, %v", got, ok, err, c.want, c.ok)
			}
		})
	}
}

func TestGateInputsRepoPaths(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   gateInputs
		want string
		err  bool
	}{
		{gateInputs{Config: "evalgate.yaml", WorkingDirectory: "."}, "evalgate.yaml", false},
		{gateInputs{Config: "e.yaml", WorkingDirectory: "evals/"}, "evals/e.yaml", false},
		{gateInputs{Config: "../e.yaml", WorkingDirectory: "evals"}, "e.yaml", false},
		{gateInputs{Config: "../../e.yaml", WorkingDirectory: "evals"}, "", true},
		{gateInputs{Config: "/etc/e.yaml", WorkingDirectory: "."}, "", true},
	} {
		got, err := c.in.configRepoPath()
		if got != c.want || (err != nil) != c.err {
			t.Errorf("%+v: %q, %v; want %q (error %v)", c.in, got, err, c.want, c.err)
		}
	}
	if got, repo := workflowFile("acme/tutor-bot/.github/workflows/gate.yml@refs/pull/2/merge"); got != ".github/workflows/gate.yml" || repo != "acme/tutor-bot" {
		t.Errorf("workflowFile = %q, %q", got, repo)
	}
	for _, bad := range []string{"", "acme/tutor-bot/gate.yml@refs/heads/main", "no-at-sign"} {
		if got, _ := workflowFile(bad); got != "" {
			t.Errorf("workflowFile(%q) = %q; want \"\"", bad, got)
		}
	}
}

// FuzzFindGateStep: any workflow file gives a step, none, or an error: never a panic.
func FuzzFindGateStep(f *testing.F) {
	for _, name := range []string{"example-pr-gate.yml", "example-fork-producer.yml", "example-fork-gate.yml"} {
		if b, err := os.ReadFile(filepath.Join("..", "..", ".github", "workflows", name)); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("jobs:\n  a:\n    steps:\n      - uses: evalgate/evalgate@v1\n        with: {config: 3, working-directory: [x]}\n"))
	f.Add([]byte("jobs: {a: {steps: [{uses: ./, with: null}]}}"))
	f.Add([]byte("jobs:\n  a:\n    steps: !!str\n      x\n")) // the decoder panicked on it
	f.Fuzz(func(t *testing.T, data []byte) {
		g, ok, err := findGateStep(data, "evalgate", "")
		if err == nil && ok && g.Config == "" {
			t.Errorf("a step with an empty config: %+v", g)
		}
	})
}

// TestFindGateStepAliasBomb: the base commit's workflow file is read with the limits of
// every YAML input: aliases of aliases, 10 at each level. x0 is 3 nodes (a mapping, its
// key, its value) and xk is its list plus 10 of x(k-1): 31, 311, 3111, 31111 nodes, so
// *x4 on line 6 is the first alias over the 10,000 one alias may expand to.
func TestFindGateStepAliasBomb(t *testing.T) {
	t.Parallel()
	lines := []string{"x0: &x0 {uses: evalgate/evalgate@v1}"}
	for i := 1; i <= 5; i++ {
		refs := slices.Repeat([]string{fmt.Sprintf("*x%d", i-1)}, 10)
		lines = append(lines, fmt.Sprintf("x%d: &x%d [%s]", i, i, strings.Join(refs, ", ")))
	}
	lines = append(lines, "jobs: {a: {steps: [{uses: evalgate/evalgate@v1, with: {extra: *x5}}]}}")
	_, _, err := findGateStep([]byte(strings.Join(lines, "\n")+"\n"), "evalgate", "")
	if err == nil || !strings.Contains(err.Error(), "line 6: alias *x4 expands to 31111 nodes") {
		t.Fatalf("error %v; want the alias refused", err)
	}
}
