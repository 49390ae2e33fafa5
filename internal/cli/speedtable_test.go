package cli_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// speedSummary is the bench/run.sh summary the README's speed table was made from.
const speedSummary = "../../bench/results/summary-10k.tsv"

// The README's speed table is bench/readme-table.sh's output for the kept summary, and
// that summary is a real comparison: three or more (an odd number of) interleaved runs of evalgate, promptfoo and
// the floor on 10,000 items.
func TestREADMESpeedTableComesFromTheBench(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("bash", "../../bench/readme-table.sh", speedSummary).Output()
	if err != nil {
		t.Fatalf("bench/readme-table.sh: %v", err)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "\n"+string(out)) {
		t.Errorf("README.md's speed table is not bench/readme-table.sh %s; paste its output:\n%s", speedSummary, out)
	}
	sum, err := os.ReadFile(speedSummary)
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(sum)), "\n")[1:] {
		f := strings.Split(line, "\t")
		if len(f) != 5 || f[0] != "10000" {
			t.Errorf("summary line %q; want 10000 items and 5 columns", line)
			continue
		}
		if runs := strings.Fields(f[4]); len(runs) < 3 || len(runs)%2 == 0 {
			t.Errorf("%s: %d runs; want the median of an odd number, 3 or more (REPEAT=3 or 5)", f[1], len(runs))
		}
		tools[f[1]] = true
	}
	for _, tool := range []string{"floor", "evalgate", "promptfoo"} {
		if !tools[tool] {
			t.Errorf("the summary has no %s measurement", tool)
		}
	}
}

// bench/readme-table.sh's arithmetic, on numbers chosen to check by hand.
func TestReadmeTableScript(t *testing.T) {
	t.Parallel()
	path := t.TempDir() + "/summary.tsv"
	tsv := "items\ttool\twall_s_median\tpeak_rss_kb_median\truns_wall_s\n" +
		"10000\tfloor\t0.10\t10240\t0.10 0.09 0.11\n" +
		"10000\tevalgate\t0.50\t20480\t0.50 0.40 0.60\n" +
		"10000\tpromptfoo\t100.00\t409600\t99.00 100.00 101.00\n"
	if err := os.WriteFile(path, []byte(tsv), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("bash", "../../bench/readme-table.sh", path).Output()
	if err != nil {
		t.Fatal(err)
	}
	// 0.50 / 100 = 0.0050 (200× faster); 20480 KB = 20 MiB, 409600 KB = 400 MiB:
	// 20 / 400 = 0.050 (20.0× less).
	want := "| 10,000 | 0.50 s | 100.0 s | **0.0050** (200× faster) | 20 MiB | 400 MiB | **0.050** (20.0× less) |\n"
	if !strings.Contains(string(out), want) {
		t.Errorf("output:\n%s\nwant the row:\n%s", out, want)
	}
	if !strings.Contains(string(out), "Medians of 3 interleaved runs at 10,000 items; wall time of each run: evalgate 0.50, 0.40, 0.60 s, promptfoo 99.00, 100.00, 101.00 s; the floor") {
		t.Errorf("output:\n%s\nwant the runs listed", out)
	}
}
