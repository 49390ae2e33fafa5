package release_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/evalgate/evalgate/internal/testdata/testtools"
)

// fakeRelease serves one release the way GitHub lays releases out:
// /download/<tag>/<asset> and /latest → /tag/<tag>. It counts requests per path and
// records the Authorization header it saw.
type fakeRelease struct {
	tag      string
	assets   map[string][]byte
	mu       sync.Mutex
	hits     map[string]int
	sawToken string
}

func newFakeRelease(t *testing.T, tag string, corrupt bool) (*fakeRelease, *httptest.Server) {
	t.Helper()
	script := "#!/bin/sh\necho \"evalgate " + tag + "\"\n"
	archive := tarGz(t, "evalgate", script)
	// The Windows archive holds evalgate.exe; here a script too, so the test runs on Linux.
	winArchive := tarGz(t, "evalgate.exe", script)
	sum, winSum := sha256.Sum256(archive), sha256.Sum256(winArchive)
	if corrupt {
		sum[0] ^= 0xff
	}
	f := &fakeRelease{tag: tag, hits: map[string]int{}, assets: map[string][]byte{
		"evalgate_linux_amd64.tar.gz":   archive,
		"evalgate_windows_amd64.tar.gz": winArchive,
		// GoReleaser's checksums.txt: "<sha256>  <file>", one line per archive.
		"checksums.txt": []byte(fmt.Sprintf("%s  evalgate_darwin_arm64.tar.gz\n%s  evalgate_linux_amd64.tar.gz\n%s  evalgate_windows_amd64.tar.gz\n",
			strings.Repeat("0", 64), hex.EncodeToString(sum[:]), hex.EncodeToString(winSum[:]))),
	}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.hits[r.URL.Path]++
		if a := r.Header.Get("Authorization"); a != "" {
			f.sawToken = a
		}
		f.mu.Unlock()
		switch {
		case r.URL.Path == "/latest":
			http.Redirect(w, r, "/tag/"+tag, http.StatusFound)
		case r.URL.Path == "/tag/"+tag:
			fmt.Fprintf(w, "release %s", tag)
		case strings.HasPrefix(r.URL.Path, "/download/"+tag+"/"):
			b, ok := f.assets[strings.TrimPrefix(r.URL.Path, "/download/"+tag+"/")]
			if !ok {
				http.NotFound(w, r)
				return
			}
			w.Write(b)
		case strings.HasPrefix(r.URL.Path, "/download/"): // another release: absent
			http.NotFound(w, r)
		default:
			t.Errorf("unexpected request %s %s", r.Method, r.URL.Path)
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return f, srv
}

func (f *fakeRelease) downloads() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.hits["/download/"+f.tag+"/evalgate_linux_amd64.tar.gz"]
}

func tarGz(t *testing.T, name, content string) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o755, Size: int64(len(content)), Typeflag: tar.TypeReg}); err != nil {
		t.Fatal(err)
	}
	if _, err := tw.Write([]byte(content)); err != nil {
		t.Fatal(err)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

type install struct {
	toolCache, outputs, path string
	stdout, stderr           string
	err                      error
}

// runInstall runs setup/install.sh as the composite action does, with the runner's
// variables pointing into a temp dir. pathDir, when set, is the whole PATH.
func runInstall(t *testing.T, baseURL, version, token, toolCache, pathDir string, extraEnv ...string) install {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the fake release serves the linux/amd64 archive")
	}
	tmp := t.TempDir()
	in := install{toolCache: toolCache, outputs: filepath.Join(tmp, "out"), path: filepath.Join(tmp, "path")}
	cmd := exec.Command("bash", "../../setup/install.sh")
	env := []string{
		"RUNNER_OS=Linux", "RUNNER_ARCH=X64", "RUNNER_TOOL_CACHE=" + toolCache, "TMPDIR=" + tmp,
		"GITHUB_OUTPUT=" + in.outputs, "GITHUB_PATH=" + in.path,
		"EVALGATE_BASE_URL=" + baseURL, "EVALGATE_VERSION=" + version, "EVALGATE_TOKEN=" + token,
	}
	if pathDir != "" {
		env = append(env, "PATH="+pathDir)
	} else {
		env = append(env, "PATH="+os.Getenv("PATH"))
	}
	cmd.Env = append(env, extraEnv...) // later entries win
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	in.err = cmd.Run()
	in.stdout, in.stderr = stdout.String(), stderr.String()
	return in
}

