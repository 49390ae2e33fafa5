package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docsPath finds a repository page a help text names: README.md or docs/x.md, with an
// optional #anchor.
var docsPath = regexp.MustCompile(`(README\.md|docs/[\w-]+\.md)(#[\w-]+)?`)

// TestHelpNamesItsDocsPage runs every command's -h and checks that it names a page that
// exists, that every anchor it names is a heading of that page (GitHub's slug: lower
// case, punctuation dropped, spaces as dashes), and that the first page it names shows
// the command (`evalgate NAME`). evalgate --help lists every command and names the
// getting-started page.
func TestHelpNamesItsDocsPage(t *testing.T) {
	root := filepath.Join("..", "..")
	for _, cmd := range commands() {
		help := helpOf(t, cmd.name, "-h")
		pages := docsPath.FindAllStringSubmatch(help, -1)
		if len(pages) == 0 {
			t.Errorf("%s -h names no docs page:\n%s", cmd.name, help)
			continue
		}
		for i, p := range pages {
			text, err := os.ReadFile(filepath.Join(root, p[1]))
			if err != nil {
				t.Errorf("%s -h names %s: %v", cmd.name, p[0], err)
				continue
			}
			if p[2] != "" && !hasHeading(string(text), p[2][1:]) {
				t.Errorf("%s -h names %s: %s has no heading whose anchor is %s", cmd.name, p[0], p[1], p[2])
			}
			if i == 0 && !strings.Contains(string(text), "evalgate "+cmd.name) {
				t.Errorf("%s -h names %s first, which never shows `evalgate %s`", cmd.name, p[1], cmd.name)
			}
		}
	}
	help := helpOf(t, "--help")
	for _, cmd := range commands() {
		if !regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(cmd.name) + ` `).MatchString(help) {
			t.Errorf("evalgate --help does not list %s:\n%s", cmd.name, help)
		}
	}
	if !strings.Contains(help, "docs/getting-started.md") {
		t.Errorf("evalgate --help names no getting-started page:\n%s", help)
	}
}

// hasHeading says whether markdown has a heading (outside code blocks) whose GitHub
// anchor is anchor.
func hasHeading(markdown, anchor string) bool {
	drop := regexp.MustCompile(`[^\p{L}\p{N}_\- ]`)
	inCode := false
	for _, line := range strings.Split(markdown, "\n") {
		if strings.HasPrefix(line, "```") {
			inCode = !inCode
			continue
		}
		if inCode || !strings.HasPrefix(line, "#") {
			continue
		}
		h := strings.ToLower(strings.TrimSpace(strings.TrimLeft(line, "#")))
		if strings.ReplaceAll(drop.ReplaceAllString(h, ""), " ", "-") == anchor {
			return true
		}
	}
	return false
}
