package github

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	gh "github.com/google/go-github/v60/github"
)

const acceptHead = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"

// The times GitHub gives: the head commit's first check suite at 10:00, the label at
// 10:05 (after the push: accepted) or 09:55 (before it: stale).
var (
	pushed       = time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	labeledAfter = pushed.Add(5 * time.Minute)
	labeledEarly = pushed.Add(-5 * time.Minute)
)

func labeled(login, label string, at time.Time) *gh.IssueEvent {
	return &gh.IssueEvent{Event: gh.String("labeled"), Actor: &gh.User{Login: gh.String(login)}, Label: &gh.Label{Name: gh.String(label)},
		CreatedAt: &gh.Timestamp{Time: at}}
}

func unlabeled(login, label string, at time.Time) *gh.IssueEvent {
	e := labeled(login, label, at)
	e.Event = gh.String("unlabeled")
	return e
}

func withID(id int64, e *gh.IssueEvent) *gh.IssueEvent {
	e.ID = gh.Int64(id)
	return e
}

// suitesAt are check suites created at each time, in the order given.
func suitesAt(times ...time.Time) []*gh.CheckSuite {
	var out []*gh.CheckSuite
	for i, t := range times {
		out = append(out, &gh.CheckSuite{ID: gh.Int64(int64(i + 1)), HeadSHA: gh.String(acceptHead), CreatedAt: &gh.Timestamp{Time: t}})
	}
	return out
}

// acceptFake serves pull request 7 with labels, its issue events, the permissions of
// maintainer (admin), dev (write) and reader (read), and suites on acceptHead.
func acceptFake(t *testing.T, labels []string, events []*gh.IssueEvent, suites []*gh.CheckSuite) *fakeGitHub {
	f := newFake(t)
	perms := map[string]string{"maintainer": "admin", "dev": "write", "reader": "read"}
	f.handle("GET /repos/o/r/pulls/7", func(w http.ResponseWriter, r *http.Request) {
		pr := &gh.PullRequest{Number: gh.Int(7)}
		for _, l := range labels {
			pr.Labels = append(pr.Labels, &gh.Label{Name: gh.String(l)})
		}
		reply(t, w, http.StatusOK, pr)
	})
	f.handle("GET /repos/o/r/issues/7/events", func(w http.ResponseWriter, r *http.Request) {
		reply(t, w, http.StatusOK, paginate(w, r, events))
	})
	f.handle("GET /repos/o/r/collaborators/{user}/permission", func(w http.ResponseWriter, r *http.Request) {
		p, ok := perms[r.PathValue("user")]
		if !ok {
			reply(t, w, http.StatusNotFound, map[string]string{"message": "Not Found"})
			return
		}
		reply(t, w, http.StatusOK, &gh.RepositoryPermissionLevel{Permission: gh.String(p)})
	})
	f.handle("GET /repos/o/r/commits/{ref}/check-suites", func(w http.ResponseWriter, r *http.Request) {
		if ref := r.PathValue("ref"); ref != acceptHead {
			t.Errorf("check suites of %q, want the head commit %s", ref, acceptHead)
		}
		page := paginate(w, r, suites)
		reply(t, w, http.StatusOK, &gh.ListCheckSuiteResults{Total: gh.Int(len(suites)), CheckSuites: page})
	})
	return f
}

