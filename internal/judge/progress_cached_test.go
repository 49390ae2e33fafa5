package judge_test

import (
	"context"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/judge"
	"github.com/evalgate/evalgate/internal/judge/live"
	"github.com/evalgate/evalgate/internal/testdata/chattest"
)

// A panel's reviewers are judges built with one progress option. When every verdict
// of all of them comes from the cache, the run shows one line, not one per reviewer
// (three reviewers printed "judge: 2/2 from the cache, no model call" three times).
func TestAllCachedIsOneLineForAPanel(t *testing.T) {
	t.Parallel()
	srv := chattest.New(t, "/v1", chattest.Always(chattest.Reply{Content: valid}))
	reqs := []judge.Request{req("a"), req("b")}
	dirs := []string{t.TempDir(), t.TempDir(), t.TempDir()}
	for _, d := range dirs { // fill each reviewer's cache
		j, _ := newJudge(t, srv, func(c *judge.Config) { c.CacheDir = d })
		if _, _, err := j.Evaluate(context.Background(), reqs); err != nil {
			t.Fatal(err)
		}
	}
	var buf strings.Builder
	progress := live.ProgressAs(&buf, func() bool { return false }, "")
	for _, d := range dirs {
		j, _ := newJudge(t, srv, func(c *judge.Config) { c.CacheDir = d }, progress)
		for range 2 { // two batches each
			if _, _, err := j.Evaluate(context.Background(), reqs); err != nil {
				t.Fatal(err)
			}
		}
	}
	if got := buf.String(); got != "judge: 2/2 from the cache, no model call\n" {
		t.Errorf("progress %q; want one line", got)
	}
}