func read(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		return ""
	}
	return string(b)
}

func TestSetupInstallsAVerifiedRelease(t *testing.T) {
	t.Parallel()
	f, srv := newFakeRelease(t, "v1.2.3", false)
	cache := t.TempDir()
	in := runInstall(t, srv.URL, "v1.2.3", "s3cret", cache, "")
	if in.err != nil {
		t.Fatalf("install: %v\nstdout:\n%s\nstderr:\n%s", in.err, in.stdout, in.stderr)
	}
	dir := filepath.Join(cache, "evalgate", "1.2.3", "x64")
	bin := filepath.Join(dir, "evalgate")
	if got, want := read(t, in.outputs), "version=v1.2.3\npath="+bin+"\n"; got != want {
		t.Errorf("GITHUB_OUTPUT = %q; want %q", got, want)
	}
	if got := read(t, in.path); got != dir+"\n" {
		t.Errorf("GITHUB_PATH = %q; want %q", got, dir+"\n")
	}
	if _, err := os.Stat(dir + ".complete"); err != nil {
		t.Errorf("tool cache marker: %v", err)
	}
	if !strings.Contains(in.stdout, "SHA-256 verified") || !strings.Contains(in.stdout, "evalgate v1.2.3") {
		t.Errorf("stdout:\n%s", in.stdout)
	}
	if f.sawToken != "Bearer s3cret" {
		t.Errorf("Authorization = %q; want the token as a bearer token", f.sawToken)
	}

	// A second job on the same runner: from the tool cache, no download.
	again := runInstall(t, srv.URL, "1.2.3", "", cache, "")
	if again.err != nil {
		t.Fatalf("second install: %v\n%s", again.err, again.stderr)
	}
	if !strings.Contains(again.stdout, "found in the tool cache") || f.downloads() != 1 {
		t.Errorf("second install downloaded again (%d downloads):\n%s", f.downloads(), again.stdout)
	}
}

func TestSetupResolvesLatest(t *testing.T) {
	t.Parallel()
	_, srv := newFakeRelease(t, "v2.0.1", false)
	in := runInstall(t, srv.URL, "latest", "", t.TempDir(), "")
	if in.err != nil {
		t.Fatalf("install: %v\n%s", in.err, in.stderr)
	}
	if !strings.HasPrefix(read(t, in.outputs), "version=v2.0.1\n") {
		t.Errorf("outputs: %q", read(t, in.outputs))
	}
}

func TestSetupRefusesABadChecksum(t *testing.T) {
	t.Parallel()
	_, srv := newFakeRelease(t, "v1.2.3", true)
	cache := t.TempDir()
	in := runInstall(t, srv.URL, "v1.2.3", "", cache, "")
	if in.err == nil {
		t.Fatalf("install succeeded with a wrong checksum:\n%s", in.stdout)
	}
	if !strings.Contains(in.stderr, "checksum mismatch for evalgate_linux_amd64.tar.gz of v1.2.3") || !strings.Contains(in.stdout, "::error title=evalgate setup::checksum mismatch") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", in.stdout, in.stderr)
	}
	if entries, _ := os.ReadDir(cache); len(entries) != 0 {
		t.Errorf("the tool cache holds %d entries after a refused download", len(entries))
	}
	if read(t, in.path) != "" || read(t, in.outputs) != "" {
		t.Errorf("PATH or outputs written after a refused download")
	}
}

