package ghaction

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const eventsDir = "../../testdata/events"

func readPayload(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(eventsDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseEvent(t *testing.T) {
	t.Parallel()
	pr := Event{
		Name: "pull_request", Action: "opened", Repository: "Codertocat/Hello-World", DefaultBranch: "master",
		PRNumber: 2, HeadSHA: "ec26c3e57ca3a959ca5aad62de7213c562f8c821", BaseSHA: "f95f852bd8fca8fcc58a9a2d6c842781e32a215e",
		BaseRef: "master", HeadRepo: "Codertocat/Hello-World", BaseRepo: "Codertocat/Hello-World", Sender: "Codertocat",
	}
	synced := pr
	synced.Action, synced.Labels = "synchronize", []string{"bug"}
	// A labeled or unlabeled event names the label applied or removed.
	labeled, unlabeled := synced, synced
	labeled.Action, labeled.Label = "labeled", "bug"
	unlabeled.Action, unlabeled.Label = "unlabeled", "bug"
	tests := []struct {
		file, name string
		want       Event
	}{
		{"pull_request.opened.json", "pull_request", pr},
		{"pull_request.synchronize.json", "pull_request", synced},
		{"pull_request.labeled.json", "pull_request", labeled},
		{"pull_request.unlabeled.json", "pull_request", unlabeled},
		{"release.published.json", "release", Event{Name: "release", Action: "published", Repository: "Codertocat/Hello-World", DefaultBranch: "master", Sender: "Codertocat", ReleaseTag: "0.0.1"}},
		// The triggering run names its pull request (same repository) or none (a fork):
		// the pull request itself is resolved through the API (resolveWorkflowRun).
		{"workflow_run.completed.json", "workflow_run", Event{Name: "workflow_run", Action: "completed", Repository: "Codertocat/Hello-World", DefaultBranch: "master", Sender: "Codertocat",
			Run: &TriggeringRun{ID: 30433642, Event: "pull_request", HeadSHA: "ec26c3e57ca3a959ca5aad62de7213c562f8c821", HeadBranch: "changes", HeadRepo: "Codertocat/Hello-World",
				PRs: []TriggeringPR{{Number: 2, HeadSHA: "ec26c3e57ca3a959ca5aad62de7213c562f8c821"}}}}},
		{"workflow_run.completed.fork.json", "workflow_run", Event{Name: "workflow_run", Action: "completed", Repository: "Codertocat/Hello-World", DefaultBranch: "master", Sender: "Codertocat",
			Run: &TriggeringRun{ID: 30433642, Event: "pull_request", HeadSHA: "ec26c3e57ca3a959ca5aad62de7213c562f8c821", HeadBranch: "fix-typo", HeadRepo: "forker/Hello-World"}}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			got, err := ParseEvent(tt.name, readPayload(t, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseEvent (-want +got):\n%s", diff)
			}
			if got.ReadOnly() {
				t.Error("ReadOnly() = true for a pull request within the repository")
			}
		})
	}
}

func TestParseEventErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, payload, want string }{
		{"not JSON", "{", "event payload"},
		{"pull request without shas", `{"pull_request":{"number":3,"head":{},"base":{}}}`, "lacks head.sha or base.sha"},
		{"pull request without number", `{"pull_request":{"head":{"sha":"a"},"base":{"sha":"b"}}}`, "pull_request.number is 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := ParseEvent("pull_request", []byte(tt.payload))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to say %q", err, tt.want)
			}
		})
	}
}

func TestEventReadOnly(t *testing.T) {
	t.Parallel()
	fork := Event{Name: "pull_request", PRNumber: 2, HeadRepo: "someone/Hello-World", BaseRepo: "Codertocat/Hello-World"}
	target := fork
	target.Name = "pull_request_target"
	deleted := fork
	deleted.HeadRepo = ""
	for _, tt := range []struct {
		ev   Event
		want bool
	}{{fork, true}, {target, false}, {deleted, true}, {Event{Name: "push"}, false}} {
		if got := tt.ev.ReadOnly(); got != tt.want {
			t.Errorf("%+v: ReadOnly() = %v, want %v", tt.ev, got, tt.want)
		}
	}
}

// FuzzParseEvent: any payload parses or fails cleanly, and a pull request that parses
// has a number and both shas. The seeds are the real payloads in testdata/events cut
// down to the fields ParseEvent reads: at 8-28 KB each, the raw files slow Go's
// mutator to a few executions a second.
func FuzzParseEvent(f *testing.F) {
	files, err := filepath.Glob(filepath.Join(eventsDir, "*.json"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no seed payloads in %s: %v", eventsDir, err)
	}
	for _, p := range files {
		var payload eventPayload
		if err := json.Unmarshal(readPayload(f, filepath.Base(p)), &payload); err != nil {
			f.Fatal(err)
		}
		seed, err := json.Marshal(payload)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(seed)
	}
	f.Add([]byte(`{"pull_request":{"number":1,"head":{"sha":"a","repo":null},"base":{"sha":"b"}}}`))
	f.Fuzz(func(t *testing.T, payload []byte) {
		if ev, err := ParseEvent("workflow_run", payload); err == nil && ev.Run != nil && ev.Run.HeadSHA == "" {
			t.Errorf("accepted a workflow_run without a head sha: %+v", ev)
		}
		ev, err := ParseEvent("pull_request", payload)
		if err != nil {
			return
		}
		if ev.IsPR() && (ev.PRNumber <= 0 || ev.HeadSHA == "" || ev.BaseSHA == "") {
			t.Errorf("accepted an incomplete pull request: %+v", ev)
		}
		_ = ev.ReadOnly()
	})
}

// A workflow_run payload may list, beside this repository's pull request, one of
// another repository with the same head (GitHub lists pull requests by head branch):
// only this repository's count, so a number of another repository never names a pull
// request here.
func TestParseEventWorkflowRunOtherRepositoryPR(t *testing.T) {
	payload := []byte(`{"action": "completed", "repository": {"id": 100, "full_name": "acme/bot"},
		"workflow_run": {"id": 9, "event": "pull_request", "head_sha": "abc", "head_branch": "fix",
			"head_repository": {"full_name": "acme/bot"},
			"pull_requests": [
				{"number": 7, "head": {"sha": "abc", "repo": {"id": 100}}, "base": {"sha": "x", "repo": {"id": 555}}},
				{"number": 42, "head": {"sha": "abc", "repo": {"id": 100}}, "base": {"sha": "y", "repo": {"id": 100}}}]}}`)
	ev, err := ParseEvent("workflow_run", payload)
	if err != nil {
		t.Fatal(err)
	}
	if got := pickPR(ev.Run); got != 42 {
		t.Errorf("pull request %d; want 42, this repository's (7 is another repository's)", got)
	}
}
