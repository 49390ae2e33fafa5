package baseline

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/internal/shellword"
)

// Want is what a check knows of the baseline it is to compare with: the facts Choose
// decides from.
type Want struct {
	// None: compare with nothing (evalgate score, merge --no-baseline).
	None bool
	// Absent, when set, says why the caller found no baseline (the action, at a pull
	// request's base commit: AtBase); AbsentFile is then the file the config names, when
	// it names one that does not exist.
	Absent, AbsentFile string
	// File is the baseline given (--baseline) or the one the config names, as a path;
	// "" when there is none.
	File string
	// Config and Suite are the config file and the suite's name: the command that makes
	// a baseline names them.
	Config, Suite string
	// Results are the results files the check reads, when it was given files (not
	// standard input): the command that makes a baseline names them, so that it runs
	// as printed where they are a release's runs. Empty: it names a placeholder.
	Results []string
}

// Choice is the baseline a check compares with, or why there is none. The gate reads
// Why and Missing (gate.Inputs.NoBaseline and MissingBaseline) and decides what a
// missing baseline does to the verdict (require_baseline, a first adoption).
type Choice struct {
	// File is the baseline file to compare with; "" when there is none.
	File string
	// Renamed, when set, is the note that File is the named file's other name (Find).
	Renamed string
	// Why says why there is no comparison and how to make one; "" when File is set or
	// the check compares with nothing on purpose (Want.None).
	Why string
	// Missing is the named baseline file when it does not exist: not a baseline yet to
	// be made but, often, a misspelt path.
	Missing string
}

// Choose decides what a check compares with: nothing (w.None); nothing, for the reason
// the caller found (w.Absent); nothing, since none is configured; nothing, since the
// named file does not exist (with the nearest existing name); or the file, found under
// either name (Find).
func Choose(w Want) Choice {
	switch {
	case w.None:
		return Choice{}
	case w.Absent != "":
		return Choice{Why: w.Absent, Missing: w.AbsentFile}
	case w.File == "":
		return Choice{Why: fmt.Sprintf("no baseline configured: make one from a release's runs%s with `evalgate baseline %s %s %s` and set `baseline:` in the config",
			w.fromRuns(), shellword.Flag("--config", w.Config), w.resultsFlags(), shellword.Flag("--out", "baselines/"+w.Suite+Ext))}
	}
	path, renamed := Find(w.File)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		msg := "baseline " + path + " does not exist"
		if near := nearest(path); near != "" {
			msg += " (did you mean " + near + "?)"
		}
		msg += ": the regression gate is skipped. Fix `baseline:` in the config, or make one from a release's runs" + w.fromRuns() + " with `evalgate baseline " +
			shellword.Flag("--config", w.Config) + " " + w.resultsFlags() + " " + shellword.Flag("--out", path) + "`"
		return Choice{Why: msg, Missing: path}
	}
	return Choice{File: path, Renamed: renamed}
}

// NoneAtBase is why a pull request has no baseline when the config names none: the
// action compares with the base commit's baseline, which a release refreshes.
const NoneAtBase = "no baseline configured: set `baseline:` in the config, and refresh it on release (mode: baseline)"

// AtBase decides for a pull request whose base commit does not hold the baseline its
// config names, rel (a repository path): when the workspace (root, the pull request's
// checkout) has it, the pull request adds it and nothing is missing; otherwise rel is
// missing, and the message names the nearest existing file.
func AtBase(rel, root string) Want {
	ws := filepath.Join(root, filepath.FromSlash(rel))
	if _, err := os.Stat(ws); err == nil {
		return Want{Absent: fmt.Sprintf("no baseline at %s on the base branch yet: this pull request adds it, and it is compared with once merged", rel)}
	}
	why := "baseline " + rel + " does not exist on the base branch or in this pull request"
	if near := nearest(ws); near != "" {
		if r, err := filepath.Rel(root, near); err == nil {
			why += " (did you mean " + filepath.ToSlash(r) + "?)"
		}
	}
	why += ": the regression gate is skipped. Fix `baseline:` in the config, or merge one made with `evalgate baseline` (or run the action with mode: baseline on release)"
	return Want{Absent: why, AbsentFile: rel}
}

// resultsFlags are the --results flags of the command that makes a baseline: the
// check's own files, quoted for a shell, or a placeholder when it read standard input
// or the config's.
func (w Want) resultsFlags() string {
	if len(w.Results) == 0 || slices.Contains(w.Results, "-") {
		return "--results RUN.jsonl"
	}
	flags := make([]string, len(w.Results))
	for i, f := range w.Results {
		flags[i] = shellword.Flag("--results", f)
	}
	return strings.Join(flags, " ")
}

// fromRuns says which runs the command names: these results, when it names them.
func (w Want) fromRuns() string {
	if len(w.Results) == 0 || slices.Contains(w.Results, "-") {
		return ""
	}
	return " (these results, if they are one)"
}
