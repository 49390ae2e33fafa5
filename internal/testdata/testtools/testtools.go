// Package testtools finds the outside programs some tests drive (xmllint, chromium,
// node). Locally a missing program skips the test; under CI=true it fails it, because
// scripts/install-test-tools.sh (run first by scripts/test.sh and .ci/run) installs every
// one of them and a skipped check there would pass unseen.
package testtools

import (
	"os"
	"os/exec"
	"testing"
)

// Require returns the path of the first of names found on PATH.
func Require(t testing.TB, why string, names ...string) string {
	t.Helper()
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%v not found on PATH (%s); scripts/install-test-tools.sh installs it", names, why)
	}
	t.Skipf("%v not found on PATH (%s); run scripts/install-test-tools.sh", names, why)
	return ""
}
