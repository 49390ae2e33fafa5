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
// name, head sha and this attempt's external id before anything is made again, three
// times while the listing does not show it yet (a listing may lag the create). A run
// in progress of another attempt (another external id) is not taken for it.
func TestStartCheckRunEmptyAnswer(t *testing.T) {
	t.Parallel()
	const ours = "evalgate/9001/2/evalgate"
	for _, tt := range []struct {
		name        string
		lands       bool // the empty answer's create was made
		hiddenFor   int  // lookups that do not list it yet
		wantID      int64
		wantPosts   int
		wantLookups int
	}{
		{"made: found by its external id", true, 0, 21, 1, 1},
		{"made, listed late: found, not made twice", true, 2, 21, 1, 3},
		{"not made: created again, never twice at once", false, 0, 22, 2, 3},
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
			lookups := 0
			f.handle("GET /repos/o/r/commits/abc/check-runs", func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				defer mu.Unlock()
				if lookups++; lookups <= tt.hiddenFor {
					reply(t, w, http.StatusOK, &gh.ListCheckRunsResults{Total: gh.Int(1), CheckRuns: runs[:1]})
					return
				}
				reply(t, w, http.StatusOK, &gh.ListCheckRunsResults{Total: gh.Int(len(runs)), CheckRuns: runs})
			})
			run, err := f.client(time.Now()).StartCheckRun(context.Background(), "o", "r", "evalgate", "abc", ours)
			if err != nil {
				t.Fatal(err)
			}
			if run.ID != tt.wantID || posts != tt.wantPosts {
				t.Errorf("run %d after %d creates; want %d after %d", run.ID, posts, tt.wantID, tt.wantPosts)
			}
			if n := f.count("GET /repos/o/r/commits/abc/check-runs"); n != tt.wantLookups {
				t.Errorf("%d lookups, want %d (after the empty answer)", n, tt.wantLookups)
			}
		})
	}
}
