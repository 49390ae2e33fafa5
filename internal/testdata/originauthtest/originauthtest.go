// Package originauthtest gives tests another origin to redirect to: a server on
// 127.0.0.2 (a loopback address on Linux, where all of 127/8 is loopback) that records
// what reaches it, the Authorization header above all.
package originauthtest

import (
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"testing"
)

// Elsewhere is a server at another origin than the API's.
type Elsewhere struct {
	URL string
	mu  sync.Mutex
	got []Seen
}

// Seen is one request Elsewhere received.
type Seen struct {
	Method, Path  string
	Authorization string
}

// NewElsewhere starts an http server on 127.0.0.2:0, answering every request with
// status 200 and body, Content-Type application/json. It skips the test where
// 127.0.0.2 cannot be listened on (only Linux routes all of 127/8 to loopback).
func NewElsewhere(t *testing.T, body string) *Elsewhere {
	t.Helper()
	return NewElsewhereHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body))
	}))
}

// NewElsewhereHandler is NewElsewhere with h answering the requests.
func NewElsewhereHandler(t *testing.T, h http.Handler) *Elsewhere {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		if runtime.GOOS != "linux" {
			t.Skipf("cannot listen on 127.0.0.2 on %s: %v", runtime.GOOS, err)
		}
		t.Fatalf("listen on 127.0.0.2: %v", err)
	}
	e := &Elsewhere{}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.mu.Lock()
		e.got = append(e.got, Seen{Method: r.Method, Path: r.URL.Path, Authorization: r.Header.Get("Authorization")})
		e.mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	srv.Listener.Close()
	srv.Listener = l
	srv.Start()
	t.Cleanup(srv.Close)
	e.URL = srv.URL
	return e
}

// Requests returns what reached Elsewhere, in order.
func (e *Elsewhere) Requests() []Seen {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]Seen(nil), e.got...)
}

// CheckNoCredential fails the test if any request that reached Elsewhere carried an
// Authorization header.
func (e *Elsewhere) CheckNoCredential(t *testing.T) {
	t.Helper()
	for _, s := range e.Requests() {
		if s.Authorization != "" {
			t.Errorf("%s %s reached the other origin %s with Authorization %q", s.Method, s.Path, e.URL, s.Authorization)
		}
	}
}

// Redirect answers every request with status code, pointing at base + the request's
// path and query: a server that sends its clients elsewhere.
func Redirect(base string, code int) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", base+r.URL.RequestURI())
		w.WriteHeader(code)
	})
}

// Redirector is an API that sends every request elsewhere, recording the
// Authorization header each request brought it.
type Redirector struct {
	*httptest.Server
	mu   sync.Mutex
	auth []string
}

// NewRedirector starts a Redirector on 127.0.0.1 (https when tls) that answers every
// request with code, pointing at to + the request's path and query.
func NewRedirector(t *testing.T, tls bool, to string, code int) *Redirector {
	t.Helper()
	r := &Redirector{}
	h := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.auth = append(r.auth, req.Header.Get("Authorization"))
		r.mu.Unlock()
		Redirect(to, code).ServeHTTP(w, req)
	})
	if tls {
		r.Server = httptest.NewTLSServer(h)
	} else {
		r.Server = httptest.NewServer(h)
	}
	t.Cleanup(r.Close)
	return r
}

// Authorizations returns the Authorization header of each request, in order.
func (r *Redirector) Authorizations() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.auth...)
}

// CheckUntouched fails the test if any request reached Elsewhere at all: a refused
// redirect sends nothing there.
func (e *Elsewhere) CheckUntouched(t *testing.T) {
	t.Helper()
	for _, s := range e.Requests() {
		t.Errorf("%s %s reached the other origin %s (Authorization %q); want nothing sent there", s.Method, s.Path, e.URL, s.Authorization)
	}
}
