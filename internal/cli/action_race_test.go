package cli_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	gh "github.com/google/go-github/v60/github"
)

// TestActionConcurrentRunsOneSticky runs the built binary twice at once on one pull
// request (a re-run, or a push during a run), every comment write taking 1 s of real
// time and landing at a random point of it, in 20 trials: each ends with exactly one
// sticky comment, holding the later run's body (the greater GITHUB_RUN_ID), and a
// person's comment that starts with the marker is neither edited nor deleted.
// internal/github's TestUpsertCommentConcurrentRuns is the same on a virtual clock; this
// one takes a minute of real time, so it runs only with EVALGATE_REAL_RACE=1.
func TestActionConcurrentRunsOneSticky(t *testing.T) {
	if os.Getenv("EVALGATE_REAL_RACE") != "1" {
		t.Skip("a minute of real time: set EVALGATE_REAL_RACE=1")
	}
	t.Parallel()
	bin := buildEvalgate(t)
	human := tutorMarker + "\nI pasted the marker"
	for trial := range 20 {
		t.Run(strconv.Itoa(trial), func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(7, uint64(trial)))
			var rmu sync.Mutex
			f := newFakeGitHub(t, fakeRepo{baseFiles: baseFiles(t)})
			f.comments = append(f.comments, &gh.IssueComment{ID: gh.Int64(1), Body: gh.String(human), User: &gh.User{Login: gh.String("octocat")},
				CreatedAt: &gh.Timestamp{Time: time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)}})
			f.mux.HandleFunc("DELETE "+repoPrefix+"/issues/comments/{id}", func(w http.ResponseWriter, r *http.Request) {
				for i, c := range f.comments {
					if strconv.FormatInt(c.GetID(), 10) == r.PathValue("id") {
						f.comments = append(f.comments[:i], f.comments[i+1:]...)
						w.WriteHeader(http.StatusNoContent)
						return
					}
				}
				f.reply(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
			})
			inner := f.srv.Config.Handler
			f.srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodGet || !strings.Contains(r.URL.Path, "/comments") {
					inner.ServeHTTP(w, r)
					return
				}
				rmu.Lock()
				at := time.Duration(rng.IntN(11)) * 100 * time.Millisecond
				rmu.Unlock()
				time.Sleep(at)
				inner.ServeHTTP(w, r)
				time.Sleep(time.Second - at)
			})
			var wg sync.WaitGroup
			for i, id := range []string{"100", "101"} {
				rmu.Lock()
				delay := time.Duration(rng.IntN(6)) * 100 * time.Millisecond
				rmu.Unlock()
				wg.Add(1)
				go func() {
					defer wg.Done()
					time.Sleep(delay)
					spec := prSpec("pull_request.synchronize", "pr.jsonl", nil)
					spec.env = map[string]string{"GITHUB_RUN_ID": id}
					if run := runAction(t, bin, f, spec); run.code != 0 {
						t.Errorf("run %d (%s): exit %d\n%s", i, id, run.code, run.stdout)
					}
				}()
			}
			wg.Wait()
			f.mu.Lock()
			defer f.mu.Unlock()
			var stickies []string
			humanKept := false
			for _, c := range f.comments {
				switch {
				case c.GetUser().GetLogin() == "octocat":
					humanKept = c.GetBody() == human
				case strings.HasPrefix(c.GetBody(), tutorMarker):
					stickies = append(stickies, c.GetBody())
				}
			}
			if !humanKept {
				t.Errorf("the person's marker comment was edited or deleted")
			}
			if len(stickies) != 1 {
				t.Fatalf("%d stickies; want 1", len(stickies))
			}
			if !strings.Contains(stickies[0], fmt.Sprintf("<!-- evalgate:run=%s.", "101")) {
				t.Errorf("the sticky holds an earlier run's body:\n%s", stickies[0][max(0, len(stickies[0])-200):])
			}
		})
	}
}
