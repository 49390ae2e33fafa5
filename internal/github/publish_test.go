package github

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"
)

func TestPublishReadOnly(t *testing.T) {
	t.Parallel()
	forbidden := func(w http.ResponseWriter, r *http.Request) {
		reply(t, w, http.StatusForbidden, map[string]string{"message": "Resource not accessible by integration"})
	}
	tests := []struct {
		name     string
		fork     bool
		wantReqs []string
	}{{
		name: "fork: nothing is tried",
		fork: true,
	}, {
		name: "403 on every write",
		wantReqs: []string{
			"POST /repos/o/r/check-runs",
			"GET /user",
			"GET /repos/o/r/issues/7/comments",
			"GET /repos/o/r/issues/7/comments",
			"POST /repos/o/r/issues/7/comments",
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t)
			f.handle("POST /repos/o/r/check-runs", forbidden)
			f.handle("POST /repos/o/r/issues/7/comments", forbidden)
			f.handle("GET /repos/o/r/issues/7/comments", func(w http.ResponseWriter, r *http.Request) {
				reply(t, w, http.StatusOK, []any{})
			})
			p := publication("x", CommentAlways)
			p.FromFork = tt.fork
			p.HeadSHA, p.CheckName, p.Conclusion, p.CheckSummary = "ec26c3e", "evalgate: tutor", ConclusionFailure, "s"
			got, err := f.client(time.Now()).Publish(context.Background(), p)
			if !errors.Is(err, ErrReadOnly) {
				t.Errorf("err = %v, want ErrReadOnly", err)
			}
			if got != (Published{}) {
				t.Errorf("Published = %+v, want zero", got)
			}
			if got, want := f.requests(), tt.wantReqs; len(got) != len(want) {
				t.Errorf("requests = %q, want %q", got, want)
			}
		})
	}
}
