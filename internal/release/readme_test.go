package release_test

import (
	"os"
	"strings"
	"testing"
)

// TestREADMEOpensWithInstall checks that the README says how to get evalgate (a release
// binary, go install, the action, the setup action) before the commands that need a
// clone of this repository.
func TestREADMEOpensWithInstall(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	repoCmd := strings.Index(readme, "go run ./cmd/evalgate check")
	if repoCmd < 0 {
		t.Fatal("README has no `go run ./cmd/evalgate check`")
	}
	for _, want := range []string{
		"## Install",
		"releases/latest/download/evalgate_linux_amd64.tar.gz",
		"go install github.com/evalgate/evalgate/cmd/evalgate@latest",
		"uses: evalgate/evalgate@v1",
		"uses: evalgate/evalgate/setup@v1",
		"docs/getting-started.md",
	} {
		i := strings.Index(readme, want)
		if i < 0 || i > repoCmd {
			t.Errorf("README: %q is not before the repository commands", want)
		}
	}
	if first := strings.Index(readme, "\n## "); first < 0 || !strings.HasPrefix(readme[first:], "\n## Install") {
		t.Errorf("README's first section is not Install")
	}
}