func TestAcceptance(t *testing.T) {
	t.Parallel()
	const label = "evalgate/accept"
	tests := []struct {
		name      string
		labels    []string
		events    []*gh.IssueEvent
		suites    []*gh.CheckSuite
		head      string
		want      string // By()
		wantStale bool
		wantReqs  int
	}{{
		name:     "no label: one request",
		labels:   []string{"bug"},
		wantReqs: 1,
	}, {
		name:     "applied by a writer after the push",
		labels:   []string{"bug", label},
		events:   []*gh.IssueEvent{labeled("dev", "bug", labeledEarly), labeled("dev", label, labeledAfter)},
		suites:   suitesAt(pushed),
		want:     "dev",
		wantReqs: 4,
	}, {
		// GitHub's times are whole seconds: a push 0.9 s after a label applied at
		// 10:00:00.1 also reads 10:00:00, so the same second does not count.
		name:      "applied in the very second of the push: stale",
		labels:    []string{label},
		events:    []*gh.IssueEvent{labeled("dev", label, pushed)},
		suites:    suitesAt(pushed),
		wantStale: true,
		wantReqs:  4,
	}, {
		name:     "applied one second after the push: accepted",
		labels:   []string{label},
		events:   []*gh.IssueEvent{labeled("dev", label, pushed.Add(time.Second))},
		suites:   suitesAt(pushed),
		want:     "dev",
		wantReqs: 4,
	}, {
		// GitHub's times read in any zone: the label at 11:04:59+01:00 is 10:04:59 UTC;
		// the suites at 05:00:00-05:00 (10:00:00 UTC) and 04:59:59-05:00 (09:59:59
		// UTC), the earliest, are both before it.
		name:     "times in other zones",
		labels:   []string{label},
		events:   []*gh.IssueEvent{labeled("dev", label, time.Date(2026, 11, 27, 11, 4, 59, 0, time.FixedZone("", 3600)))},
		suites:   suitesAt(pushed.In(time.FixedZone("", -5*3600)), time.Date(2026, 11, 27, 4, 59, 59, 0, time.FixedZone("", -5*3600))),
		want:     "dev",
		wantReqs: 4,
	}, {
		// A suite at 10:06+01:00 is 09:06 UTC: the push came before the 10:05 UTC
		// label even though its wall clock reads later.
		name:     "a suite whose wall clock reads after the label",
		labels:   []string{label},
		events:   []*gh.IssueEvent{labeled("dev", label, labeledAfter)},
		suites:   suitesAt(time.Date(2026, 11, 27, 10, 6, 0, 0, time.FixedZone("", 3600))),
		want:     "dev",
		wantReqs: 4,
	}, {
		// The earliest suite is the push; a suite re-run at 10:10 (after the label) does
		// not make the commit newer.
		name:     "the earliest suite is the push",
		labels:   []string{label},
		events:   []*gh.IssueEvent{labeled("maintainer", label, labeledAfter)},
		suites:   suitesAt(pushed.Add(10*time.Minute), pushed),
		want:     "maintainer",
		wantReqs: 4,
	}, {
		name:      "applied before the head commit was pushed: stale",
		labels:    []string{label},
		events:    []*gh.IssueEvent{labeled("maintainer", label, labeledEarly)},
		suites:    suitesAt(pushed),
		wantStale: true,
		wantReqs:  4,
	}, {
		name:      "the head commit has no check suite: when it was pushed is unknown, not accepted",
		labels:    []string{label},
		events:    []*gh.IssueEvent{labeled("maintainer", label, labeledAfter)},
		wantStale: true,
		wantReqs:  4,
	}, {
		name:      "no head sha: not accepted, no suites asked for",
		labels:    []string{label},
		events:    []*gh.IssueEvent{labeled("maintainer", label, labeledAfter)},
		head:      "-",
		wantStale: true,
		wantReqs:  3,
	}, {
		name:     "applied by a read-only user",
		labels:   []string{label},
		events:   []*gh.IssueEvent{labeled("reader", label, labeledAfter)},
		suites:   suitesAt(pushed),
		wantReqs: 3,
	}, {
		name:     "the last application counts",
		labels:   []string{label},
		events:   []*gh.IssueEvent{labeled("maintainer", label, labeledAfter), {Event: gh.String("unlabeled")}, labeled("reader", label, labeledAfter)},
		wantReqs: 3,
	}, {
		// Re-applied after the push: the last application's time counts.
		name:     "removed and re-applied after the push",
		labels:   []string{label},
		events:   []*gh.IssueEvent{labeled("maintainer", label, labeledEarly), {Event: gh.String("unlabeled")}, labeled("maintainer", label, labeledAfter)},
		suites:   suitesAt(pushed),
		want:     "maintainer",
		wantReqs: 4,
	}, {
		// The pull request was read with the label, which a maintainer then removed
		// before the events were read: the removal is the last word.
		name:     "removed after the pull request was read",
		labels:   []string{label},
		events:   []*gh.IssueEvent{labeled("maintainer", label, labeledAfter), unlabeled("maintainer", label, labeledAfter.Add(time.Minute))},
		suites:   suitesAt(pushed),
		wantReqs: 2,
	}, {
		name:     "another label removed after it: still accepted",
		labels:   []string{label},
		events:   []*gh.IssueEvent{labeled("maintainer", label, labeledAfter), unlabeled("maintainer", "bug", labeledAfter.Add(time.Minute))},
		suites:   suitesAt(pushed),
		want:     "maintainer",
		wantReqs: 4,
	}, {
		// Newest first: the reader's re-application at 10:06 is the last, whatever the
		// order of the answer; the maintainer's at 10:05 no longer counts.
		name:     "events listed newest first",
		labels:   []string{label},
		events:   []*gh.IssueEvent{labeled("reader", label, labeledAfter.Add(time.Minute)), unlabeled("maintainer", label, labeledAfter.Add(30*time.Second)), labeled("maintainer", label, labeledAfter)},
		suites:   suitesAt(pushed),
		wantReqs: 3,
	}, {
		// Within one second the event ids say which came last: the removal (id 2).
		name:     "applied and removed in the same second",
		labels:   []string{label},
		events:   []*gh.IssueEvent{withID(2, unlabeled("maintainer", label, labeledAfter)), withID(1, labeled("maintainer", label, labeledAfter))},
		suites:   suitesAt(pushed),
		wantReqs: 2,
	}, {
		name:     "applied by someone who is not a collaborator",
		labels:   []string{label},
		events:   []*gh.IssueEvent{labeled("stranger", label, labeledAfter)},
		wantReqs: 3,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := acceptFake(t, tt.labels, tt.events, tt.suites)
			head := acceptHead
			if tt.head == "-" {
				head = ""
			}
			got, err := f.client(time.Now()).Acceptance(context.Background(), "o", "r", 7, head, label, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got.By() != tt.want || got.Stale() != tt.wantStale {
				t.Errorf("Acceptance = %+v: By %q, Stale %v; want %q, %v", got, got.By(), got.Stale(), tt.want, tt.wantStale)
			}
			if n := len(f.requests()); n != tt.wantReqs {
				t.Errorf("%d requests, want %d: %q", n, tt.wantReqs, f.requests())
			}
		})
	}
}

