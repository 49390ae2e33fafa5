package github

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	gh "github.com/google/go-github/v60/github"
)

// checkUpdate is what one PATCH of the check run carried.
type checkUpdate struct {
	Status, Conclusion string
	Annotations        int
	SummaryLen         int
}

// fakeChecks registers check-run handlers on f and records the updates.
func fakeChecks(t *testing.T, f *fakeGitHub) (creates *[]gh.CreateCheckRunOptions, updates *[]checkUpdate) {
	var mu sync.Mutex
	creates, updates = new([]gh.CreateCheckRunOptions), new([]checkUpdate)
	f.handle("POST /repos/o/r/check-runs", func(w http.ResponseWriter, r *http.Request) {
		in := decode[gh.CreateCheckRunOptions](t, r)
		mu.Lock()
		*creates = append(*creates, in)
		mu.Unlock()
		reply(t, w, http.StatusCreated, &gh.CheckRun{ID: gh.Int64(42), HTMLURL: gh.String("https://github.com/o/r/runs/42")})
	})
	f.handle("PATCH /repos/o/r/check-runs/42", func(w http.ResponseWriter, r *http.Request) {
		in := decode[gh.UpdateCheckRunOptions](t, r)
		if in.Name != "evalgate: tutor" {
			t.Errorf("update name = %q", in.Name)
		}
		if in.Output == nil || in.Output.GetTitle() == "" || in.Output.GetSummary() == "" {
			t.Errorf("update without output title and summary: %+v", in.Output)
		}
		for _, a := range in.Output.Annotations {
			if a.GetPath() == "" || a.GetStartLine() < 1 || a.GetEndLine() < a.GetStartLine() || a.GetMessage() == "" {
				t.Errorf("incomplete annotation %+v", a)
			}
		}
		mu.Lock()
		*updates = append(*updates, checkUpdate{
			Status: in.GetStatus(), Conclusion: in.GetConclusion(),
			Annotations: len(in.Output.Annotations), SummaryLen: len(in.Output.GetSummary()),
		})
		mu.Unlock()
		reply(t, w, http.StatusOK, &gh.CheckRun{ID: gh.Int64(42), HTMLURL: gh.String("https://github.com/o/r/runs/42")})
	})
	return creates, updates
}

const tableLine = "| helpfulness | 0.82 | 0.78 | −4.0 pts | ❌ |\n"

func annotations(n int) []Annotation {
	out := make([]Annotation, n)
	for i := range out {
		out[i] = Annotation{Path: "examples/tutor/suite.yaml", StartLine: 10 * (i + 1), Level: LevelFailure,
			Title: fmt.Sprintf("item t-%03d newly fails", i), Message: "score 0.40 (baseline 0.90)"}
	}
	return out
}

func TestPublishCheckRun(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		annotations int
		summary     string
		want        []checkUpdate
	}{{
		name:    "no annotations: one update completes",
		summary: "all good",
		want:    []checkUpdate{{Status: "completed", Conclusion: "failure", SummaryLen: 8}},
	}, {
		name:        "50 annotations fit one request",
		annotations: 50,
		summary:     "s",
		want:        []checkUpdate{{Status: "completed", Conclusion: "failure", Annotations: 50, SummaryLen: 1}},
	}, {
		name:        "120 annotations take 3 requests, the conclusion last",
		annotations: 120,
		summary:     "s",
		want: []checkUpdate{
			{Annotations: 50, SummaryLen: 1},
			{Annotations: 50, SummaryLen: 1},
			{Status: "completed", Conclusion: "failure", Annotations: 20, SummaryLen: 1},
		},
	}, {
		name:    "summary cut below 65,535 characters",
		summary: strings.Repeat(tableLine, 3000),
		// The whole lines that fit beside the note, less the last newline, then the note.
		want: []checkUpdate{{Status: "completed", Conclusion: "failure",
			SummaryLen: (65535-len(TruncationNote))/len(tableLine)*len(tableLine) - 1 + len(TruncationNote)}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t)
			creates, updates := fakeChecks(t, f)
			p := Publication{
				Owner: "o", Repo: "r", HeadSHA: "ec26c3e", CheckName: "evalgate: tutor",
				Conclusion: ConclusionFailure, CheckTitle: "❌ score dropped 4.0 pts", CheckSummary: tt.summary,
				Annotations: annotations(tt.annotations),
			}
			got, err := f.client(time.Now()).Publish(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(Published{CheckRunID: 42, CheckRunURL: "https://github.com/o/r/runs/42"}, got); diff != "" {
				t.Errorf("Published (-want +got):\n%s", diff)
			}
			wantCreate := []gh.CreateCheckRunOptions{{Name: "evalgate: tutor", HeadSHA: "ec26c3e", Status: gh.String("in_progress")}}
			if diff := cmp.Diff(wantCreate, *creates); diff != "" {
				t.Errorf("creates (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, *updates); diff != "" {
				t.Errorf("updates (-want +got):\n%s", diff)
			}
			for _, u := range *updates {
				if u.SummaryLen > maxCheckOutputLength {
					t.Errorf("summary of %d bytes exceeds %d", u.SummaryLen, maxCheckOutputLength)
				}
			}
		})
	}
}

func TestPublishUsesStartedCheckRun(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	creates, updates := fakeChecks(t, f)
	p := Publication{Owner: "o", Repo: "r", HeadSHA: "ec26c3e", CheckName: "evalgate: tutor", CheckRunID: 42,
		Conclusion: ConclusionNeutral, CheckTitle: "accepted", CheckSummary: "s"}
	if _, err := f.client(time.Now()).Publish(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	if len(*creates) != 0 {
		t.Errorf("%d check runs created, want 0", len(*creates))
	}
	if diff := cmp.Diff([]checkUpdate{{Status: "completed", Conclusion: "neutral", SummaryLen: 1}}, *updates); diff != "" {
		t.Errorf("updates (-want +got):\n%s", diff)
	}
}

// A start answered 502 after GitHub made the run: the run is found, not made twice.
func TestStartCheckRunAnsweredBadly(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	posts := 0
	made := false
	f.handle("POST /repos/o/r/check-runs", func(w http.ResponseWriter, r *http.Request) {
		posts++
		made = true
		reply(t, w, http.StatusBadGateway, map[string]string{"message": "Bad Gateway"})
	})
	f.handle("GET /repos/o/r/commits/abc/check-runs", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if q.Get("check_name") != "evalgate" || q.Get("status") != "in_progress" {
			t.Errorf("check runs listed with %v", q)
		}
		res := &gh.ListCheckRunsResults{}
		if made {
			res.CheckRuns = []*gh.CheckRun{
				{ID: gh.Int64(5), Name: gh.String("evalgate"), Status: gh.String("in_progress")},
				{ID: gh.Int64(9), Name: gh.String("evalgate"), Status: gh.String("in_progress"), HTMLURL: gh.String("https://github.com/o/r/runs/9")},
				{ID: gh.Int64(11), Name: gh.String("other"), Status: gh.String("in_progress")},
			}
		}
		reply(t, w, http.StatusOK, res)
	})
	run, err := f.client(time.Now()).StartCheckRun(context.Background(), "o", "r", "evalgate", "abc", "")
	if err != nil {
		t.Fatal(err)
	}
	if run.ID != 9 || posts != 1 {
		t.Errorf("run %+v after %d POSTs; want the newest run named evalgate (9) after 1", run, posts)
	}
}
