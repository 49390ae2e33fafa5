package runner_test

import (
	"os"
	"strings"
)

func writeFile(path, s string) error { return os.WriteFile(path, []byte(s), 0o644) }

func readFile(path string) (string, error) {
	b, err := os.ReadFile(path)
	return string(b), err
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
