package judge_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/evalgate/evalgate/internal/judge"
	"github.com/evalgate/evalgate/internal/judge/live"
	"github.com/evalgate/evalgate/internal/testdata/originauthtest"
)

// The judge's API key never follows a redirect to another origin (127.0.0.2): the
// call is refused, and the other origin gets nothing.
func TestJudgeKeyStaysOnItsOrigin(t *testing.T) {
	t.Parallel()
	away := originauthtest.NewElsewhere(t, `{}`)
	srv := originauthtest.NewRedirector(t, false, away.URL, http.StatusTemporaryRedirect)
	j, err := judge.New(judge.Config{Model: model, BaseURL: srv.URL + "/v1", CacheDir: t.TempDir(), APIKeyEnv: "JUDGE_KEY"},
		judge.WithGetenv(func(k string) string { return map[string]string{"JUDGE_KEY": "sk-judge"}[k] }), live.Calls())
	if err != nil {
		t.Fatal(err)
	}
	_, _, _ = j.Evaluate(context.Background(), []judge.Request{req("q1")})
	if seen := srv.Authorizations(); len(seen) == 0 || seen[0] != "Bearer sk-judge" {
		t.Errorf("the endpoint saw Authorization %q; want the key", seen)
	}
	away.CheckUntouched(t)
}
