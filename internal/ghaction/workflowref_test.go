package ghaction

import (
	"strings"
	"testing"
)

// A workflow another repository holds (a ruleset's required workflow: GITHUB_WORKFLOW_REF
// names that repository) is not read from this repository: a file of the base commit at
// the same path is another workflow, and its evalgate step's config never replaces the
// running step's. (The base commit's .github/workflows/gate.yml named evals/other.yaml,
// and gated the pull request with it.)
func TestWorkflowOfAnotherRepository(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		".github/workflows/gate.yml": "jobs:\n  a:\n    steps:\n      - uses: evalgate/evalgate@v1\n        with: {config: evals/other.yaml, check-name: 'evalgate: tutor'}\n",
		"evals/other.yaml":           "suite: tutor\nregression: {max_drop: 0.90}\n",
	}
	for k, v := range baseFiles {
		files[k] = v
	}
	for _, tt := range []struct {
		ref, want string
	}{
		{"acme-org/policies/.github/workflows/gate.yml@refs/heads/main", "evalgate.yaml"},
		{owner + "/" + repo + "/.github/workflows/gate.yml@refs/pull/2/merge", "evals/other.yaml"}, // this repository's: the base commit's step decides
	} {
		t.Run(tt.ref, func(t *testing.T) {
			t.Parallel()
			api := newFakeAPI(t, fakeOptions{baseFiles: files})
			env := newActionEnv(t, api.srv.URL, "pull_request", "pull_request.opened.json", nil, nil)
			env.vars["GITHUB_WORKFLOW_REF"] = tt.ref
			var s seen
			env.run(fakeCheck(&s, failing), nil)
			if s.in.BaseConfig != tt.want {
				t.Errorf("gated with the base commit's %q; want %q; log:\n%s", s.in.BaseConfig, tt.want, env.stdout.String())
			}
			if strings.HasPrefix(tt.ref, "acme-org/") && !strings.Contains(env.stdout.String(), "acme-org/policies") {
				t.Errorf("the log does not say whose workflow runs:\n%s", env.stdout.String())
			}
		})
	}
}
