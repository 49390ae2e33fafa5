package baseline

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// What a check compares with, from the facts: each case states the files that exist and
// the choice, message included, by hand.
func TestChoose(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"tutor.jsonl", "old.json"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	at := func(name string) string { return filepath.Join(dir, name) }
	for _, tt := range []struct {
		name string
		want Want
		is   Choice
	}{
		{"score: nothing, on purpose", Want{None: true, File: at("tutor.jsonl")}, Choice{}},
		{"the action found none at the base commit", Want{Absent: "not at base", AbsentFile: "b/x.jsonl", File: at("tutor.jsonl")},
			Choice{Why: "not at base", Missing: "b/x.jsonl"}},
		{"none configured: how to make one", Want{Config: "my evalgate.yaml", Suite: "tutor"},
			Choice{Why: "no baseline configured: make one from a release's runs with `evalgate baseline --config 'my evalgate.yaml' --results RUN.jsonl --out baselines/tutor.jsonl` and set `baseline:` in the config"}},
		// The check's own results files, quoted as a shell needs them, so the command
		// runs as printed; standard input leaves the placeholder.
		{"none configured: the check's results named", Want{Config: "evalgate.yaml", Suite: "tutor", Results: []string{"runs/run 1.jsonl", "runs/run2.jsonl"}},
			Choice{Why: "no baseline configured: make one from a release's runs (these results, if they are one) with `evalgate baseline --config evalgate.yaml --results 'runs/run 1.jsonl' --results runs/run2.jsonl --out baselines/tutor.jsonl` and set `baseline:` in the config"}},
		{"none configured: standard input", Want{Config: "evalgate.yaml", Suite: "tutor", Results: []string{"-"}},
			Choice{Why: "no baseline configured: make one from a release's runs with `evalgate baseline --config evalgate.yaml --results RUN.jsonl --out baselines/tutor.jsonl` and set `baseline:` in the config"}},
		{"a missing file: the check's results named", Want{File: at("zzzzzzzzzz.jsonl"), Config: "evalgate.yaml", Results: []string{"pr.jsonl"}}, Choice{
			Why: "baseline " + at("zzzzzzzzzz.jsonl") + " does not exist: the regression gate is skipped. " +
				"Fix `baseline:` in the config, or make one from a release's runs (these results, if they are one) with `evalgate baseline --config evalgate.yaml --results pr.jsonl --out " + at("zzzzzzzzzz.jsonl") + "`",
			Missing: at("zzzzzzzzzz.jsonl")}},
		{"the file", Want{File: at("tutor.jsonl")}, Choice{File: at("tutor.jsonl")}},
		{"the file under its new name", Want{File: at("old.jsonl")}, Choice{File: at("old.json"),
			Renamed: "baseline " + at("old.jsonl") + " does not exist; reading " + at("old.json") + ", its name before baselines were written as .jsonl"}},
		{"a misspelt file: missing, with the nearest name", Want{File: at("tutr.jsonl"), Config: "evalgate.yaml"}, Choice{
			Why: "baseline " + at("tutr.jsonl") + " does not exist (did you mean " + at("tutor.jsonl") + "?): the regression gate is skipped. " +
				"Fix `baseline:` in the config, or make one from a release's runs with `evalgate baseline --config evalgate.yaml --results RUN.jsonl --out " + at("tutr.jsonl") + "`",
			Missing: at("tutr.jsonl")}},
		{"a file nothing is close to", Want{File: at("zzzzzzzzzz.jsonl"), Config: "evalgate.yaml"}, Choice{
			Why: "baseline " + at("zzzzzzzzzz.jsonl") + " does not exist: the regression gate is skipped. " +
				"Fix `baseline:` in the config, or make one from a release's runs with `evalgate baseline --config evalgate.yaml --results RUN.jsonl --out " + at("zzzzzzzzzz.jsonl") + "`",
			Missing: at("zzzzzzzzzz.jsonl")}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := Choose(tt.want); got != tt.is {
				t.Errorf("Choose(%+v)\n got %+v\nwant %+v", tt.want, got, tt.is)
			}
		})
	}
}

// A pull request whose base commit lacks the baseline: the pull request adds it (not
// missing), or it is nowhere (missing, with the nearest file in the checkout).
func TestAtBase(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "baselines"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "baselines", "tutor.jsonl"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		rel  string
		want Want
	}{
		{"baselines/tutor.jsonl", Want{Absent: "no baseline at baselines/tutor.jsonl on the base branch yet: this pull request adds it, and it is compared with once merged"}},
		{"baselines/tutr.jsonl", Want{AbsentFile: "baselines/tutr.jsonl", Absent: "baseline baselines/tutr.jsonl does not exist on the base branch or in this pull request (did you mean baselines/tutor.jsonl?): " +
			"the regression gate is skipped. Fix `baseline:` in the config, or merge one made with `evalgate baseline` (or run the action with mode: baseline on release)"}},
		{"elsewhere/zzzzzzzz.jsonl", Want{AbsentFile: "elsewhere/zzzzzzzz.jsonl", Absent: "baseline elsewhere/zzzzzzzz.jsonl does not exist on the base branch or in this pull request: " +
			"the regression gate is skipped. Fix `baseline:` in the config, or merge one made with `evalgate baseline` (or run the action with mode: baseline on release)"}},
	} {
		if got := AtBase(tt.rel, root); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("AtBase(%q)\n got %+v\nwant %+v", tt.rel, got, tt.want)
		}
	}
	// What the action then decides: the absent baseline, never a file.
	if c := Choose(AtBase("baselines/tutr.jsonl", root)); c.File != "" || c.Missing != "baselines/tutr.jsonl" {
		t.Errorf("Choose(AtBase) = %+v; want no file, missing baselines/tutr.jsonl", c)
	}
}