// A stale acceptance keeps what the notice needs: who, when labeled, when pushed.
func TestAcceptanceStaleKeepsBothTimes(t *testing.T) {
	t.Parallel()
	f := acceptFake(t, []string{"evalgate/accept"}, []*gh.IssueEvent{labeled("maintainer", "evalgate/accept", labeledEarly)}, suitesAt(pushed))
	got, err := f.client(time.Now()).Acceptance(context.Background(), "o", "r", 7, acceptHead, "evalgate/accept", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := Acceptance{Labeler: "maintainer", LabeledAt: labeledEarly, HeadSHA: acceptHead, PushedAt: pushed}
	if !got.LabeledAt.Equal(want.LabeledAt) || !got.PushedAt.Equal(want.PushedAt) || got.Labeler != want.Labeler || got.HeadSHA != want.HeadSHA {
		t.Errorf("Acceptance = %+v, want %+v", got, want)
	}
}

// The suites come over pages: the first page holds 100 suites made at 10:10 (re-runs,
// after the 10:05 label), the second the push's own at 10:00. Only reading both finds
// that the label came after the push.
func TestAcceptanceReadsEverySuitePage(t *testing.T) {
	t.Parallel()
	var times []time.Time
	for range perPage {
		times = append(times, pushed.Add(10*time.Minute))
	}
	times = append(times, pushed)
	f := acceptFake(t, []string{"evalgate/accept"}, []*gh.IssueEvent{labeled("dev", "evalgate/accept", labeledAfter)}, suitesAt(times...))
	got, err := f.client(time.Now()).Acceptance(context.Background(), "o", "r", 7, acceptHead, "evalgate/accept", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.By() != "dev" || !got.PushedAt.Equal(pushed) {
		t.Errorf("Acceptance = %+v, want pushed at %s and accepted by dev", got, pushed)
	}
	if n := f.count("GET /repos/o/r/commits/" + acceptHead + "/check-suites"); n != 2 {
		t.Errorf("%d pages of suites read, want 2", n)
	}
}

// A token that may not read check suites: the acceptance does not count, and the
// error says what failed while the labeler is still known.
func TestAcceptanceSuitesUnreadable(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	f.handle("GET /repos/o/r/pulls/7", func(w http.ResponseWriter, r *http.Request) {
		reply(t, w, http.StatusOK, &gh.PullRequest{Number: gh.Int(7), Labels: []*gh.Label{{Name: gh.String("evalgate/accept")}}})
	})
	f.handle("GET /repos/o/r/issues/7/events", func(w http.ResponseWriter, r *http.Request) {
		reply(t, w, http.StatusOK, []*gh.IssueEvent{labeled("maintainer", "evalgate/accept", labeledAfter)})
	})
	f.handle("GET /repos/o/r/collaborators/{user}/permission", func(w http.ResponseWriter, r *http.Request) {
		reply(t, w, http.StatusOK, &gh.RepositoryPermissionLevel{Permission: gh.String("admin")})
	})
	f.handle("GET /repos/o/r/commits/{ref}/check-suites", func(w http.ResponseWriter, r *http.Request) {
		reply(t, w, http.StatusForbidden, map[string]string{"message": "Resource not accessible by integration"})
	})
	got, err := f.client(time.Now()).Acceptance(context.Background(), "o", "r", 7, acceptHead, "evalgate/accept", nil)
	if !errors.Is(err, ErrReadOnly) || got.By() != "" || !got.Stale() || got.Labeler != "maintainer" {
		t.Errorf("Acceptance = %+v, %v; want maintainer's label not counted and a 403 error", got, err)
	}
	if want := fmt.Sprintf("list check suites of o/r@%s", acceptHead); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v; want it to say %q", err, want)
	}
}

// The events come over pages: the first page holds 100 comments' "mentioned" events and
// the maintainer's 09:55 label, the second its removal and a writer's 10:05
// re-application. Only reading both finds the last one (after the 10:00 push).
func TestAcceptanceReadsEveryEventPage(t *testing.T) {
	t.Parallel()
	const label = "evalgate/accept"
	var events []*gh.IssueEvent
	for range perPage - 1 {
		events = append(events, &gh.IssueEvent{Event: gh.String("mentioned"), CreatedAt: &gh.Timestamp{Time: labeledEarly}})
	}
	events = append(events, labeled("maintainer", label, labeledEarly),
		unlabeled("maintainer", label, labeledEarly.Add(time.Minute)), labeled("dev", label, labeledAfter))
	f := acceptFake(t, []string{label}, events, suitesAt(pushed))
	got, err := f.client(time.Now()).Acceptance(context.Background(), "o", "r", 7, acceptHead, label, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.By() != "dev" || !got.LabeledAt.Equal(labeledAfter) {
		t.Errorf("Acceptance = %+v, want dev's 10:05 label", got)
	}
	if n := f.count("GET /repos/o/r/issues/7/events"); n != 2 {
		t.Errorf("%d pages of events read, want 2", n)
	}
}

// With a Trigger (a pull request event's run) the label accepts the head commit only in
// the run its last application started, whatever the times: no check suite is read.
// A label applied at 09:55, before the head's push at 10:00, accepts it in that run
// (the payload's head is the commit it was applied to); one applied at 10:05 accepts
// nothing in a synchronize run.
func TestAcceptanceBoundToTheLabelingRun(t *testing.T) {
	t.Parallel()
	const label = "evalgate/accept"
	tests := []struct {
		name      string
		events    []*gh.IssueEvent
		trigger   Trigger
		want      string
		wantStale bool
	}{
		{"the run applying the label", []*gh.IssueEvent{labeled("dev", label, labeledEarly)}, Trigger{"labeled", label, "dev"}, "dev", false},
		{"the label's name and login in other case", []*gh.IssueEvent{labeled("dev", label, labeledEarly)}, Trigger{"labeled", "EvalGate/Accept", "Dev"}, "dev", false},
		{"a synchronize run with the label on", []*gh.IssueEvent{labeled("dev", label, labeledAfter)}, Trigger{"synchronize", "", "dev"}, "", true},
		{"the run applying another label", []*gh.IssueEvent{labeled("dev", label, labeledAfter)}, Trigger{"labeled", "bug", "dev"}, "", true},
		{"the run of an application since superseded by another writer's", []*gh.IssueEvent{labeled("maintainer", label, labeledEarly), unlabeled("dev", label, labeledAfter), labeled("dev", label, labeledAfter.Add(time.Second))},
			Trigger{"labeled", label, "maintainer"}, "", true},
		{"the run applying it, by a reader", []*gh.IssueEvent{labeled("reader", label, labeledAfter)}, Trigger{"labeled", label, "reader"}, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := acceptFake(t, []string{label}, tt.events, nil)
			trig := tt.trigger
			got, err := f.client(time.Now()).Acceptance(context.Background(), "o", "r", 7, acceptHead, label, &trig)
			if err != nil {
				t.Fatal(err)
			}
			if got.By() != tt.want || got.Stale() != tt.wantStale {
				t.Errorf("Acceptance = %+v: By %q, Stale %v; want %q, %v", got, got.By(), got.Stale(), tt.want, tt.wantStale)
			}
			for _, r := range f.requests() {
				if strings.Contains(r, "check-suites") {
					t.Errorf("read %s; the time rule is not used here", r)
				}
			}
		})
	}
	// Without a label on the pull request, a labeled run's payload accepts nothing.
	f := acceptFake(t, nil, []*gh.IssueEvent{labeled("dev", label, labeledEarly)}, nil)
	got, err := f.client(time.Now()).Acceptance(context.Background(), "o", "r", 7, acceptHead, label, &Trigger{"labeled", label, "dev"})
	if err != nil || got.By() != "" || got.Stale() {
		t.Errorf("label removed since: Acceptance = %+v, %v; want nothing", got, err)
	}
}
