package github

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	gh "github.com/google/go-github/v60/github"
)

func TestPullRequest(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	f.handle("GET /repos/o/r/pulls/7", func(w http.ResponseWriter, r *http.Request) {
		reply(t, w, http.StatusOK, &gh.PullRequest{
			Number: gh.Int(7), State: gh.String("open"),
			Head:   &gh.PullRequestBranch{SHA: gh.String("head1"), Repo: &gh.Repository{FullName: gh.String("fork/r")}},
			Base:   &gh.PullRequestBranch{SHA: gh.String("base1"), Ref: gh.String("main"), Repo: &gh.Repository{FullName: gh.String("o/r")}},
			Labels: []*gh.Label{{Name: gh.String("evalgate/accept")}},
		})
	})
	got, err := f.client(time.Now()).PullRequest(context.Background(), "o", "r", 7)
	if err != nil {
		t.Fatal(err)
	}
	want := PullRequest{Number: 7, State: "open", HeadSHA: "head1", BaseSHA: "base1", BaseRef: "main",
		HeadRepo: "fork/r", BaseRepo: "o/r", Labels: []string{"evalgate/accept"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("PullRequest (-want +got):\n%s", diff)
	}
	if !got.FromFork() {
		t.Error("FromFork() = false for a head in fork/r")
	}
}

func TestPullRequestNotFound(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	f.handle("GET /repos/o/r/pulls/404", func(w http.ResponseWriter, r *http.Request) {
		reply(t, w, http.StatusNotFound, map[string]string{"message": "Not Found"})
	})
	_, err := f.client(time.Now()).PullRequest(context.Background(), "o", "r", 404)
	if !errors.Is(err, ErrNotFound) {
		t.Errorf("err = %v, want ErrNotFound", err)
	}
	if want := "pull request o/r#404 not found (or the token cannot read it)"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v, want it to say %q", err, want)
	}
}

func TestIsFork(t *testing.T) {
	t.Parallel()
	tests := []struct {
		head, base string
		want       bool
	}{
		{"o/r", "o/r", false},
		{"O/R", "o/r", false},
		{"someone/r", "o/r", true},
		{"", "o/r", true}, // head repository deleted
	}
	for _, tt := range tests {
		if got := IsFork(tt.head, tt.base); got != tt.want {
			t.Errorf("IsFork(%q, %q) = %v, want %v", tt.head, tt.base, got, tt.want)
		}
	}
}

func TestChangedFiles(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	var files []*gh.CommitFile
	for i := range 150 {
		files = append(files, &gh.CommitFile{Filename: gh.String(fmt.Sprintf("src/f%03d.go", i))})
	}
	files = append(files, &gh.CommitFile{Filename: gh.String("old/tutor.json"), PreviousFilename: gh.String("baselines/tutor.json")})
	f.handle("GET /repos/o/r/pulls/7/files", func(w http.ResponseWriter, r *http.Request) {
		reply(t, w, http.StatusOK, paginate(w, r, files))
	})
	got, err := f.client(time.Now()).ChangedFiles(context.Background(), "o", "r", 7)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 152 || got[150] != "old/tutor.json" || got[151] != "baselines/tutor.json" {
		t.Errorf("ChangedFiles = %d paths ending %q, want 152 ending with both names of the rename", len(got), got[len(got)-2:])
	}
	if n := f.count("GET /repos/o/r/pulls/7/files"); n != 2 {
		t.Errorf("%d pages fetched, want 2", n)
	}
}

func TestFileAtRef(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	baseline := `{"scoring_system":"scoringSystem/1.0.0","mean":0.91}`
	f.handle("GET /repos/o/r/contents/baselines/tutor.json", func(w http.ResponseWriter, r *http.Request) {
		if ref := r.URL.Query().Get("ref"); ref != "base1" {
			t.Errorf("ref = %q, want base1", ref)
		}
		reply(t, w, http.StatusOK, &gh.RepositoryContent{Type: gh.String("file"), Encoding: gh.String("base64"),
			Content: gh.String(base64.StdEncoding.EncodeToString([]byte(baseline)))})
	})
	f.handle("GET /repos/o/r/contents/baselines/none.json", func(w http.ResponseWriter, r *http.Request) {
		reply(t, w, http.StatusNotFound, map[string]string{"message": "Not Found"})
	})
	c := f.client(time.Now())
	got, err := c.FileAtRef(context.Background(), "o", "r", "baselines/tutor.json", "base1")
	if err != nil || string(got) != baseline {
		t.Errorf("FileAtRef = %q, %v; want %q", got, err, baseline)
	}
	if _, err := c.FileAtRef(context.Background(), "o", "r", "baselines/none.json", "base1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing file: err = %v, want ErrNotFound", err)
	}
}

func TestFileAtRefLarge(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	big := strings.Repeat("x", 2<<20)
	f.handle("GET /repos/o/r/contents/baselines/big.json", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Accept") == "application/vnd.github.raw" {
			w.Write([]byte(big))
			return
		}
		// Over 1 MB, GitHub's JSON answer has no content.
		reply(t, w, http.StatusOK, &gh.RepositoryContent{Type: gh.String("file"), Encoding: gh.String("none"), Content: gh.String("")})
	})
	got, err := f.client(time.Now()).FileAtRef(context.Background(), "o", "r", "baselines/big.json", "base1")
	if err != nil || len(got) != len(big) {
		t.Errorf("FileAtRef = %d bytes, %v; want %d bytes", len(got), err, len(big))
	}
}

// OpenPullRequestsAt finds, over every page of the open pull requests, those whose head
// is the commit: a fork's too (GitHub's list by commit leaves those out).
func TestOpenPullRequestsAt(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	var prs []*gh.PullRequest
	for i := range 130 { // 2 pages of 100
		sha := fmt.Sprintf("other%03d", i)
		base, head := "main", "o/r"
		switch i {
		case 3:
			sha = "abc"
		case 120:
			sha, base, head = "abc", "v1", "forker/r"
		}
		prs = append(prs, &gh.PullRequest{Number: gh.Int(i + 1), State: gh.String("open"),
			Head: &gh.PullRequestBranch{SHA: gh.String(sha), Repo: &gh.Repository{FullName: gh.String(head)}},
			Base: &gh.PullRequestBranch{Ref: gh.String(base), Repo: &gh.Repository{FullName: gh.String("o/r")}}})
	}
	f.handle("GET /repos/o/r/pulls", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("state") != "open" {
			t.Errorf("state %q; want open", r.URL.Query().Get("state"))
		}
		reply(t, w, http.StatusOK, paginate(w, r, prs))
	})
	got, err := f.client(time.Now()).OpenPullRequestsAt(context.Background(), "o", "r", "abc")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Number != 4 || got[1].Number != 121 || got[1].BaseRef != "v1" || got[1].HeadRepo != "forker/r" {
		t.Errorf("OpenPullRequestsAt = %+v; want #4 and #121 (from forker/r into v1)", got)
	}
}
