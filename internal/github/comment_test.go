package github

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	gh "github.com/google/go-github/v60/github"
)

const testMarker = "<!-- evalgate:suite=tutor -->"

// commentStore is the fake's issue-comment state for o/r#7.
type commentStore struct {
	mu       sync.Mutex
	comments []*gh.IssueComment
	nextID   int64
	lists    int               // listings started (page 1 requests)
	onList   func(listing int) // runs before listing number n is served
	status   int               // when set, writes answer this status
	// latency, when set, runs each write's apply at the point of its choosing.
	latency func(apply func())
	touched []string // "PATCH id" and "DELETE id" of every write that reached the store
}

func newCommentStore(t *testing.T, f *fakeGitHub, bodies ...string) *commentStore {
	s := &commentStore{nextID: 1000}
	for _, b := range bodies {
		s.add(b)
	}
	f.handle("GET /repos/o/r/issues/7/comments", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		if p := r.URL.Query().Get("page"); p == "" || p == "1" {
			s.lists++
			if s.onList != nil {
				s.onList(s.lists)
			}
		}
		reply(t, w, http.StatusOK, paginate(w, r, s.comments))
	})
	f.handle("POST /repos/o/r/issues/7/comments", func(w http.ResponseWriter, r *http.Request) {
		in := decode[gh.IssueComment](t, r)
		var code int
		var out any
		s.write(func() {
			if s.status != 0 {
				code, out = s.status, map[string]string{"message": "Resource not accessible by integration"}
				return
			}
			code, out = http.StatusCreated, s.add(in.GetBody())
		})
		s.mu.Lock()
		defer s.mu.Unlock()
		reply(t, w, code, out)
	})
	f.handle("PATCH /repos/o/r/issues/comments/{id}", func(w http.ResponseWriter, r *http.Request) {
		in := decode[gh.IssueComment](t, r)
		code, out := http.StatusNotFound, any(map[string]string{"message": "Not Found"})
		s.write(func() {
			s.touched = append(s.touched, "PATCH "+r.PathValue("id"))
			if c := s.find(r.PathValue("id")); c != nil {
				c.Body = in.Body
				code, out = http.StatusOK, c
			}
		})
		s.mu.Lock()
		defer s.mu.Unlock()
		reply(t, w, code, out)
	})
	f.handle("DELETE /repos/o/r/issues/comments/{id}", func(w http.ResponseWriter, r *http.Request) {
		found := false
		s.write(func() {
			s.touched = append(s.touched, "DELETE "+r.PathValue("id"))
			for i, c := range s.comments {
				if strconv.FormatInt(c.GetID(), 10) == r.PathValue("id") {
					s.comments = append(s.comments[:i], s.comments[i+1:]...)
					found = true
					return
				}
			}
		})
		if !found { // as GitHub: another run may have deleted it first
			reply(t, w, http.StatusNotFound, map[string]string{"message": "Not Found"})
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	return s
}

// write applies a write under mu, after the store's latency when it has one.
func (s *commentStore) write(apply func()) {
	locked := func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		apply()
	}
	if s.latency == nil {
		locked()
		return
	}
	s.latency(locked)
}

// add appends a comment by the bot (the fake's GITHUB_TOKEN identity); callers hold
// mu or own s exclusively.
func (s *commentStore) add(body string) *gh.IssueComment {
	return s.addBy(ActionsBot, body)
}

// addBy appends a comment by login.
func (s *commentStore) addBy(login, body string) *gh.IssueComment {
	s.nextID++
	c := &gh.IssueComment{
		ID:        gh.Int64(s.nextID),
		User:      &gh.User{Login: gh.String(login)},
		Body:      gh.String(body),
		HTMLURL:   gh.String(fmt.Sprintf("https://github.com/o/r/pull/7#issuecomment-%d", s.nextID)),
		CreatedAt: &gh.Timestamp{Time: time.Date(2025, 1, 1, 0, 0, int(s.nextID-1000), 0, time.UTC)},
	}
	s.comments = append(s.comments, c)
	return c
}

func (s *commentStore) find(id string) *gh.IssueComment {
	for _, c := range s.comments {
		if strconv.FormatInt(c.GetID(), 10) == id {
			return c
		}
	}
	return nil
}

// bodies returns the stored comment bodies, oldest first.
func (s *commentStore) bodies() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, c := range s.comments {
		out = append(out, c.GetBody())
	}
	return out
}