func TestSetupErrors(t *testing.T) {
	t.Parallel()
	_, srv := newFakeRelease(t, "v1.2.3", false)
	for _, tt := range []struct{ version, want string }{
		{"v9.9.9", "could not download " + srv.URL + "/download/v9.9.9/evalgate_linux_amd64.tar.gz (does release v9.9.9 exist?)"},
		{"main", `version "main": want a release such as v1.2.3, or latest`},
	} {
		in := runInstall(t, srv.URL, tt.version, "", t.TempDir(), "")
		if in.err == nil || !strings.Contains(in.stderr, tt.want) {
			t.Errorf("version %s: err %v, stderr:\n%s\nwant %q", tt.version, in.err, in.stderr, tt.want)
		}
	}
}

// TestSetupFallsBackToShasum runs the script with a PATH that has every tool it needs
// except sha256sum (macOS runners): shasum -a 256 verifies instead, and a bad checksum
// is still refused.
func TestSetupFallsBackToShasum(t *testing.T) {
	t.Parallel()
	bin := t.TempDir()
	for _, tool := range []string{"bash", "curl", "awk", "tar", "gzip", "mkdir", "mktemp", "rm", "mv", "chmod", "touch", "shasum", "perl", "sh", "cat"} {
		p := testtools.Require(t, "the install script, with shasum in place of sha256sum", tool)
		if err := os.Symlink(p, filepath.Join(bin, tool)); err != nil {
			t.Fatal(err)
		}
	}
	_, good := newFakeRelease(t, "v1.2.3", false)
	in := runInstall(t, good.URL, "v1.2.3", "", t.TempDir(), bin)
	if in.err != nil || !strings.Contains(in.stdout, "SHA-256 verified") {
		t.Fatalf("with shasum: %v\nstdout:\n%s\nstderr:\n%s", in.err, in.stdout, in.stderr)
	}
	_, bad := newFakeRelease(t, "v1.2.3", true)
	in = runInstall(t, bad.URL, "v1.2.3", "", t.TempDir(), bin)
	if in.err == nil || !strings.Contains(in.stderr, "checksum mismatch") {
		t.Fatalf("with shasum, a bad checksum: %v\n%s", in.err, in.stderr)
	}
}

// TestSetupOnWindows runs the script's Windows branch on Linux: RUNNER_OS=Windows picks
// the windows archive and evalgate.exe, and a stand-in cygpath (Git Bash's path
// converter) turns the directory handed back to the runner into a Windows path.
func TestSetupOnWindows(t *testing.T) {
	t.Parallel()
	_, srv := newFakeRelease(t, "v1.2.3", false)
	bin := t.TempDir()
	// -u: already POSIX here; -w: slashes to backslashes, as cygpath -w would.
	cygpath := "#!/bin/sh\nif [ \"$1\" = -w ]; then printf '%s\\n' \"$2\" | tr / '\\\\'; else printf '%s\\n' \"$2\"; fi\n"
	if err := os.WriteFile(filepath.Join(bin, "cygpath"), []byte(cygpath), 0o755); err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	in := runInstall(t, srv.URL, "v1.2.3", "", cache, "", "RUNNER_OS=Windows", "PATH="+bin+":"+os.Getenv("PATH"))
	if in.err != nil {
		t.Fatalf("install: %v\nstdout:\n%s\nstderr:\n%s", in.err, in.stdout, in.stderr)
	}
	winDir := strings.ReplaceAll(filepath.Join(cache, "evalgate", "1.2.3", "x64"), "/", `\`)
	if got, want := read(t, in.outputs), "version=v1.2.3\npath="+winDir+`\evalgate.exe`+"\n"; got != want {
		t.Errorf("GITHUB_OUTPUT = %q; want %q", got, want)
	}
	if got := read(t, in.path); got != winDir+"\n" {
		t.Errorf("GITHUB_PATH = %q; want %q", got, winDir+"\n")
	}
	if _, err := os.Stat(filepath.Join(cache, "evalgate", "1.2.3", "x64", "evalgate.exe")); err != nil {
		t.Errorf("evalgate.exe not in the tool cache: %v", err)
	}
}
