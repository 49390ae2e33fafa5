package ghaction

import (
	"strings"
	"testing"
)

// A check that panics still concludes the check run it started (failure, saying so),
// and the panic goes on.
func TestCheckPanicConcludesTheCheckRun(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t, fakeOptions{baseFiles: baseFiles})
	env := newActionEnv(t, api.srv.URL, "pull_request", "pull_request.opened.json", nil, nil)
	func() {
		defer func() {
			if v := recover(); v == nil || !strings.Contains(v.(string), "scorer exploded") {
				t.Errorf("recovered %v; want the check's panic to go on", v)
			}
		}()
		env.run(fakeCheck(&seen{}, func(CheckInput) (*Outcome, error) { panic("scorer exploded") }), nil)
	}()
	api.mu.Lock()
	defer api.mu.Unlock()
	if len(api.creates) != 1 || len(api.updates) == 0 {
		t.Fatalf("%d check runs made, %d updates; want one run, concluded", len(api.creates), len(api.updates))
	}
	last := api.updates[len(api.updates)-1]
	if last.GetStatus() != "completed" || last.GetConclusion() != "failure" || !strings.Contains(last.GetOutput().GetSummary(), "scorer exploded") {
		t.Errorf("last update: status %q, conclusion %q, summary %q; want completed, failure, naming the panic", last.GetStatus(), last.GetConclusion(), last.GetOutput().GetSummary())
	}
}
