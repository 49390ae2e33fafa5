package github

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	gh "github.com/google/go-github/v60/github"
)

// A create GitHub answers 201 with an empty body (no id): the run is looked up by
// name, head sha and this attempt's external id before anything is made again. A run
// in progress of another attempt (another external id) is not taken for it.
func TestStartCheckRunEmptyAnswer(t *testing.T) {
	t.Parallel()
	const ours = "evalgate/9001/2/evalgate"
	for _, tt := range []struct {
		name      string
		lands     bool // the empty answer's create was made
		wantID    int64
		wantPosts int
	}{
		{"made: found by its external id", true, 21, 1},
		{"not made: created again, never twice at once", false, 22, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t)
			var mu sync.Mutex
			var runs []*gh.CheckRun
			runs = append(runs, &gh.CheckRun{ID: gh.Int64(20), Name: gh.String("evalgate"), Status: gh.String("in_progress"), ExternalID: gh.String("evalgate/9001/1/evalgate")})
			posts := 0
			f.handle("POST /repos/o/r/check-runs", func(w http.ResponseWriter, r *http.Request) {
				in := decode[gh.CreateCheckRunOptions](t, r)
				mu.Lock()
				defer mu.Unlock()
				posts++
				if in.GetExternalID() != ours {
					t.Errorf("external id %q, want %q", in.GetExternalID(), ours)
				}
				run := &gh.CheckRun{ID: gh.Int64(int64(20 + posts)), Name: gh.String(in.Name), Status: gh.String("in_progress"), ExternalID: in.ExternalID}
				if posts == 1 {
					if tt.lands {
						runs = append(runs, run)
					}
					w.WriteHeader(http.StatusCreated) // and no body
					return
				}
				runs = append(runs, run)
				reply(t, w, http.StatusCreated, run)
			})
			f.handle("GET /repos/o/r/commits/abc/check-runs", func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				defer mu.Unlock()
				reply(t, w, http.StatusOK, &gh.ListCheckRunsResults{Total: gh.Int(len(runs)), CheckRuns: runs})
			})
			run, err := f.client(time.Now()).StartCheckRun(context.Background(), "o", "r", "evalgate", "abc", ours)
			if err != nil {
				t.Fatal(err)
			}
			if run.ID != tt.wantID || posts != tt.wantPosts {
				t.Errorf("run %d after %d creates; want %d after %d", run.ID, posts, tt.wantID, tt.wantPosts)
			}
			if n := f.count("GET /repos/o/r/commits/abc/check-runs"); n != 1 {
				t.Errorf("%d lookups, want 1 (after the empty answer)", n)
			}
		})
	}
}
