package originauth_test

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/evalgate/evalgate/internal/originauth"
	"github.com/evalgate/evalgate/internal/testdata/originauthtest"
)

func TestOrigin(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"https://API.github.com/":            "https://api.github.com:443",
		"https://api.github.com:443/x":       "https://api.github.com:443",
		"http://127.0.0.1:8080/api/v3":       "http://127.0.0.1:8080",
		"http://ghe.example":                 "http://ghe.example:80",
		"https://[::1]:9/v1":                 "https://[::1]:9",
		"https://user:pw@ghe.example:8443/a": "https://ghe.example:8443",
	} {
		u, err := url.Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		if got := originauth.Origin(u); got != want {
			t.Errorf("Origin(%q) = %q, want %q", in, got, want)
		}
	}
}

// api is a server at the credential's origin: it records the Authorization header of
// each request, and sends /away/... to the other origin with code.
type api struct {
	srv  *httptest.Server
	mu   sync.Mutex
	auth []string
}

func newAPI(t *testing.T, tls bool, away string, code int) *api {
	a := &api{}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		a.auth = append(a.auth, r.Header.Get("Authorization"))
		a.mu.Unlock()
		switch {
		case strings.HasPrefix(r.URL.Path, "/away/"):
			originauthtest.Redirect(away, code).ServeHTTP(w, r)
		case strings.HasPrefix(r.URL.Path, "/here/"):
			http.Redirect(w, r, "/ok", code)
		default:
			_, _ = io.WriteString(w, "ok")
		}
	})
	if tls {
		a.srv = httptest.NewTLSServer(h)
	} else {
		a.srv = httptest.NewServer(h)
	}
	t.Cleanup(a.srv.Close)
	return a
}

func (a *api) seen() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.auth...)
}

