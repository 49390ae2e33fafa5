package cli

import (
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/importer"
	"github.com/evalgate/evalgate/internal/runner"
	"github.com/evalgate/evalgate/internal/settle"
)

// The settle hint is what the config can run: `evalgate run --only` (one per item)
// through a `run:` block for evalgate's results, `check --settle` through a `rerun:`
// command, and no command, but what to do, when nothing re-runs the results' items (a
// `run:` block writes evalgate's own results, not promptfoo's).
func TestRerunCommandFollowsTheConfig(t *testing.T) {
	run, rerun := &runner.Config{}, settle.Command{"sh", "rerun.sh", "{out}", "{ids}"}
	plan := CheckPlan{Config: "my config.yaml", Results: []string{"runs/*.jsonl"}}
	for _, c := range []struct {
		name          string
		run           *runner.Config
		rerun         settle.Command
		format        importer.Format
		command, hint string
	}{
		{"run block", run, nil, importer.Evalgate,
			`evalgate run --config 'my config.yaml' --only 'a, b' --only 'it'\''s' --out rerun1.jsonl && evalgate check --config 'my config.yaml' --results 'runs/*.jsonl' --rerun rerun1.jsonl`, ""},
		{"rerun command", nil, rerun, importer.Promptfoo, "evalgate check --config 'my config.yaml' --results 'runs/*.jsonl' --settle", ""},
		{"both", run, rerun, importer.Evalgate, "evalgate check --config 'my config.yaml' --results 'runs/*.jsonl' --settle", ""},
		{"neither", nil, nil, importer.Evalgate, "", "add a `run:` block (or a `rerun:` command)"},
		{"run block, promptfoo's results", run, nil, importer.Promptfoo, "", "re-run the evidence items with promptfoo and check again"},
	} {
		cfg := &config.Config{Run: c.run, Rerun: c.rerun}
		l := &Loaded{Config: cfg, format: c.format, way: rerunWayOf(cfg, c.format)}
		cmd, hint := rerunCommand(plan, l, []string{"a, b", "it's"})
		if cmd != c.command || c.hint == "" && hint != "" || !strings.Contains(hint, c.hint) {
			t.Errorf("%s: command %q, hint %q; want %q, a hint with %q", c.name, cmd, hint, c.command, c.hint)
		}
	}
}
