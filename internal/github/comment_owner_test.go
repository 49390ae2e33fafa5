package github

import (
	"context"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	gh "github.com/google/go-github/v60/github"
)

// Only the token's own comments are stickies. A person's comment that carries the
// marker (at its start, quoted, older or newer than the bot's) is neither edited nor
// deleted, and the comments of another bot are not the token's either.
func TestUpsertCommentTouchesOnlyItsOwn(t *testing.T) {
	t.Parallel()
	human := func(body string) [2]string { return [2]string{"octocat", body} }
	bot := func(body string) [2]string { return [2]string{ActionsBot, body} }
	tests := []struct {
		name      string
		user      string // GET /user's login; "" answers 403 (GITHUB_TOKEN)
		author    string // Publication.CommentAuthor
		existing  [][2]string
		wantOwn   int64 // the id of the comment that ends with the new body; 0: created
		wantGone  []string
		wantTouch []string
	}{{
		name: "markers of a person around the bot's",
		existing: [][2]string{
			human(testMarker + "\nmy own notes, older"),
			bot(testMarker + "\nscore 0.91"),
			human("> " + testMarker + "\n> quoted"),
			human(testMarker + "\nnewer, pasted"),
		},
		wantOwn:   1002,
		wantTouch: []string{"PATCH 1002"},
	}, {
		name: "only a person's marker comments: a new one is created",
		existing: [][2]string{
			human(testMarker + "\nolder"),
			human("  " + testMarker + " newer"),
		},
		wantTouch: nil,
	}, {
		name: "a person's marker comment is no duplicate to delete",
		existing: [][2]string{
			bot(testMarker + "\nold"),
			human(testMarker + "\ncopied"),
			bot(testMarker + "\nduplicate"),
		},
		wantOwn:   1001,
		wantGone:  []string{testMarker + "\nduplicate"},
		wantTouch: []string{"PATCH 1001", "DELETE 1003"},
	}, {
		name: "a PAT's user: github-actions[bot]'s marker comment is not its own",
		user: "release-bot",
		existing: [][2]string{
			bot(testMarker + "\nfrom GITHUB_TOKEN"),
			{"release-bot", testMarker + "\nmine"},
		},
		wantOwn:   1002,
		wantTouch: []string{"PATCH 1002"},
	}, {
		name:   "comment-author names the identity: no GET /user",
		author: "evalgate-app[bot]",
		existing: [][2]string{
			bot(testMarker + "\nsomeone else's"),
			{"evalgate-app[bot]", testMarker + "\nmine"},
		},
		wantOwn:   1002,
		wantTouch: []string{"PATCH 1002"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t)
			f.user = tt.user
			s := newCommentStore(t, f)
			before := map[int64]string{}
			for _, c := range tt.existing {
				com := s.addBy(c[0], c[1])
				before[com.GetID()] = c[1]
			}
			p := publication("score 0.42", CommentAlways)
			p.CommentAuthor = tt.author
			url, err := f.client(time.Now()).UpsertComment(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			want := testMarker + "\nscore 0.42"
			var own int64
			for _, c := range s.comments {
				if c.GetBody() == want {
					own = c.GetID()
					if url != c.GetHTMLURL() {
						t.Errorf("url %q; want the comment's, %q", url, c.GetHTMLURL())
					}
					continue
				}
				if before[c.GetID()] != c.GetBody() {
					t.Errorf("comment %d by %s: %q, was %q", c.GetID(), c.GetUser().GetLogin(), c.GetBody(), before[c.GetID()])
				}
				delete(before, c.GetID())
			}
			delete(before, own)
			var gone []string
			for _, b := range before {
				gone = append(gone, b)
			}
			if diff := cmp.Diff(tt.wantGone, gone); diff != "" {
				t.Errorf("deleted comments (-want +got):\n%s", diff)
			}
			if tt.wantOwn != 0 && own != tt.wantOwn || tt.wantOwn == 0 && own <= 1000+int64(len(tt.existing)) {
				t.Errorf("the new body is in comment %d; want %d (0: a new one)", own, tt.wantOwn)
			}
			if diff := cmp.Diff(tt.wantTouch, s.touched); diff != "" {
				t.Errorf("writes to existing comments (-want +got):\n%s", diff)
			}
			if asked := slices.Contains(f.requests(), "GET /user"); asked == (tt.author != "") {
				t.Errorf("GET /user asked: %v; want it only without comment-author", asked)
			}
		})
	}
}

// A create GitHub answers 201 with no body: the comment's URL comes from the listing
// that follows, and the comment is not made twice.
func TestUpsertCommentCreateWithoutBody(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	s := newCommentStore(t, f)
	f.mux = http.NewServeMux() // the store's listing, and a POST that answers without a body
	f.mux.HandleFunc("GET /repos/o/r/issues/7/comments", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		reply(t, w, http.StatusOK, s.comments)
	})
	f.mux.HandleFunc("POST /repos/o/r/issues/7/comments", func(w http.ResponseWriter, r *http.Request) {
		in := decode[gh.IssueComment](t, r)
		s.mu.Lock()
		s.add(in.GetBody())
		s.mu.Unlock()
		w.WriteHeader(http.StatusCreated)
	})
	url, err := f.client(time.Now()).UpsertComment(context.Background(), publication("hello", CommentAlways))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.comments) != 1 || url != s.comments[0].GetHTMLURL() || url == "" {
		t.Errorf("%d comments, URL %q; want one comment and its URL", len(s.comments), url)
	}
	if n := f.count("POST /repos/o/r/issues/7/comments"); n != 1 {
		t.Errorf("%d creates, want 1", n)
	}
}
