package github

import (
	"context"
	"net/http"
	"testing"
	"time"

	gh "github.com/google/go-github/v60/github"
)

func TestAcceptedBy(t *testing.T) {
	t.Parallel()
	labeled := func(login, label string) *gh.IssueEvent {
		return &gh.IssueEvent{Event: gh.String("labeled"), Actor: &gh.User{Login: gh.String(login)}, Label: &gh.Label{Name: gh.String(label)}}
	}
	perms := map[string]string{"maintainer": "admin", "dev": "write", "reader": "read"}
	tests := []struct {
		name     string
		labels   []string
		events   []*gh.IssueEvent
		want     string
		wantReqs int
	}{{
		name:     "no label: one request",
		labels:   []string{"bug"},
		wantReqs: 1,
	}, {
		name:     "applied by a writer",
		labels:   []string{"bug", "evalgate/accept"},
		events:   []*gh.IssueEvent{labeled("dev", "bug"), labeled("dev", "evalgate/accept")},
		want:     "dev",
		wantReqs: 3,
	}, {
		name:     "applied by a read-only user",
		labels:   []string{"evalgate/accept"},
		events:   []*gh.IssueEvent{labeled("reader", "evalgate/accept")},
		wantReqs: 3,
	}, {
		name:     "the last application counts",
		labels:   []string{"evalgate/accept"},
		events:   []*gh.IssueEvent{labeled("maintainer", "evalgate/accept"), {Event: gh.String("unlabeled")}, labeled("reader", "evalgate/accept")},
		wantReqs: 3,
	}, {
		name:     "applied by someone who is not a collaborator",
		labels:   []string{"evalgate/accept"},
		events:   []*gh.IssueEvent{labeled("stranger", "evalgate/accept")},
		wantReqs: 3,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t)
			f.handle("GET /repos/o/r/pulls/7", func(w http.ResponseWriter, r *http.Request) {
				pr := &gh.PullRequest{Number: gh.Int(7)}
				for _, l := range tt.labels {
					pr.Labels = append(pr.Labels, &gh.Label{Name: gh.String(l)})
				}
				reply(t, w, http.StatusOK, pr)
			})
			f.handle("GET /repos/o/r/issues/7/events", func(w http.ResponseWriter, r *http.Request) {
				reply(t, w, http.StatusOK, paginate(w, r, tt.events))
			})
			f.handle("GET /repos/o/r/collaborators/{user}/permission", func(w http.ResponseWriter, r *http.Request) {
				p, ok := perms[r.PathValue("user")]
				if !ok {
					reply(t, w, http.StatusNotFound, map[string]string{"message": "Not Found"})
					return
				}
				reply(t, w, http.StatusOK, &gh.RepositoryPermissionLevel{Permission: gh.String(p)})
			})
			got, err := f.client(time.Now()).AcceptedBy(context.Background(), "o", "r", 7, "evalgate/accept")
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("AcceptedBy = %q, want %q", got, tt.want)
			}
			if n := len(f.requests()); n != tt.wantReqs {
				t.Errorf("%d requests, want %d: %q", n, tt.wantReqs, f.requests())
			}
		})
	}
}