func publication(body string, mode CommentMode) Publication {
	return Publication{Owner: "o", Repo: "r", PRNumber: 7, Marker: testMarker, CommentBody: body, CommentMode: mode}
}

func TestUpsertComment(t *testing.T) {
	t.Parallel()
	mine := func(s string) string { return testMarker + "\n" + s }
	filler := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("comment %d from a person", i)
		}
		return out
	}
	tests := []struct {
		name     string
		existing []string
		onList   func(s *commentStore, listing int)
		pub      Publication
		wantURL  string
		want     []string // comment bodies afterwards
		wantReqs []string
	}{{
		name:    "first run creates after listing twice",
		pub:     publication("score 0.91", CommentAlways),
		wantURL: "https://github.com/o/r/pull/7#issuecomment-1001",
		want:    []string{mine("score 0.91")},
		wantReqs: []string{
			"GET /repos/o/r/issues/7/comments",
			"GET /repos/o/r/issues/7/comments",
			"POST /repos/o/r/issues/7/comments",
			"GET /repos/o/r/issues/7/comments", // the create is checked: no racing duplicate
		},
	}, {
		name:     "second run updates in place",
		existing: []string{"LGTM", mine("score 0.91"), "thanks"},
		pub:      publication("score 0.88", CommentAlways),
		wantURL:  "https://github.com/o/r/pull/7#issuecomment-1002",
		want:     []string{"LGTM", mine("score 0.88"), "thanks"},
		wantReqs: []string{"GET /repos/o/r/issues/7/comments", "PATCH /repos/o/r/issues/comments/1002", "GET /repos/o/r/issues/7/comments"},
	}, {
		name:     "same body is not rewritten",
		existing: []string{mine("score 0.91")},
		pub:      publication("score 0.91", CommentAlways),
		wantURL:  "https://github.com/o/r/pull/7#issuecomment-1001",
		want:     []string{mine("score 0.91")},
		wantReqs: []string{"GET /repos/o/r/issues/7/comments"},
	}, {
		name: "a racing job's comment found by the second listing is updated, not duplicated",
		onList: func(s *commentStore, listing int) {
			if listing == 2 {
				s.add(mine("score from the other job"))
			}
		},
		pub:     publication("score 0.88", CommentAlways),
		wantURL: "https://github.com/o/r/pull/7#issuecomment-1001",
		want:    []string{mine("score 0.88")},
		wantReqs: []string{
			"GET /repos/o/r/issues/7/comments",
			"GET /repos/o/r/issues/7/comments",
			"PATCH /repos/o/r/issues/comments/1001",
			"GET /repos/o/r/issues/7/comments",
		},
	}, {
		name:     "marker on page 3",
		existing: append(filler(230), mine("old")), // per_page 100: index 230 is on page 3
		pub:      publication("new", CommentAlways),
		wantURL:  "https://github.com/o/r/pull/7#issuecomment-1231",
		want:     append(filler(230), mine("new")),
		wantReqs: []string{
			"GET /repos/o/r/issues/7/comments",
			"GET /repos/o/r/issues/7/comments",
			"GET /repos/o/r/issues/7/comments",
			"PATCH /repos/o/r/issues/comments/1231",
			"GET /repos/o/r/issues/7/comments",
			"GET /repos/o/r/issues/7/comments",
			"GET /repos/o/r/issues/7/comments",
		},
	}, {
		name:     "duplicates: the oldest updated, then the newer deleted",
		existing: []string{mine("a"), "hi", mine("b"), mine("c")},
		pub:      publication("d", CommentAlways),
		wantURL:  "https://github.com/o/r/pull/7#issuecomment-1001",
		want:     []string{mine("d"), "hi"},
		wantReqs: []string{
			"GET /repos/o/r/issues/7/comments",
			"PATCH /repos/o/r/issues/comments/1001",
			"GET /repos/o/r/issues/7/comments",
			"DELETE /repos/o/r/issues/comments/1003",
			"DELETE /repos/o/r/issues/comments/1004",
		},
	}, {
		name:     "a comment quoting the marker is not ours",
		existing: []string{"see " + testMarker},
		pub:      publication(mine("x"), CommentAlways),
		wantURL:  "https://github.com/o/r/pull/7#issuecomment-1002",
		want:     []string{"see " + testMarker, mine("x")},
		wantReqs: []string{
			"GET /repos/o/r/issues/7/comments",
			"GET /repos/o/r/issues/7/comments",
			"POST /repos/o/r/issues/7/comments",
			"GET /repos/o/r/issues/7/comments",
		},
	}, {
		name:     "never: no request",
		existing: []string{mine("a")},
		pub:      publication("b", CommentNever),
		want:     []string{mine("a")},
	}, {
		name:     "on-failure, passing, no comment yet: nothing created",
		pub:      publication("pass", CommentOnFailure),
		wantReqs: []string{"GET /repos/o/r/issues/7/comments"},
	}, {
		name:     "on-failure, passing, comment exists: kept current",
		existing: []string{mine("fail")},
		pub:      publication("pass", CommentOnFailure),
		wantURL:  "https://github.com/o/r/pull/7#issuecomment-1001",
		want:     []string{mine("pass")},
		wantReqs: []string{"GET /repos/o/r/issues/7/comments", "PATCH /repos/o/r/issues/comments/1001", "GET /repos/o/r/issues/7/comments"},
	}, {
		name: "on-change, changed: created",
		pub: func() Publication {
			p := publication("moved", CommentOnChange)
			p.Changed = true
			return p
		}(),
		wantURL: "https://github.com/o/r/pull/7#issuecomment-1001",
		want:    []string{mine("moved")},
		wantReqs: []string{
			"GET /repos/o/r/issues/7/comments",
			"GET /repos/o/r/issues/7/comments",
			"POST /repos/o/r/issues/7/comments",
			"GET /repos/o/r/issues/7/comments",
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t)
			s := newCommentStore(t, f, tt.existing...)
			if tt.onList != nil {
				s.onList = func(n int) { tt.onList(s, n) }
			}
			url, err := f.client(time.Now()).UpsertComment(context.Background(), tt.pub)
			if err != nil {
				t.Fatal(err)
			}
			if url != tt.wantURL {
				t.Errorf("url = %q, want %q", url, tt.wantURL)
			}
			if diff := cmp.Diff(tt.want, s.bodies()); diff != "" {
				t.Errorf("comments (-want +got):\n%s", diff)
			}
			wantReqs := tt.wantReqs
			if len(wantReqs) > 0 { // the token's identity first (GITHUB_TOKEN: a 403)
				wantReqs = append([]string{"GET /user"}, wantReqs...)
			}
			if diff := cmp.Diff(wantReqs, f.requests()); diff != "" {
				t.Errorf("requests (-want +got):\n%s", diff)
			}
		})
	}
}

