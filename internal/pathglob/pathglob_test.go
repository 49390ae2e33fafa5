package pathglob

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestGlob(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, f := range []string{"r/run1.jsonl", "r/run2.jsonl", "r/a/b/run3.jsonl", "r/notes.md"} {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(root, "r", "dir.jsonl"), 0o755); err != nil { // a directory is never a results file
		t.Fatal(err)
	}
	abs := func(ps ...string) []string {
		for i, p := range ps {
			ps[i] = filepath.Join(root, p)
		}
		return ps
	}
	tests := []struct {
		pattern string
		want    []string
	}{
		{"r/run*.jsonl", abs("r/run1.jsonl", "r/run2.jsonl")},
		{"r/*.jsonl", abs("r/run1.jsonl", "r/run2.jsonl")},
		{"r/**/*.jsonl", abs("r/a/b/run3.jsonl", "r/run1.jsonl", "r/run2.jsonl")}, // ** is zero or more directories
		{"r/**/b/*.jsonl", abs("r/a/b/run3.jsonl")},
		{"r/run[2-9].jsonl", abs("r/run2.jsonl")},
		{"r/*.csv", nil},
	}
	for _, tt := range tests {
		got, err := Glob(filepath.Join(root, tt.pattern))
		if err != nil {
			t.Errorf("%s: %v", tt.pattern, err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.pattern, diff)
		}
	}
	if _, err := Glob(filepath.Join(root, "r/**/[.jsonl")); err == nil {
		t.Error("a malformed pattern is accepted")
	}
	if HasMeta("r/run1.jsonl") || !HasMeta("r/run?.jsonl") {
		t.Error("HasMeta")
	}
}

// TestMatchManyDoubleStars: a pattern of 40 "**" against a path of 40 segments that it
// cannot match (the last segment differs). Trying every split of the path for each "**"
// makes C(80,40) ≈ 1e23 attempts, which never ends; the table takes 41×41 cells.
func TestMatchManyDoubleStars(t *testing.T) {
	t.Parallel()
	pat := append(strings.Split(strings.Repeat("**/", 40), "/")[:40], "x.jsonl")
	name := append(strings.Split(strings.Repeat("a/", 39), "/")[:39], "y.jsonl")
	if matchSegments(pat, name) {
		t.Error("matched a path whose file name differs")
	}
	name[39] = "x.jsonl"
	if !matchSegments(pat, name) {
		t.Error("did not match a path the pattern matches")
	}
}

// matchReference is the plain recursive definition of "**", exponential but obviously
// right; the fuzz target checks matchSegments against it on small inputs.
func matchReference(pat, name []string) bool {
	if len(pat) == 0 {
		return len(name) == 0
	}
	if pat[0] == "**" {
		for i := 0; i <= len(name); i++ {
			if matchReference(pat[1:], name[i:]) {
				return true
			}
		}
		return false
	}
	if len(name) == 0 {
		return false
	}
	ok, _ := path.Match(pat[0], name[0])
	return ok && matchReference(pat[1:], name[1:])
}

// FuzzMatchSegments: a results pattern and a path (both outside input) never panic, and
// matchSegments agrees with the recursive definition wherever that one is quick.
func FuzzMatchSegments(f *testing.F) {
	f.Add("r/**/*.jsonl", "r/a/b/run3.jsonl")
	f.Add("**/b/**/c", "a/b/x/c")
	f.Add("**/**/**", "")
	f.Add("r/[a-/x", "r/a/x")
	f.Add("a/**", "a")
	f.Fuzz(func(t *testing.T, p, n string) {
		pat, name := strings.Split(p, "/"), strings.Split(n, "/")
		got := matchSegments(pat, name)
		if len(pat) > 8 || len(name) > 8 {
			return
		}
		if want := matchReference(pat, name); got != want {
			t.Fatalf("matchSegments(%q, %q) = %v, want %v", p, n, got, want)
		}
	})
}
