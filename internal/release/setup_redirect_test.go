package release_test

import (
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/evalgate/evalgate/internal/testdata/originauthtest"
)

// storage stands in for GitHub's storage host: another origin (127.0.0.2) that serves
// the fake release's assets by asking it, as a CDN would.
func storage(t *testing.T, release *httptest.Server) *originauthtest.Elsewhere {
	return originauthtest.NewElsewhereHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		resp, err := http.Get(release.URL + r.URL.Path)
		if err != nil {
			t.Errorf("storage: %v", err)
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		w.WriteHeader(resp.StatusCode)
		_, _ = io.Copy(w, resp.Body)
	}))
}

// front is the releases page: /download/... redirects with code to to, the rest is
// served by release. It records the Authorization header of each request.
type front struct {
	*httptest.Server
	mu   sync.Mutex
	auth []string
}

func newFront(t *testing.T, tls bool, release *httptest.Server, to string, code int) *front {
	f := &front{}
	u, err := url.Parse(release.URL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(u)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.auth = append(f.auth, r.Header.Get("Authorization"))
		f.mu.Unlock()
		if strings.HasPrefix(r.URL.Path, "/download/") {
			originauthtest.Redirect(to, code).ServeHTTP(w, r)
			return
		}
		proxy.ServeHTTP(w, r)
	})
	if tls {
		f.Server = httptest.NewTLSServer(h)
	} else {
		f.Server = httptest.NewServer(h)
	}
	t.Cleanup(f.Close)
	return f
}

// A download the releases page redirects (301 or 307) to another origin is fetched
// there without the token, and the install says so, naming both origins; the
// releases page itself still gets the token.
func TestSetupRedirectToStorageDropsTheToken(t *testing.T) {
	t.Parallel()
	for _, code := range []int{http.StatusMovedPermanently, http.StatusTemporaryRedirect} {
		t.Run(http.StatusText(code), func(t *testing.T) {
			t.Parallel()
			_, release := newFakeRelease(t, "v1.2.3", false)
			store := storage(t, release)
			fr := newFront(t, false, release, store.URL, code)
			in := runInstall(t, fr.URL, "latest", "s3cret", t.TempDir(), "")
			if in.err != nil {
				t.Fatalf("install: %v\nstdout:\n%s\nstderr:\n%s", in.err, in.stdout, in.stderr)
			}
			store.CheckNoCredential(t)
			if n := len(store.Requests()); n != 2 {
				t.Errorf("storage served %d requests; want 2 (the archive and checksums.txt)", n)
			}
			fr.mu.Lock()
			for _, a := range fr.auth {
				if a != "Bearer s3cret" {
					t.Errorf("the releases page got Authorization %q; want the token", a)
				}
			}
			fr.mu.Unlock()
			want := "followed a redirect from " + fr.URL + " to " + store.URL + " without the token"
			if strings.Count(in.stdout, want) != 2 {
				t.Errorf("stdout:\n%s\nwant twice %q", in.stdout, want)
			}
		})
	}
}

// The same host on another port is another origin too (curl and net/http would both
// keep some headers there).
func TestSetupOtherPortGetsNoToken(t *testing.T) {
	t.Parallel()
	_, release := newFakeRelease(t, "v1.2.3", false)
	var mu sync.Mutex
	var seen []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("Authorization"))
		mu.Unlock()
		resp, err := http.Get(release.URL + r.URL.Path)
		if err != nil {
			return
		}
		defer resp.Body.Close()
		_, _ = io.Copy(w, resp.Body)
	}))
	t.Cleanup(other.Close)
	fr := newFront(t, false, release, other.URL, http.StatusFound)
	in := runInstall(t, fr.URL, "v1.2.3", "s3cret", t.TempDir(), "")
	if in.err != nil {
		t.Fatalf("install: %v\n%s", in.err, in.stderr)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 2 || seen[0] != "" || seen[1] != "" {
		t.Errorf("the other port saw Authorization %q; want 2 requests without it", seen)
	}
}

// A releases page on https that redirects a download to plain http: refused, both
// origins named, nothing fetched over http, nothing installed.
func TestSetupRefusesADowngrade(t *testing.T) {
	t.Parallel()
	_, release := newFakeRelease(t, "v1.2.3", false)
	plain := storage(t, release)
	fr := newFront(t, true, release, plain.URL, http.StatusFound)
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: fr.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	in := runInstall(t, fr.URL, "v1.2.3", "s3cret", cache, "", "CURL_CA_BUNDLE="+ca)
	want := "refused a redirect from " + fr.URL + " to " + plain.URL + ": it leaves https for plain http"
	if in.err == nil || !strings.Contains(in.stderr, want) {
		t.Errorf("err %v, stderr:\n%s\nwant %q", in.err, in.stderr, want)
	}
	if n := len(plain.Requests()); n != 0 {
		t.Errorf("%d requests went over plain http", n)
	}
	if entries, _ := os.ReadDir(cache); len(entries) != 0 {
		t.Errorf("the tool cache holds %d entries after a refused download", len(entries))
	}
}

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

// The workflow's own token (the token input left empty) goes only to this GitHub's
// releases, never to a mirror that base-url names; a token given for the mirror does.
func TestSetupSendsTheWorkflowTokenToThisGitHubOnly(t *testing.T) {
	t.Parallel()
	// The setup action hands install.sh the workflow's token apart from the input, whose
	// default is empty: were the default ${{ github.token }}, it would go to any mirror.
	b, err := os.ReadFile("../../setup/action.yml")
	if err != nil {
		t.Fatal(err)
	}
	if d := load(t, "../../setup/action.yml").Inputs["token"].Default; d != "" {
		t.Errorf("the setup action's token input defaults to %q; want empty", d)
	}
	if !strings.Contains(string(b), "EVALGATE_GITHUB_TOKEN: ${{ github.token }}") {
		t.Errorf("setup/action.yml does not pass the workflow's token as EVALGATE_GITHUB_TOKEN")
	}
	for _, tt := range []struct {
		name, token, server string
		want                string // the Authorization the server saw
	}{
		{name: "a mirror, the token input empty", server: "https://github.com", want: ""},
		{name: "a mirror with its own token", token: "mirror-token", server: "https://github.com", want: "Bearer mirror-token"},
		{name: "this GitHub (GITHUB_SERVER_URL)", server: "SELF", want: "Bearer ghs_workflow"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, srv := newFakeRelease(t, "v1.2.3", false)
			server := tt.server
			if server == "SELF" {
				server = srv.URL
			}
			in := runInstall(t, srv.URL, "v1.2.3", tt.token, t.TempDir(), "",
				"EVALGATE_GITHUB_TOKEN=ghs_workflow", "GITHUB_SERVER_URL="+server)
			if in.err != nil {
				t.Fatalf("install: %v\nstdout:\n%s\nstderr:\n%s", in.err, in.stdout, in.stderr)
			}
			if f.sawToken != tt.want {
				t.Errorf("Authorization = %q; want %q", f.sawToken, tt.want)
			}
		})
	}
}
