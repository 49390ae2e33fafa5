package release_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The token never appears on curl's command line, which every process on the runner
// can read (ps, /proc/PID/cmdline): a curl first on PATH records its arguments before
// running the real one. The server still gets the token, quotes and backslashes intact.
func TestSetupKeepsTheTokenOffTheCommandLine(t *testing.T) {
	t.Parallel()
	real, err := exec.LookPath("curl")
	if err != nil {
		t.Skip("no curl")
	}
	f, srv := newFakeRelease(t, "v1.2.3", false)
	wrap, argv := t.TempDir(), filepath.Join(t.TempDir(), "argv")
	script := "#!/bin/sh\nprintf '%s\\n' \"$*\" >>'" + argv + "'\nexec '" + real + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(wrap, "curl"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	token := `s3cret\x"y`
	in := runInstall(t, srv.URL, "latest", token, t.TempDir(), wrap+string(os.PathListSeparator)+os.Getenv("PATH"))
	if in.err != nil {
		t.Fatalf("install: %v\nstdout:\n%s\nstderr:\n%s", in.err, in.stdout, in.stderr)
	}
	calls := read(t, argv)
	if strings.Count(calls, "\n") != 4 { // latest, its redirect, the archive, checksums.txt
		t.Errorf("curl ran %d times; want 4:\n%s", strings.Count(calls, "\n"), calls)
	}
	if strings.Contains(calls, "s3cret") {
		t.Errorf("the token is on curl's command line:\n%s", calls)
	}
	if f.sawToken != "Bearer "+token {
		t.Errorf("Authorization = %q; want %q", f.sawToken, "Bearer "+token)
	}
}
