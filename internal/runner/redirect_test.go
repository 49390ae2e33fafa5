package runner_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/runner"
	"github.com/evalgate/evalgate/internal/testdata/originauthtest"
)

// The system under test's API key never follows a redirect to another origin
// (127.0.0.2): the call is refused with both origins named, and the other origin gets
// nothing.
func TestOpenAIKeyStaysOnItsOrigin(t *testing.T) {
	t.Parallel()
	away := originauthtest.NewElsewhere(t, `{}`)
	srv := originauthtest.NewRedirector(t, false, away.URL, http.StatusMovedPermanently)
	o, err := runner.NewOpenAI(runner.OpenAIConfig{Model: "sut-model-2024-05-13", BaseURL: srv.URL + "/v1"},
		func(k string) string { return map[string]string{"OPENAI_API_KEY": "sk-sut"}[k] }, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err = o.Run(context.Background(), tutorItem); err == nil || !strings.Contains(err.Error(), away.URL) {
		t.Errorf("err = %v; want a refused redirect naming %s", err, away.URL)
	}
	if seen := srv.Authorizations(); len(seen) != 1 || seen[0] != "Bearer sk-sut" {
		t.Errorf("the endpoint saw Authorization %q; want the key once", seen)
	}
	away.CheckUntouched(t)
}
