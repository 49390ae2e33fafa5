package cli_test

import (
	"encoding/json"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// shardInWorkspace scores results files (one per run, relative to the workspace ws) in
// four shards in ws (shards/shard-k.json), as the jobs of a matrix would, and, when
// merged is set, joins them into merged.json with evalgate merge.
func shardInWorkspace(t *testing.T, bin, ws string, results []string, merged bool) {
	t.Helper()
	run := func(args ...string) {
		cmd := exec.Command(bin, args...)
		cmd.Dir, cmd.Env = ws, []string{"PATH=" + os.Getenv("PATH"), "HOME=" + ws, "GITHUB_SHA=" + e2eMerge}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("evalgate %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	var shards []string
	for k := 1; k <= 4; k++ {
		out := filepath.Join("shards", "shard-"+string(rune('0'+k))+".json")
		args := []string{"score", "--shard", string(rune('0'+k)) + "/4", "--format", "json", "--out", out}
		for _, r := range results {
			args = append(args, "--results", r)
		}
		run(args...)
		shards = append(shards, out)
	}
	if merged {
		run(append([]string{"merge", "--no-baseline", "--format", "json", "--out", "merged.json"}, shards...)...)
	}
}

// reproduceLine matches the comment's "Reproduce locally" line, the one place where a
// gate on a merged report rightly differs from the unsharded run's comment.
var reproduceLine = regexp.MustCompile(`(?m)^<sub>Reproduce locally: <code>(.*)</code></sub>$`)

// TestActionGatesOnMergedReport: the action's report input gates on the report of
// evalgate merge (or on the shards' partial reports directly) with the verdict, outputs,
// sticky comment, check run, annotations and requests of the action on the unsharded
// results. Only the comment's reproduce command differs: it names the report.
func TestActionGatesOnMergedReport(t *testing.T) {
	bin := buildEvalgate(t)
	for _, tc := range []struct {
		results, report string
		merged          bool
		exit            int
		reproduce       string
	}{
		{"regressed.jsonl", "merged.json", true, 1, "evalgate check --report merged.json"},
		{"pr.jsonl", "merged.json", true, 0, "evalgate check --report merged.json"},
		{"regressed.jsonl", "shards/*.json", false, 1, "evalgate merge shards/shard-1.json shards/shard-2.json shards/shard-3.json shards/shard-4.json"},
	} {
		t.Run(tc.results+" "+tc.report, func(t *testing.T) {
			t.Parallel()
			f := newFakeGitHub(t, fakeRepo{baseFiles: baseFiles(t), changed: []string{"src/tutor.py"}})
			whole := runAction(t, bin, f, prSpec("pull_request.opened", tc.results, nil))
			wantExit(t, whole, tc.exit)
			wholeComment, wholeCalls := onlyComment(t, f), f.takeCalls()

			g := newFakeGitHub(t, fakeRepo{baseFiles: baseFiles(t), changed: []string{"src/tutor.py"}})
			spec := prSpec("pull_request.opened", "", map[string]string{"results": "", "report": tc.report})
			spec.setup = func(t *testing.T, ws string) {
				shardInWorkspace(t, bin, ws, []string{"examples/tutor-capstone/results/" + tc.results}, tc.merged)
			}
			sharded := runAction(t, bin, g, spec)
			wantExit(t, sharded, tc.exit)
			if diff := cmp.Diff(whole.outputs, sharded.outputs); diff != "" {
				t.Errorf("outputs (-unsharded +report input):\n%s", diff)
			}
			if diff := cmp.Diff(wholeCalls, g.takeCalls()); diff != "" {
				t.Errorf("requests to GitHub (-unsharded +report input):\n%s", diff)
			}
			comment := onlyComment(t, g)
			if m := reproduceLine.FindStringSubmatch(comment); m == nil || m[1] != tc.reproduce {
				t.Errorf("the comment's reproduce command is %q; want %q", m, tc.reproduce)
			}
			same := func(s string) string { return reproduceLine.ReplaceAllString(s, "<sub>Reproduce locally</sub>") }
			if diff := cmp.Diff(same(wholeComment), same(comment)); diff != "" {
				t.Errorf("sticky comment (-unsharded +report input):\n%s", diff)
			}
			wantSummary(t, sharded, comment)
			f.mu.Lock()
			g.mu.Lock()
			if len(f.checkRuns) != 1 || len(g.checkRuns) != 1 {
				t.Fatalf("check runs: %d unsharded, %d with the report input; want 1 each", len(f.checkRuns), len(g.checkRuns))
			}
			fr, gr := f.checkRuns[0], g.checkRuns[0]
			if fr.conclusion() != gr.conclusion() || cmp.Diff(fr.annotations(), gr.annotations()) != "" {
				t.Errorf("check run: conclusion %q with %d annotations unsharded, %q with %d with the report input",
					fr.conclusion(), len(fr.annotations()), gr.conclusion(), len(gr.annotations()))
			}
			ft, gt := fr.updates[len(fr.updates)-1].GetOutput().GetTitle(), gr.updates[len(gr.updates)-1].GetOutput().GetTitle()
			g.mu.Unlock()
			f.mu.Unlock()
			if ft != gt {
				t.Errorf("check run title %q with the report input; want the unsharded %q", gt, ft)
			}
			if left, _ := os.ReadDir(sharded.tmp); len(left) > 0 {
				t.Errorf("temporary files left behind: %v", left)
			}
		})
	}
}

// TestActionReportInputErrors: a report input that cannot be gated on stops the step
// with exit 2 and an error naming the input or the file, before anything is judged.
func TestActionReportInputErrors(t *testing.T) {
	bin := buildEvalgate(t)
	for _, tc := range []struct {
		name   string
		inputs map[string]string
		setup  func(t *testing.T, bin, ws string)
		want   string
	}{
		{"no such file", map[string]string{"report": "merged.json"}, nil,
			`input "report": "merged.json" matches no file in `},
		{"with results", map[string]string{"report": "merged.json", "results": "examples/tutor-capstone/results/pr.jsonl"}, nil,
			`input "report": "merged.json" gates on a report already scored: leave the results input empty`},
		{"in baseline mode, no such file", map[string]string{"report": "merged.json", "mode": "baseline"}, nil,
			`input "report": "merged.json" matches no file in `},
		{"not JSON", map[string]string{"report": "examples/tutor-capstone/suite.yaml"}, nil,
			`examples/tutor-capstone/suite.yaml: not an evalgate JSON report`},
		{"results, not a report", map[string]string{"report": "examples/tutor-capstone/results/pr.jsonl"}, nil,
			`examples/tutor-capstone/results/pr.jsonl: is not a shard's report (no shard_state)`},
		{"a plain report, not a shard's", map[string]string{"report": "plain.json"}, func(t *testing.T, bin, ws string) {
			cmd := exec.Command(bin, "score", "--results", "examples/tutor-capstone/results/pr.jsonl", "--format", "json", "--out", "plain.json")
			cmd.Dir, cmd.Env = ws, []string{"PATH=" + os.Getenv("PATH"), "HOME=" + ws}
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("evalgate score: %v\n%s", err, out)
			}
		}, `plain.json: is not a shard's report (no shard_state)`},
		{"a shard missing", map[string]string{"report": "shards/shard-[123].json"}, func(t *testing.T, bin, ws string) {
			shardInWorkspace(t, bin, ws, []string{"examples/tutor-capstone/results/pr.jsonl"}, false)
		}, `gap: shard 4/4 missing`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFakeGitHub(t, fakeRepo{baseFiles: baseFiles(t)})
			inputs := map[string]string{"results": ""}
			for k, v := range tc.inputs {
				inputs[k] = v
			}
			spec := prSpec("pull_request.opened", "", inputs)
			if tc.inputs["mode"] == "baseline" {
				spec = actionSpec{eventName: "release", event: "release.published", inputs: inputs}
			}
			if tc.setup != nil {
				spec.setup = func(t *testing.T, ws string) { tc.setup(t, bin, ws) }
			}
			run := runAction(t, bin, f, spec)
			wantExit(t, run, 2)
			if !strings.Contains(strings.ReplaceAll(run.stdout, "%0A", "\n"), tc.want) {
				t.Errorf("no error %q in the log:\n%s", tc.want, run.stdout)
			}
			if len(f.comments) > 0 {
				t.Errorf("a comment was written on bad input")
			}
		})
	}
}

// TestActionBaselineFromMergedReport: mode baseline with the report input writes, from
// the merged report of the release's three runs scored in four shards, the baseline the
// action writes from the three results files: the same header (bar the time it was made
// and the recorded outputs it cannot keep) and the same items.
func TestActionBaselineFromMergedReport(t *testing.T) {
	bin := buildEvalgate(t)
	runs := []string{"examples/tutor-capstone/release/run1.jsonl", "examples/tutor-capstone/release/run2.jsonl", "examples/tutor-capstone/release/run3.jsonl"}
	inputs := map[string]string{"mode": "baseline", "refresh": "file", "baseline": "out/tutor-capstone.jsonl"}
	f := newFakeGitHub(t, fakeRepo{baseFiles: baseFiles(t)})
	in := maps.Clone(inputs)
	in["results"] = "examples/tutor-capstone/release/run*.jsonl"
	whole := runAction(t, bin, f, actionSpec{eventName: "release", event: "release.published", inputs: in})
	wantExit(t, whole, 0)

	in = maps.Clone(inputs)
	in["report"] = "merged.json"
	sharded := runAction(t, bin, f, actionSpec{eventName: "release", event: "release.published", inputs: in,
		setup: func(t *testing.T, ws string) { shardInWorkspace(t, bin, ws, runs, true) }})
	wantExit(t, sharded, 0)
	wantCalls(t, f.takeCalls(), nil)
	if diff := cmp.Diff(whole.outputs, sharded.outputs); diff != "" {
		t.Errorf("outputs (-results +report):\n%s", diff)
	}
	// header: every field but created_at and the recorded outputs; then the items.
	lines := func(run actionRun) (map[string]any, []string) {
		all := strings.Split(strings.TrimSpace(e2eRead(t, filepath.Join(run.workspace, "out", "tutor-capstone.jsonl"))), "\n")
		var head map[string]any
		if err := json.Unmarshal([]byte(all[0]), &head); err != nil {
			t.Fatal(err)
		}
		delete(head, "created_at")
		delete(head, "outputs_file")
		var items []string
		for _, l := range all[1:] {
			if !strings.HasPrefix(l, `{"run":`) { // a recorded output
				items = append(items, l)
			}
		}
		return head, items
	}
	wh, wi := lines(whole)
	sh, si := lines(sharded)
	if diff := cmp.Diff(wh, sh); diff != "" {
		t.Errorf("baseline header (-results +report):\n%s", diff)
	}
	if diff := cmp.Diff(wi, si); diff != "" || len(wi) != 20 {
		t.Errorf("baseline items (%d; -results +report):\n%s", len(wi), diff)
	}
	if !strings.Contains(sharded.summary, "Baseline for **tutor-capstone** from 3 run(s): mean 0.9750") {
		t.Errorf("summary:\n%s", sharded.summary)
	}
}
