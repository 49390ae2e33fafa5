package chat_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/judge/chat"
	"github.com/evalgate/evalgate/internal/originauth"
	"github.com/evalgate/evalgate/internal/testdata/originauthtest"
)

// The API key goes to the base URL's origin only: a 301 or 307 to 127.0.0.2, or a
// redirect from https to http, is refused at once (no retry), with both origins named,
// and the other origin gets nothing.
func TestRedirectKeepsTheKey(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		tls  bool
		code int
	}{
		{"301 to another address", false, http.StatusMovedPermanently},
		{"307 to another address", false, http.StatusTemporaryRedirect},
		{"https to http", true, http.StatusTemporaryRedirect},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			away := originauthtest.NewElsewhere(t, `{"id":"x","choices":[{"message":{"role":"assistant","content":"stolen"}}]}`)
			srv := originauthtest.NewRedirector(t, tt.tls, away.URL, tt.code)
			c := chat.New(chat.Config{BaseURL: srv.URL + "/v1", APIKey: "sk-secret", MaxRetries: 3, HTTPClient: srv.Client()},
				chat.WithSleep(func(context.Context, time.Duration) error { return nil }))
			r, err := c.Complete(context.Background(), params(), 10)
			var re *originauth.RedirectError
			if !errors.As(err, &re) || re.Downgrade != tt.tls || !strings.Contains(err.Error(), away.URL) || !strings.Contains(err.Error(), srv.Listener.Addr().String()) {
				t.Errorf("err = %v; want a refused redirect naming both origins", err)
			}
			if !chat.IsFatal(err) || r.Attempts != 1 {
				t.Errorf("fatal %v after %d attempts; want a fatal error after 1", chat.IsFatal(err), r.Attempts)
			}
			if got := srv.Authorizations(); len(got) != 1 || got[0] != "Bearer sk-secret" {
				t.Errorf("the endpoint saw Authorization %q; want the key once", got)
			}
			away.CheckUntouched(t)
		})
	}
}

func TestRelativeBaseURLIsAnError(t *testing.T) {
	t.Parallel()
	c := chat.New(chat.Config{BaseURL: "localhost:11434/v1", APIKey: "sk"})
	if _, err := c.Complete(context.Background(), params(), 10); err == nil || !strings.Contains(err.Error(), "localhost:11434/v1") {
		t.Errorf("err = %v; want one naming the base URL", err)
	}
}