func TestUpsertCommentTruncates(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	s := newCommentStore(t, f)
	row := "| item | 0.50 | 0.40 | −10.0 pts | ❌ |\n"
	body := "## evalgate\n\n" + strings.Repeat(row, 70000/len(row)+1)
	if _, err := f.client(time.Now()).UpsertComment(context.Background(), publication(body, CommentAlways)); err != nil {
		t.Fatal(err)
	}
	got := s.bodies()
	if len(got) != 1 {
		t.Fatalf("%d comments, want 1", len(got))
	}
	c := got[0]
	if len(c) >= maxCommentLength {
		t.Errorf("comment is %d bytes, want < %d", len(c), maxCommentLength)
	}
	if !strings.HasPrefix(c, testMarker+"\n## evalgate") || !strings.HasSuffix(c, TruncationNote) {
		t.Errorf("comment starts %q and ends %q; want the marker first and the truncation note last", c[:40], c[len(c)-40:])
	}
	if kept := strings.TrimSuffix(c, TruncationNote); !strings.HasSuffix(kept, "❌ |") {
		t.Errorf("cut inside a table row: ...%q", kept[len(kept)-40:])
	}
}

func TestUpsertCommentReadOnly(t *testing.T) {
	t.Parallel()
	t.Run("fork: no request", func(t *testing.T) {
		t.Parallel()
		f := newFake(t)
		p := publication("x", CommentAlways)
		p.FromFork = true
		_, err := f.client(time.Now()).UpsertComment(context.Background(), p)
		if !errors.Is(err, ErrReadOnly) {
			t.Errorf("err = %v, want ErrReadOnly", err)
		}
		if n := len(f.requests()); n != 0 {
			t.Errorf("%d requests, want 0", n)
		}
	})
	t.Run("403 on create", func(t *testing.T) {
		t.Parallel()
		f := newFake(t)
		s := newCommentStore(t, f)
		s.status = http.StatusForbidden
		_, err := f.client(time.Now()).UpsertComment(context.Background(), publication("x", CommentAlways))
		if !errors.Is(err, ErrReadOnly) {
			t.Errorf("err = %v, want ErrReadOnly", err)
		}
		if n := f.count("POST /repos/o/r/issues/7/comments"); n != 1 {
			t.Errorf("%d creates, want 1 (a permission 403 is not retried)", n)
		}
	})
}