func get(t *testing.T, c *http.Client, method, u string) (string, error) {
	t.Helper()
	req, err := http.NewRequest(method, u, strings.NewReader(`{"body":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	// As an SDK does (openai-go sets the key itself): the Binding must still keep the
	// header from other origins, which net/http hands it to on the same host.
	req.Header.Set("Authorization", "Bearer s3cret")
	resp, err := c.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b), nil
}

// A redirect to another origin (127.0.0.2, and the same host on another port, which
// net/http alone would hand the header to) never carries the credential: Refuse stops
// there with an error naming both origins, Follow goes without the header and reports.
func TestRedirectToAnotherOrigin(t *testing.T) {
	t.Parallel()
	for _, code := range []int{http.StatusMovedPermanently, http.StatusTemporaryRedirect} {
		for _, other := range []string{"127.0.0.2", "same host, other port"} {
			for _, policy := range []originauth.Policy{originauth.Refuse, originauth.Follow} {
				name := map[originauth.Policy]string{originauth.Refuse: "refuse", originauth.Follow: "follow"}[policy]
				t.Run(http.StatusText(code)+"/"+other+"/"+name, func(t *testing.T) {
					t.Parallel()
					var away *originauthtest.Elsewhere
					var awayURL string
					if other == "127.0.0.2" {
						away = originauthtest.NewElsewhere(t, "elsewhere")
						awayURL = away.URL
					}
					// The same host on another port: a second server on 127.0.0.1.
					var sameHost struct {
						mu   sync.Mutex
						auth []string
					}
					if away == nil {
						srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
							sameHost.mu.Lock()
							sameHost.auth = append(sameHost.auth, r.Header.Get("Authorization"))
							sameHost.mu.Unlock()
							_, _ = io.WriteString(w, "elsewhere")
						}))
						t.Cleanup(srv.Close)
						awayURL = srv.URL
					}
					a := newAPI(t, false, awayURL, code)
					var reports []string
					b, err := originauth.Bearer(a.srv.URL+"/api/v3/", "s3cret", policy, func(from, to string) { reports = append(reports, from+" -> "+to) })
					if err != nil {
						t.Fatal(err)
					}
					body, err := get(t, b.Client(nil), http.MethodPost, a.srv.URL+"/away/repos/o/r")
					from, to := "http://"+a.srv.Listener.Addr().String(), "http://"+strings.TrimPrefix(awayURL, "http://")
					switch policy {
					case originauth.Refuse:
						var re *originauth.RedirectError
						if !errors.As(err, &re) || re.From != from || re.To != to || !strings.Contains(err.Error(), from) || !strings.Contains(err.Error(), to) {
							t.Errorf("err = %v; want a *RedirectError from %s to %s", err, from, to)
						}
					case originauth.Follow:
						if err != nil || body != "elsewhere" {
							t.Errorf("body %q, err %v; want the other origin's answer", body, err)
						}
						if len(reports) != 1 || reports[0] != from+" -> "+to {
							t.Errorf("reports = %q; want one, %s -> %s", reports, from, to)
						}
					}
					if got := a.seen(); len(got) != 1 || got[0] != "Bearer s3cret" {
						t.Errorf("the API saw Authorization %q; want the token once", got)
					}
					if away != nil {
						away.CheckNoCredential(t)
						if n := len(away.Requests()); (policy == originauth.Follow) != (n == 1) {
							t.Errorf("%d requests reached the other origin under %s", n, name)
						}
					}
					sameHost.mu.Lock()
					defer sameHost.mu.Unlock()
					for _, h := range sameHost.auth {
						if h != "" {
							t.Errorf("the other port got Authorization %q", h)
						}
					}
				})
			}
		}
	}
}

// A redirect from https to http is refused under both policies, and nothing reaches
// the http server.
func TestRedirectDowngradeRefused(t *testing.T) {
	t.Parallel()
	for _, policy := range []originauth.Policy{originauth.Refuse, originauth.Follow} {
		away := originauthtest.NewElsewhere(t, "plain")
		a := newAPI(t, true, away.URL, http.StatusFound)
		b, err := originauth.Bearer(a.srv.URL, "s3cret", policy, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, err = get(t, b.Client(a.srv.Client()), http.MethodGet, a.srv.URL+"/away/x")
		var re *originauth.RedirectError
		if !errors.As(err, &re) || !re.Downgrade || re.From != "https://"+a.srv.Listener.Addr().String() || re.To != away.URL {
			t.Errorf("policy %d: err = %v; want a downgrade *RedirectError naming both origins", policy, err)
		}
		if n := len(away.Requests()); n != 0 {
			t.Errorf("policy %d: %d requests reached the http server", policy, n)
		}
	}
}

// A redirect within the origin keeps the credential, and a header someone else set
// (an SDK's) is removed from requests to other origins too.
func TestSameOriginAndForeignHeader(t *testing.T) {
	t.Parallel()
	a := newAPI(t, false, "", http.StatusFound)
	b, err := originauth.Bearer(a.srv.URL, "s3cret", originauth.Refuse, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := b.Client(nil)
	if body, err := get(t, c, http.MethodGet, a.srv.URL+"/here/x"); err != nil || body != "ok" {
		t.Fatalf("same-origin redirect: %q, %v", body, err)
	}
	if got := a.seen(); len(got) != 2 || got[0] != "Bearer s3cret" || got[1] != "Bearer s3cret" {
		t.Errorf("Authorization = %q; want the token on both requests", got)
	}

	away := originauthtest.NewElsewhere(t, "x")
	req, _ := http.NewRequest(http.MethodGet, away.URL+"/direct", nil)
	req.Header.Set("Authorization", "Bearer set-by-an-sdk")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	away.CheckNoCredential(t)
	if req.Header.Get("Authorization") == "" {
		t.Errorf("the caller's request was modified")
	}
}

func TestNewRefusesARelativeBase(t *testing.T) {
	t.Parallel()
	if _, err := originauth.Bearer("api.github.com", "t", originauth.Refuse, nil); err == nil {
		t.Error("want an error for a base URL without scheme")
	}
}
