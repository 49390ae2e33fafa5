package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// harness is what every trial shares: the evalgate binary (the argv before its
// arguments), the command that re-runs one item for settle (this program in its
// rerun-item mode), and the gate's max_drop.
type harness struct {
	bin     []string
	rerun   []string
	maxDrop float64
	keep    bool // keep each trial's folder
}

// arm is one pull request's outcome: the changed one, or its unchanged twin.
type arm struct {
	blocked  bool    // evalgate check exited 1
	outcome  string  // the regression decision's final outcome: pass, inconclusive or fail
	value    float64 // the estimated drop
	observed float64 // the observed drop of the mean over the full runs (plain's statistic)
	lo, hi   float64 // its 95 % interval
	truth    float64 // the true drop: expected baseline mean − expected candidate mean
	settled  bool    // settle ran (the first look was not a pass)
	rounds   int     // settle rounds
	itemRuns int     // extra item-runs settle made
}

// trialOut is a trial's two arms (null is nil for an unpaired cell) and, for every run
// it drew, the run's mean minus the mean expected over run-level noise.
type trialOut struct {
	alt, null *arm
	devs      []float64
}

// seedOf is a trial's seed: the run's seed, the cell's name and the trial's number.
func seedOf(seed uint64, name string, trial int) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%s/%d", seed, name, trial)
	return h.Sum64()
}

// trial runs one trial of a cell in dir: a suite and baseline runs drawn from the
// model, evalgate baseline, then evalgate check on the changed pull request's runs
// (and on the unchanged twin's).
func (h harness) trial(ctx context.Context, c cell, seed uint64, dir string) (trialOut, error) {
	rng := rand.New(rand.NewPCG(seed, 1))
	base, kinds := c.noise.suiteOf(rng)
	cand, err := c.change.apply(base, kinds, rng)
	if err != nil {
		return trialOut{}, err
	}
	ids := make([]string, len(base))
	var suite strings.Builder
	suite.WriteString("name: sim\nitems:\n")
	for i := range ids {
		ids[i] = fmt.Sprintf("item-%04d", i)
		fmt.Fprintf(&suite, "  - {id: %s, prompt: q, expected_contains: [yes]}\n", ids[i])
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return trialOut{}, err
	}
	if err := os.WriteFile(filepath.Join(dir, "suite.yaml"), []byte(suite.String()), 0o644); err != nil {
		return trialOut{}, err
	}
	expBase := c.noise.expectedMean(base)
	var devs []float64
	// writeRuns draws runs of the items and writes one file each; it returns the files
	// and the runs' mean score.
	writeRuns := func(prefix string, p []float64, runs int) ([]string, float64, error) {
		exp := c.noise.expectedMean(p)
		var files []string
		var total float64
		for r := 1; r <= runs; r++ {
			var b bytes.Buffer
			n := 0.0
			if c.noise.graded {
				for i, k := range c.noise.drawGraded(p, rng) {
					n += float64(k) / 2
					fmt.Fprintf(&b, "{\"id\": %q, \"output\": \"graded\", \"scores\": {\"quality\": %d}}\n", ids[i], k)
				}
			} else {
				for i, ok := range c.noise.draw(p, rng) {
					out := "no"
					if ok {
						out, n = "yes", n+1
					}
					fmt.Fprintf(&b, "{\"id\": %q, \"output\": %q}\n", ids[i], out)
				}
			}
			devs = append(devs, n/float64(len(p))-exp)
			total += n / float64(len(p))
			f := filepath.Join(dir, fmt.Sprintf("%s%d.jsonl", prefix, r))
			if err := os.WriteFile(f, b.Bytes(), 0o644); err != nil {
				return nil, 0, err
			}
			files = append(files, f)
		}
		return files, total / float64(runs), nil
	}
	baseFiles, baseMean, err := writeRuns("base", base, c.baseRuns)
	if err != nil {
		return trialOut{}, err
	}
	cfg, err := h.config(dir, "null", seed^0x5eed, base, ids, c.noise)
	if err != nil {
		return trialOut{}, err
	}
	// Earlier releases, drawn after the baseline's runs (a cell without history draws
	// what it did): each a baseline of its own commit, so the history keeps its record.
	for r := 1; r <= c.history; r++ {
		files, _, err := writeRuns(fmt.Sprintf("release%d-", r), base, c.baseRuns)
		if err != nil {
			return trialOut{}, err
		}
		args := append([]string{"baseline", "--config", cfg, "--quiet", "--sha", fmt.Sprintf("release-%d", r)}, files...)
		if _, err := h.evalgate(ctx, dir, args...); err != nil {
			return trialOut{}, err
		}
	}
	if _, err := h.evalgate(ctx, dir, append([]string{"baseline", "--config", cfg, "--quiet", "--sha", "baseline"}, baseFiles...)...); err != nil {
		return trialOut{}, err
	}
	check := func(name string, p []float64, twinSeed uint64) (*arm, error) {
		files, candMean, err := writeRuns(name, p, c.candRuns)
		if err != nil {
			return nil, err
		}
		cfg, err := h.config(dir, name, twinSeed, p, ids, c.noise)
		if err != nil {
			return nil, err
		}
		a, err := h.check(ctx, dir, name, cfg, files, c.settle)
		if err != nil {
			return nil, err
		}
		a.truth = expBase - c.noise.expectedMean(p)
		// Plain reads the runs as they came: the baseline's mean less the pull
		// request's, never settle's re-runs (the report's observed drop averages them
		// in, and they were chosen by how the items scored).
		a.observed = baseMean - candMean
		return a, nil
	}
	var out trialOut
	if out.alt, err = check("pr", cand, seed^0xa17); err != nil {
		return out, err
	}
	if c.paired {
		if out.null, err = check("twin", base, seed^0x7e1); err != nil {
			return out, err
		}
	}
	out.devs = devs
	if !h.keep {
		_ = os.RemoveAll(dir)
	}
	return out, nil
}

