package cli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/cli"
)

// jargon is the vocabulary of the documents evalgate was built from: references to them
// ("seed 001 §4.4", "the seed", "Phase 39", "ADR-016") mean nothing to a user. "seeded"
// (a seeded random generator) is a real word.
var jargon = regexp.MustCompile(`(?i)\bseed(s?\b|\d)|§|\bphase\b|\badr\b`)

// samplingSeed is the one legitimate "seed": the judge's sampling parameter, which is a
// key in the config and the report (`seed: 42`, "seed": 42, `seed`), called "sampling
// seed" in prose.
var samplingSeed = regexp.MustCompile("(?i)\"seed\":|`seed: 42`|\"seed\"|`seed`|sampling seed")

func findJargon(t *testing.T, name, text string) {
	t.Helper()
	for i, line := range strings.Split(text, "\n") {
		if m := jargon.FindString(samplingSeed.ReplaceAllString(line, "")); m != "" {
			t.Errorf("%s:%d: %q in what users read: %s", name, i+1, m, strings.TrimSpace(line))
		}
	}
}

// TestNoJargon keeps what evalgate prints (every golden report, every command's help),
// the README, the docs, the example READMEs and the schemas' descriptions in the user's
// language.
func TestNoJargon(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("testdata/golden/*")
	readmes, _ := filepath.Glob("../../examples/*/README.md")
	docs, _ := filepath.Glob("../../docs/*.md")
	if len(docs) < 5 {
		t.Fatalf("found only %d docs/*.md", len(docs))
	}
	files = append(files, docs...)
	files = append(files, "../../README.md")
	files = append(files, readmes...)
	if len(files) < 10 {
		t.Fatalf("found only %d files to check; the goldens or READMEs moved", len(files))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		findJargon(t, f, string(b))
	}

	schemas, _ := filepath.Glob("../../schema/*.json")
	if len(schemas) == 0 {
		t.Fatal("no schema found")
	}
	for _, f := range schemas {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc any
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var descs []string
		collectDescriptions(doc, &descs)
		findJargon(t, f, strings.Join(descs, "\n"))
	}

	for _, cmd := range []string{"", "check", "score", "merge", "compare", "baseline", "history", "validate", "judge-check", "init", "import", "run", "action"} {
		var out bytes.Buffer
		c := &cli.CLI{Stdout: &out, Stderr: &out, Getenv: func(string) string { return "" }}
		args := []string{"evalgate", "--help"}
		if cmd != "" {
			args = []string{"evalgate", cmd, "-h"}
		}
		c.Main(args)
		findJargon(t, "evalgate "+cmd+" -h", out.String())
	}
}

func collectDescriptions(v any, out *[]string) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(string); ok && (k == "description" || k == "title") {
				*out = append(*out, s)
			}
			collectDescriptions(x, out)
		}
	case []any:
		for _, x := range v {
			collectDescriptions(x, out)
		}
	}
}

// outside is a path that exists only where evalgate was developed, never in a user's
// clone: docs and scripts must name the repository's own files.
var outside = regexp.MustCompile(`/work/|\.\./shared\b`)

// TestNoPathsOutsideTheRepository keeps the README, the docs, the examples' READMEs and
// the bench scripts free of paths outside the repository.
func TestNoPathsOutsideTheRepository(t *testing.T) {
	t.Parallel()
	var files []string
	for _, pattern := range []string{"../../README.md", "../../docs/*.md", "../../examples/*/README.md", "../../bench/*", "../../bench/promptfoo/*"} {
		m, _ := filepath.Glob(pattern)
		files = append(files, m...)
	}
	if len(files) < 15 {
		t.Fatalf("found only %d files to check", len(files))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			if info, serr := os.Stat(f); serr == nil && info.IsDir() {
				continue
			}
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if m := outside.FindString(line); m != "" {
				t.Errorf("%s:%d: %q names a path outside the repository: %s", f, i+1, m, strings.TrimSpace(line))
			}
		}
	}
}
