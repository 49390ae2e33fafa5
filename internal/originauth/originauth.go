package originauth

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// maxRedirects is how many redirects one request may follow, as net/http's default.
const maxRedirects = 10

// Policy says what happens to a redirect to another origin.
type Policy int

const (
	// Refuse stops at a redirect to another origin with a *RedirectError: for API
	// calls, whose answer is only trusted from the API itself.
	Refuse Policy = iota
	// Follow follows it without the credential and reports it: for downloads, which
	// legitimately redirect to storage.
	Follow
)

// RedirectError is a redirect a Binding refused.
type RedirectError struct {
	From, To  string // the origins, as Origin writes them
	Downgrade bool   // from https to http
}

func (e *RedirectError) Error() string {
	if e.Downgrade {
		return fmt.Sprintf("refused a redirect from %s to %s: it leaves https for plain http", e.From, e.To)
	}
	return fmt.Sprintf("refused a redirect from %s to another origin, %s: the credential is only for %s", e.From, e.To, e.From)
}

// Origin returns u's origin: lowercased scheme and host, and the port, written out
// even when it is the scheme's default ("https://api.github.com:443").
func Origin(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if port == "" {
		switch scheme {
		case "https":
			port = "443"
		case "http":
			port = "80"
		}
	}
	return scheme + "://" + net.JoinHostPort(host, port)
}

// Binding ties one credential header to one origin.
type Binding struct {
	origin string
	header string // canonical header name, e.g. "Authorization"
	value  string // "" sets nothing, and still strips the header elsewhere
	policy Policy
	report func(from, to string)
}

// New binds header: value to the origin of base (an absolute URL, such as the API's
// base URL). report, when not nil, is told of every redirect to another origin that
// the Follow policy followed without the credential.
func New(base, header, value string, policy Policy, report func(from, to string)) (*Binding, error) {
	u, err := url.Parse(base)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("base URL %q is not an absolute URL", base)
	}
	return &Binding{origin: Origin(u), header: http.CanonicalHeaderKey(header), value: value, policy: policy, report: report}, nil
}

// Bearer binds "Authorization: Bearer token" to base's origin (no header when token is
// empty).
func Bearer(base, token string, policy Policy, report func(from, to string)) (*Binding, error) {
	v := ""
	if token != "" {
		v = "Bearer " + token
	}
	return New(base, "Authorization", v, policy, report)
}

// Origin returns the origin the credential is bound to.
func (b *Binding) Origin() string { return b.origin }

// Client returns a copy of hc (nil: a zero http.Client) whose transport sets the
// credential on requests to the origin only, and whose redirects follow the Binding's
// rules. hc's own CheckRedirect, if any, is still asked after them.
func (b *Binding) Client(hc *http.Client) *http.Client {
	c := http.Client{}
	if hc != nil {
		c = *hc
	}
	next := c.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	c.Transport = &transport{b: b, next: next}
	inner := c.CheckRedirect
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if err := b.checkRedirect(req, via); err != nil {
			return err
		}
		if inner != nil {
			return inner(req, via)
		}
		return nil
	}
	return &c
}

// checkRedirect refuses a downgrade to http, and a redirect to another origin under
// Refuse; under Follow it reports one.
func (b *Binding) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= maxRedirects {
		return fmt.Errorf("stopped after %d redirects", maxRedirects)
	}
	from, to := Origin(via[len(via)-1].URL), Origin(req.URL)
	if strings.EqualFold(via[len(via)-1].URL.Scheme, "https") && !strings.EqualFold(req.URL.Scheme, "https") {
		return &RedirectError{From: from, To: to, Downgrade: true}
	}
	if to == b.origin {
		return nil
	}
	if b.policy == Refuse {
		return &RedirectError{From: from, To: to}
	}
	if from == b.origin && b.report != nil {
		b.report(from, to)
	}
	return nil
}

// transport sets the credential on requests to the origin and removes it from all
// others.
type transport struct {
	b    *Binding
	next http.RoundTripper
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	on := Origin(req.URL) == t.b.origin
	switch {
	case on && t.b.value != "" && req.Header.Get(t.b.header) != t.b.value:
		req = req.Clone(req.Context())
		req.Header.Set(t.b.header, t.b.value)
	case !on && len(req.Header.Values(t.b.header)) > 0:
		req = req.Clone(req.Context())
		req.Header.Del(t.b.header)
	}
	return t.next.RoundTrip(req)
}
