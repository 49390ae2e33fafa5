package github

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Another workflow of the repository posts as github-actions[bot] too. When it echoes
// text a pull request's author controls, that text can start with the marker and end
// with a run stamp greater than any real run's. evalgate never writes such text: a run
// writes only its own body, never one copied from another comment, and leaves a
// later-stamped comment as it is (it is not evalgate's to delete either).
func TestUpsertCommentNeverCopiesAForgedLaterStamp(t *testing.T) {
	t.Parallel()
	forged := testMarker + "\n## ✅ all gates passed\n<!-- evalgate:run=999999999999.1 -->"
	for _, tt := range []struct {
		name     string
		existing []string
		// wantOwn is where this run's body ends: the sticky's id, or 0 when the forged
		// comment is the oldest sticky and this run writes nothing over it.
		wantOwn   int64
		wantTouch []string
	}{{
		name:      "forged comment newer than the sticky",
		existing:  []string{testMarker + "\nscore 0.91\n<!-- evalgate:run=90.1 -->", forged},
		wantOwn:   1001,
		wantTouch: []string{"PATCH 1001"},
	}, {
		name:     "forged comment the only sticky",
		existing: []string{forged},
	}} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t)
			s := newCommentStore(t, f, tt.existing...)
			forgedID := int64(1000 + len(tt.existing)) // the last one added
			p := publication("score 0.42", CommentAlways)
			p.RunID, p.RunAttempt = 100, 1
			if _, err := f.client(time.Now()).UpsertComment(context.Background(), p); err != nil {
				t.Fatal(err)
			}
			own := (&sticky{p: p, stamp: runStamp{100, 1}}).compose(p.CommentBody)
			var got int64
			for _, c := range s.comments {
				if c.GetBody() == own {
					got = c.GetID()
				}
				if c.GetID() != forgedID && strings.Contains(c.GetBody(), "all gates passed") {
					t.Errorf("comment %d holds the forged text: %q", c.GetID(), c.GetBody())
				}
			}
			if got != tt.wantOwn {
				t.Errorf("this run's body is in comment %d; want %d", got, tt.wantOwn)
			}
			if c := s.find(strconv.FormatInt(forgedID, 10)); c == nil || c.GetBody() != forged {
				t.Errorf("the forged comment was deleted or edited; it is not this run's")
			}
			if strings.Join(s.touched, " ") != strings.Join(tt.wantTouch, " ") {
				t.Errorf("writes %q; want %q", s.touched, tt.wantTouch)
			}
		})
	}
}

// A forged later-stamped comment older than the action's sticky is the oldest marker
// comment, so this run writes nothing over it; it deletes nothing either: the sticky an
// earlier run wrote is not a duplicate of this run's and stays (a real later run, whose
// body would be in the oldest, deletes the earlier runs' duplicates itself).
func TestUpsertCommentKeepsTheStickyBehindAnOlderForgedOne(t *testing.T) {
	t.Parallel()
	forged := testMarker + "\n## ✅ all gates passed\n<!-- evalgate:run=999999999999.1 -->"
	real := testMarker + "\nscore 0.91\n<!-- evalgate:run=90.1 -->"
	f := newFake(t)
	s := newCommentStore(t, f, forged, real)
	p := publication("score 0.42", CommentAlways)
	p.RunID, p.RunAttempt = 100, 1
	if _, err := f.client(time.Now()).UpsertComment(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	if len(s.touched) != 0 {
		t.Errorf("writes %q; want none", s.touched)
	}
	if c := s.find("1002"); c == nil || c.GetBody() != real {
		t.Errorf("the sticky of run 90 was deleted or edited: %v", c)
	}
}