// spec is what the rerun-item mode reads: the pull request's item probabilities and
// run-level noise, and a seed of its own.
type spec struct {
	Seed      uint64             `json:"seed"`
	ShiftSD   float64            `json:"shift_sd"`
	OutageMax float64            `json:"outage_max"`
	AddSD     float64            `json:"add_sd"`
	BadDay    float64            `json:"bad_day"`
	BadFail   float64            `json:"bad_fail"`
	Topics    int                `json:"topics"`
	TopicSD   float64            `json:"topic_sd"`
	ShiftDF   float64            `json:"shift_df,omitempty"`
	P         map[string]float64 `json:"p"`
	Index     map[string]int     `json:"index"` // each item's place in the suite (its topic)
}

// config writes an evalgate.yaml for one pull request: the shared suite and baseline,
// a pass/fail rubric (output "yes" scores 1), and a `run:` block whose command re-runs
// one item from the pull request's own model (for check --settle).
func (h harness) config(dir, name string, seed uint64, p []float64, ids []string, m noise) (string, error) {
	state := filepath.Join(dir, name+"-rerun")
	if err := os.MkdirAll(state, 0o755); err != nil {
		return "", err
	}
	s := spec{Seed: seed, ShiftSD: m.shiftSD, OutageMax: m.outageMax, AddSD: m.addSD, BadDay: m.badDay, BadFail: m.badFail,
		Topics: m.topics, TopicSD: m.topicSD, ShiftDF: m.shiftDF, P: make(map[string]float64, len(p)), Index: make(map[string]int, len(p))}
	for i, id := range ids {
		s.P[id], s.Index[id] = p[i], i
	}
	b, err := json.Marshal(s)
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(state, "spec.json"), b, 0o644); err != nil {
		return "", err
	}
	var argv []string
	for _, a := range append(append([]string(nil), h.rerun...), state) {
		argv = append(argv, strconv.Quote(a))
	}
	dim := "{name: correctness, weight: 1.0, scorer: contains}"
	if m.graded {
		dim = `{name: quality, weight: 1.0, scorer: recorded, scale: "0-2"}`
	}
	cfg := fmt.Sprintf(`name: sim
suite: suite.yaml
baseline: baseline.jsonl
run:
  concurrency: 4
  exec:
    command: [%s]
scoring:
  version: scoringSystem/1.0.0
  dimensions:
    - %s
grading:
  version: gradingSystem/1.0.0
  regression: {max_drop: %s}
`, strings.Join(argv, ", "), dim, strconv.FormatFloat(h.maxDrop, 'f', -1, 64))
	path := filepath.Join(dir, name+".yaml")
	return path, os.WriteFile(path, []byte(cfg), 0o644)
}

// check runs evalgate check (with --settle when asked) and reads its JSON report.
func (h harness) check(ctx context.Context, dir, name, cfg string, files []string, settle bool) (*arm, error) {
	report := filepath.Join(dir, name+"-report.json")
	args := []string{"check", "--config", cfg, "--format", "json", "--out", report, "--quiet"}
	if settle {
		args = append(args, "--settle", "--settle-dir", filepath.Join(dir, name+"-settled"))
	}
	code, err := h.evalgate(ctx, dir, append(args, files...)...)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(report)
	if err != nil {
		return nil, err
	}
	var r struct {
		Regression *struct {
			Outcome  string  `json:"outcome"`
			Value    float64 `json:"value"`
			Interval struct {
				Lo float64 `json:"lo"`
				Hi float64 `json:"hi"`
			} `json:"interval"`
		} `json:"regression"`
		Settle *struct {
			Rounds   []json.RawMessage `json:"rounds"`
			ItemRuns int               `json:"item_runs"`
		} `json:"settle"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", report, err)
	}
	if r.Regression == nil {
		return nil, fmt.Errorf("%s: no regression decision", report)
	}
	a := &arm{blocked: code == 1, outcome: r.Regression.Outcome, value: r.Regression.Value,
		lo: r.Regression.Interval.Lo, hi: r.Regression.Interval.Hi}
	if r.Settle != nil {
		a.settled, a.rounds, a.itemRuns = true, len(r.Settle.Rounds), r.Settle.ItemRuns
	}
	return a, nil
}

// evalgate runs the binary in dir with a clean environment (no CI variables, the
// time pinned) and returns its exit code: 0 or 1; anything else is an error.
func (h harness) evalgate(ctx context.Context, dir string, args ...string) (int, error) {
	cmd := exec.CommandContext(ctx, h.bin[0], append(h.bin[1:len(h.bin):len(h.bin)], args...)...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "TMPDIR=" + os.TempDir(), "SOURCE_DATE_EPOCH=0"}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, nil
	case errors.As(err, &ee) && ee.ExitCode() == 1:
		return 1, nil
	}
	return 0, fmt.Errorf("evalgate %s: %v: %s", strings.Join(args, " "), err, tail(stderr.String()))
}

func tail(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 2000 {
		s = "…" + s[len(s)-2000:]
	}
	return s
}
