package gate_test

import (
	"os/exec"
	"strings"
	"testing"
)

// linksClient lists, of the packages a build of pkgs links, those that call a model or
// draw progress: the OpenAI client (and evalgate's chat client and the judge's live
// caller over it) and the progress packages.
func linksClient(t *testing.T, pkgs ...string) []string {
	t.Helper()
	args := append([]string{"list", "-deps"}, pkgs...)
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	var found []string
	for _, p := range strings.Fields(string(out)) {
		if strings.Contains(p, "openai-go") || strings.Contains(p, "progress") ||
			strings.HasSuffix(p, "/internal/judge/chat") || strings.HasSuffix(p, "/internal/judge/live") {
			found = append(found, p)
		}
	}
	return found
}

// The decision packages read judgments but never call a judge: gate, baseline and report
// link neither the model client nor a progress bar. The judge's client plugs in behind
// judge.Caller from the CLI (package judge/live).
func TestDecisionsLinkNoModelClient(t *testing.T) {
	const m = "github.com/evalgate/evalgate/internal/"
	if got := linksClient(t, m+"gate", m+"baseline", m+"report"); len(got) > 0 {
		t.Errorf("gate, baseline and report link %s; the judge's client belongs in judge/live, wired by the CLI", strings.Join(got, ", "))
	}
	// The check itself finds them where they are.
	if got := linksClient(t, m+"judge/live"); len(got) < 3 {
		t.Errorf("judge/live links only %v; the test no longer recognizes the client or the progress bar", got)
	}
}

// The test helpers under internal/testdata (which ./... leaves out, so neither the build
// nor deadcode counts them as the program) are imported by _test.go files only.
func TestOnlyTestsImportTestHelpers(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}: {{join .Imports \" \"}}", "github.com/evalgate/evalgate/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 20 {
		t.Fatalf("go list found only %d packages", len(lines))
	}
	for _, line := range lines {
		pkg, imports, _ := strings.Cut(line, ": ")
		for _, imp := range strings.Fields(imports) {
			if strings.Contains(imp, "/internal/testdata/") {
				t.Errorf("%s imports %s outside its tests; internal/testdata holds test helpers only", pkg, imp)
			}
		}
	}
}
