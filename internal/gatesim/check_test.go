package gatesim_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/cli"
	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/gatesim"
)

// The simulation decides as `evalgate check` does: the same simulated pull requests,
// written as results files and scored by the real binary's code (evalgate baseline,
// then evalgate check --format json), get the decision the simulation computed, with
// the same estimated drop.
func TestSimulationMatchesCheck(t *testing.T) {
	cells := []gatesim.Cell{
		{Model: gatesim.ModelA, Shape: gatesim.ShapeBreak, Items: 50, CandRuns: 1, Drop: 0},
		{Model: gatesim.ModelA, Shape: gatesim.ShapeBreak, Items: 50, CandRuns: 1, Drop: 0.08},
		{Model: gatesim.ModelB, Shape: gatesim.ShapeUniform, Items: 60, CandRuns: 3, Drop: 0.04},
		{Model: gatesim.ModelA, Shape: gatesim.ShapeBreak, Items: 200, CandRuns: 3, Drop: 0.04}, // the change model's target cell
		{Model: gatesim.ModelB, Shape: gatesim.ShapeBreak, Items: 80, CandRuns: 1, Drop: 0.02},
	}
	statuses := map[gate.Status]int{}
	for _, cell := range cells {
		for seed := uint64(1); seed <= 3; seed++ {
			base, cand := gatesim.Draw(cell, seed)
			want, err := gatesim.Evaluate(base, cand)
			if err != nil {
				t.Fatal(err)
			}
			got, value := checkPath(t, base, cand)
			name := fmt.Sprintf("model %s, %s, n %d, %d run(s), drop %.2f, seed %d", cell.Model.Name, cell.Shape, cell.Items, cell.CandRuns, cell.Drop, seed)
			if got != want.Status[gate.MethodEvidence] || math.Abs(value-want.Value[gate.MethodEvidence]) > 1e-6 {
				t.Errorf("%s: check decided %s (estimated drop %v); the simulation %s (%v)", name, got, value,
					want.Status[gate.MethodEvidence], want.Value[gate.MethodEvidence])
			}
			statuses[got]++
		}
	}
	if statuses[gate.Pass] == 0 || statuses[gate.Fail] == 0 {
		t.Errorf("outcomes %v: the cases should include passes and blocks", statuses)
	}
}

// checkPath writes the scores as a suite, baseline runs and candidate runs of a
// pass/fail rubric (output "yes" scores 1, "no" 0), runs evalgate baseline and evalgate
// check, and returns the regression decision's outcome and value.
func checkPath(t *testing.T, base, cand [][]float64) (gate.Status, float64) {
	t.Helper()
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var suite strings.Builder
	suite.WriteString("name: sim\nitems:\n")
	for i := range base {
		fmt.Fprintf(&suite, "  - {id: item-%04d, prompt: q, expected_contains: [yes]}\n", i)
	}
	write("suite.yaml", suite.String())
	cfg := write("evalgate.yaml", `name: sim
suite: suite.yaml
baseline: baseline.json
scoring:
  version: scoringSystem/1.0.0
  dimensions:
    - {name: correctness, weight: 1.0, scorer: contains}
grading:
  version: gradingSystem/1.0.0
  regression: {max_drop: 0.02}
`)
	runFiles := func(prefix string, scores [][]float64) []string {
		var args []string
		for r := range scores[0] {
			var b strings.Builder
			for i := range scores {
				out := "no"
				if scores[i][r] == 1 {
					out = "yes"
				}
				fmt.Fprintf(&b, `{"id": "item-%04d", "output": %q}`+"\n", i, out)
			}
			args = append(args, "--results", write(fmt.Sprintf("%s%d.jsonl", prefix, r+1), b.String()))
		}
		return args
	}
	run := func(args ...string) []byte {
		var stdout, stderr bytes.Buffer
		c := &cli.CLI{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" },
			Now: func() time.Time { return time.Unix(0, 0) }, GitSHA: func() string { return "" }}
		if code := c.Main(append([]string{"evalgate"}, args...)); code == gate.ExitBadInput {
			t.Fatalf("evalgate %s: exit 2: %s", strings.Join(args, " "), stderr.String())
		}
		return stdout.Bytes()
	}
	run(append([]string{"baseline", "--config", cfg}, runFiles("base", base)...)...)
	out := run(append([]string{"check", "--config", cfg, "--format", "json"}, runFiles("cand", cand)...)...)
	var r struct {
		Regression struct {
			Outcome gate.Status `json:"outcome"`
			Value   float64     `json:"value"`
		} `json:"regression"`
	}
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("check's JSON: %v\n%s", err, out)
	}
	return r.Regression.Outcome, r.Regression.Value
}
