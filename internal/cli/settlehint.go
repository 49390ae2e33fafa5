package cli

import (
	"fmt"
	"strings"

	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/importer"
)

// rerunWay is how a config re-runs items: what `check --settle` runs, and so which
// command the report prints to settle an inconclusive verdict.
type rerunWay int

const (
	// rerunByNone: nothing re-runs items (no `rerun:` command, and no `run:` block, or
	// one beside another tool's results: `run:` writes evalgate's own).
	rerunByNone rerunWay = iota
	// rerunByCommand: the config's `rerun:` command, for the tool that made the results.
	rerunByCommand
	// rerunByRun: the config's `run:` block (evalgate run), for evalgate's results.
	rerunByRun
)

// rerunWayOf is how cfg re-runs items of results in format; an unknown format (""; a
// merge of reports) counts as evalgate's.
func rerunWayOf(cfg *config.Config, format importer.Format) rerunWay {
	switch {
	case cfg.Rerun != nil:
		return rerunByCommand
	case cfg.Run != nil && (format == importer.Evalgate || format == ""):
		return rerunByRun
	}
	return rerunByNone
}

// rerunCommand is the command that re-runs the items ids (those that carried the
// decision) and checks again with their extra runs, to settle an inconclusive result,
// as the config can: through the `run:` block (evalgate run --only, then check
// --rerun), or through the `rerun:` command (check --settle runs it). When the config
// has neither, there is no command: hint says what to do instead.
func rerunCommand(plan CheckPlan, l *Loaded, ids []string) (command, hint string) {
	switch l.way {
	case rerunByCommand:
		return settleHere(plan, l), ""
	case rerunByRun:
		cfg := ""
		if plan.Config != config.DefaultFile {
			cfg = " " + shellFlag("--config", plan.Config)
		}
		out := rerunOut(len(plan.Reruns)+1, plan.Results, l.Config)
		again := plan
		again.Reruns = append(append([]string(nil), plan.Reruns...), out)
		only := make([]string, len(ids))
		for i, id := range ids {
			only[i] = shellFlag("--only", id) // one each: an id may hold a comma
		}
		return fmt.Sprintf("evalgate run%s %s %s && %s", cfg, strings.Join(only, " "), shellFlag("--out", out), reproduce(again, l)), ""
	}
	if l.format != "" && l.format != importer.Evalgate {
		return "", fmt.Sprintf("re-run the evidence items with %s and check again with its results file added as `--rerun FILE`; "+
			"or add a `rerun:` command that re-runs items with %s to the config, and `--settle` re-runs them (docs/settle.md)", l.format, l.format)
	}
	return "", "re-run the evidence items and check again with their results file added as `--rerun FILE`; " +
		"or add a `run:` block (or a `rerun:` command) to the config, and `--settle` re-runs them (docs/settle.md)"
}

// settleHere is the check plan names with `--settle`: it re-runs items as the
// config can, and decides again.
func settleHere(plan CheckPlan, l *Loaded) string { return reproduce(plan, l) + " --settle" }