func TestCheckMarker(t *testing.T) {
	t.Parallel()
	for _, m := range []string{"", "evalgate", "<!-- a\nb -->", "<!-- a -- b -->", "<!---->"} {
		if err := checkMarker(m); err == nil {
			t.Errorf("checkMarker(%q) = nil, want an error", m)
		}
	}
	if err := checkMarker(testMarker); err != nil {
		t.Errorf("checkMarker(%q) = %v", testMarker, err)
	}
}

// A create GitHub answers 5xx (or whose answer is lost) may have been done: the
// comments are listed before trying again, so the comment is never made twice.
func TestUpsertCommentCreateAnsweredBadly(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		done      bool // GitHub made the comment before answering 502
		wantPosts int
	}{
		{"made, then 502", true, 1},
		{"not made, 502", false, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t)
			s := newCommentStore(t, f)
			posts := 0
			f.mux = http.NewServeMux() // the store's handlers, but the first POST answers 502
			f.mux.HandleFunc("GET /repos/o/r/issues/7/comments", func(w http.ResponseWriter, r *http.Request) {
				s.mu.Lock()
				defer s.mu.Unlock()
				reply(t, w, http.StatusOK, s.comments)
			})
			f.mux.HandleFunc("POST /repos/o/r/issues/7/comments", func(w http.ResponseWriter, r *http.Request) {
				s.mu.Lock()
				defer s.mu.Unlock()
				posts++
				in := decode[gh.IssueComment](t, r)
				if posts == 1 {
					if tt.done {
						s.add(in.GetBody())
					}
					reply(t, w, http.StatusBadGateway, map[string]string{"message": "Bad Gateway"})
					return
				}
				reply(t, w, http.StatusCreated, s.add(in.GetBody()))
			})
			url, err := f.client(time.Now()).UpsertComment(context.Background(), publication("hello", CommentAlways))
			if err != nil {
				t.Fatal(err)
			}
			if len(s.comments) != 1 || url == "" || url != s.comments[0].GetHTMLURL() {
				t.Errorf("%d comments, URL %q; want one comment and its URL", len(s.comments), url)
			}
			if posts != tt.wantPosts {
				t.Errorf("%d POSTs, want %d", posts, tt.wantPosts)
			}
		})
	}
}
