package github

import (
	"context"
	"crypto/sha1"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	gh "github.com/google/go-github/v60/github"
)

// fakeRepo is a repository with branches of files, and pull requests, for o/r.
type fakeRepo struct {
	branches map[string]string            // branch -> commit sha
	files    map[string]map[string]string // commit sha -> path -> content
	prs      []*gh.PullRequest
	commits  int
	// refusePR answers POST pulls as GitHub does when Actions may not open pull requests.
	refusePR bool
}

func blobSHA(content string) string { return fmt.Sprintf("%x", sha1.Sum([]byte(content))) }

func newFakeRepo(t *testing.T, f *fakeGitHub, mainFiles map[string]string) *fakeRepo {
	repo := &fakeRepo{branches: map[string]string{"main": "main0"}, files: map[string]map[string]string{"main0": mainFiles}}
	f.handle("GET /repos/o/r/git/ref/heads/{branch...}", func(w http.ResponseWriter, r *http.Request) {
		sha, ok := repo.branches[r.PathValue("branch")]
		if !ok {
			reply(t, w, http.StatusNotFound, map[string]string{"message": "Not Found"})
			return
		}
		reply(t, w, http.StatusOK, &gh.Reference{Ref: gh.String("refs/heads/" + r.PathValue("branch")), Object: &gh.GitObject{SHA: &sha}})
	})
	f.handle("POST /repos/o/r/git/refs", func(w http.ResponseWriter, r *http.Request) {
		in := decode[struct{ Ref, SHA string }](t, r)
		name := in.Ref[len("refs/heads/"):]
		if _, ok := repo.branches[name]; ok {
			reply(t, w, http.StatusUnprocessableEntity, map[string]string{"message": "Reference already exists"})
			return
		}
		repo.branches[name] = in.SHA
		reply(t, w, http.StatusCreated, &gh.Reference{Ref: &in.Ref})
	})
	f.handle("PATCH /repos/o/r/git/refs/heads/{branch...}", func(w http.ResponseWriter, r *http.Request) {
		in := decode[struct {
			SHA   string
			Force bool
		}](t, r)
		if !in.Force {
			t.Error("branch moved without force")
		}
		repo.branches[r.PathValue("branch")] = in.SHA
		reply(t, w, http.StatusOK, &gh.Reference{})
	})
	f.handle("GET /repos/o/r/contents/{path...}", func(w http.ResponseWriter, r *http.Request) {
		ref := r.URL.Query().Get("ref")
		if sha, ok := repo.branches[ref]; ok {
			ref = sha
		}
		content, ok := repo.files[ref][r.PathValue("path")]
		if !ok {
			reply(t, w, http.StatusNotFound, map[string]string{"message": "Not Found"})
			return
		}
		reply(t, w, http.StatusOK, &gh.RepositoryContent{Type: gh.String("file"), Encoding: gh.String("base64"),
			SHA: gh.String(blobSHA(content)), Content: gh.String(base64.StdEncoding.EncodeToString([]byte(content)))})
	})
	f.handle("PUT /repos/o/r/contents/{path...}", func(w http.ResponseWriter, r *http.Request) {
		in := decode[gh.RepositoryContentFileOptions](t, r)
		head := repo.branches[in.GetBranch()]
		path := r.PathValue("path")
		old, exists := repo.files[head][path]
		if exists != (in.SHA != nil) || (exists && in.GetSHA() != blobSHA(old)) {
			reply(t, w, http.StatusConflict, map[string]string{"message": "sha does not match"})
			return
		}
		repo.commits++
		commit := "c" + strconv.Itoa(repo.commits)
		files := map[string]string{}
		for k, v := range repo.files[head] {
			files[k] = v
		}
		files[path] = string(in.Content)
		repo.files[commit] = files
		repo.branches[in.GetBranch()] = commit
		reply(t, w, http.StatusOK, &gh.RepositoryContentResponse{})
	})
	f.handle("GET /repos/o/r/pulls", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if q.Get("state") != "open" || q.Get("base") != "main" {
			t.Errorf("pull requests listed with %v", q)
		}
		var out []*gh.PullRequest
		for _, pr := range repo.prs {
			if "o:"+pr.GetHead().GetRef() == q.Get("head") {
				out = append(out, pr)
			}
		}
		reply(t, w, http.StatusOK, out)
	})
	f.handle("POST /repos/o/r/pulls", func(w http.ResponseWriter, r *http.Request) {
		in := decode[gh.NewPullRequest](t, r)
		if repo.refusePR {
			reply(t, w, http.StatusForbidden, map[string]string{"message": "GitHub Actions is not permitted to create or approve pull requests.",
				"documentation_url": "https://docs.github.com/rest/pulls/pulls#create-a-pull-request"})
			return
		}
		n := 12 + len(repo.prs)
		pr := &gh.PullRequest{Number: &n, Title: in.Title, Body: in.Body, Head: &gh.PullRequestBranch{Ref: in.Head},
			HTMLURL: gh.String(fmt.Sprintf("https://github.com/o/r/pull/%d", n))}
		repo.prs = append(repo.prs, pr)
		reply(t, w, http.StatusCreated, pr)
	})
	f.handle("PATCH /repos/o/r/pulls/{n}", func(w http.ResponseWriter, r *http.Request) {
		in := decode[gh.PullRequest](t, r)
		for _, pr := range repo.prs {
			if strconv.Itoa(pr.GetNumber()) == r.PathValue("n") {
				pr.Title, pr.Body = in.Title, in.Body
				reply(t, w, http.StatusOK, pr)
				return
			}
		}
		reply(t, w, http.StatusNotFound, map[string]string{"message": "Not Found"})
	})
	return repo
}

func TestOpenRefreshPR(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	repo := newFakeRepo(t, f, map[string]string{"baselines/tutor.json": `{"mean":0.90}`})
	c := f.client(time.Now())
	refresh := func(content, title string) Refresh {
		t.Helper()
		got, err := c.OpenRefreshPR(context.Background(), "o", "r", "main", "evalgate/refresh-baseline", []File{{"baselines/tutor.json", []byte(content)}}, title, "body of "+title)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}

	first := refresh(`{"mean":0.92}`, "v1.1.0")
	if diff := cmp.Diff(Refresh{URL: "https://github.com/o/r/pull/12", Number: 12, Created: true, Branch: "evalgate/refresh-baseline"}, first); diff != "" {
		t.Errorf("first refresh (-want +got):\n%s", diff)
	}
	wantFirst := []string{
		"GET /repos/o/r/git/ref/heads/main",
		"GET /repos/o/r/contents/baselines/tutor.json",
		"GET /repos/o/r/git/ref/heads/evalgate/refresh-baseline",
		"POST /repos/o/r/git/refs",
		"PUT /repos/o/r/contents/baselines/tutor.json",
		"GET /repos/o/r/pulls",
		"POST /repos/o/r/pulls",
	}
	if diff := cmp.Diff(wantFirst, f.requests()); diff != "" {
		t.Errorf("first refresh requests (-want +got):\n%s", diff)
	}

	second := refresh(`{"mean":0.93}`, "v1.2.0")
	if diff := cmp.Diff(Refresh{URL: "https://github.com/o/r/pull/12", Number: 12, Branch: "evalgate/refresh-baseline"}, second); diff != "" {
		t.Errorf("second refresh (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantFirst[:2], f.requests()[7:9]); diff != "" {
		t.Errorf("second refresh requests (-want +got):\n%s", diff)
	}
	for call, want := range map[string]int{"PATCH /repos/o/r/git/refs/heads/evalgate/refresh-baseline": 1, "PATCH /repos/o/r/pulls/12": 1, "POST /repos/o/r/pulls": 1} {
		if got := f.count(call); got != want {
			t.Errorf("%s: %d calls, want %d", call, got, want)
		}
	}
	if len(repo.prs) != 1 || repo.prs[0].GetTitle() != "v1.2.0" {
		t.Errorf("pull requests = %v, want one titled v1.2.0", repo.prs)
	}
	branch := repo.branches["evalgate/refresh-baseline"]
	if got := repo.files[branch]["baselines/tutor.json"]; got != `{"mean":0.93}` {
		t.Errorf("branch holds %q, want the second content", got)
	}
}

func TestOpenRefreshPRUnchanged(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	newFakeRepo(t, f, map[string]string{"baselines/tutor.json": `{"mean":0.90}`})
	got, err := f.client(time.Now()).OpenRefreshPR(context.Background(), "o", "r", "main", "evalgate/refresh-baseline", []File{{"baselines/tutor.json", []byte(`{"mean":0.90}`)}}, "t", "b")
	if err != nil {
		t.Fatal(err)
	}
	if !got.Unchanged || got.URL != "" {
		t.Errorf("got %+v, want Unchanged", got)
	}
	if n := len(f.requests()); n != 2 {
		t.Errorf("%d requests, want 2 (read the base, compare)", n)
	}
}

func TestOpenRefreshPRNewFile(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	repo := newFakeRepo(t, f, map[string]string{})
	got, err := f.client(time.Now()).OpenRefreshPR(context.Background(), "o", "r", "main", "evalgate/refresh-baseline", []File{{"baselines/tutor.json", []byte(`{}`)}}, "t", "b")
	if err != nil {
		t.Fatal(err)
	}
	if !got.Created || repo.files[repo.branches["evalgate/refresh-baseline"]]["baselines/tutor.json"] != `{}` {
		t.Errorf("got %+v and files %v; want a new file in a new pull request", got, repo.files)
	}
}

// A refresh proposes the baseline with what belongs to it; only files that differ from
// the base branch are committed, and binary content (gzip) survives the Contents API.
func TestOpenRefreshPRSeveralFiles(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	repo := newFakeRepo(t, f, map[string]string{"baselines/index.json": `{"suites":[]}`, "baselines/tutor.json": `{"mean":0.90}`})
	gz := string([]byte{0x1f, 0x8b, 0x08, 0x00, 0xff, 0x00})
	got, err := f.client(time.Now()).OpenRefreshPR(context.Background(), "o", "r", "main", "evalgate/refresh-baseline", []File{
		{"baselines/tutor.json", []byte(`{"mean":0.93}`)},
		{"baselines/index.json", []byte(`{"suites":[]}`)}, // unchanged: not committed
		{"baselines/tutor.outputs.jsonl.gz", []byte(gz)},
	}, "t", "b")
	if err != nil {
		t.Fatal(err)
	}
	files := repo.files[repo.branches["evalgate/refresh-baseline"]]
	if !got.Created || files["baselines/tutor.json"] != `{"mean":0.93}` || files["baselines/tutor.outputs.jsonl.gz"] != gz {
		t.Errorf("got %+v and files %q; want the changed baseline and the outputs on the branch", got, files)
	}
	puts := 0
	for _, r := range f.requests() {
		if strings.HasPrefix(r, "PUT ") {
			puts++
		}
	}
	if puts != 2 {
		t.Errorf("%d PUT requests; want 2 (the unchanged index is not committed)", puts)
	}
}

// When the repository does not let Actions open pull requests, the branch is pushed
// all the same and the error says which refusal it was.
func TestOpenRefreshPRNotPermitted(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	repo := newFakeRepo(t, f, map[string]string{"baselines/tutor.json": `{"mean":0.90}`})
	repo.refusePR = true
	got, err := f.client(time.Now()).OpenRefreshPR(context.Background(), "o", "r", "main", "evalgate/refresh/baselines/tutor", []File{{"baselines/tutor.json", []byte(`{"mean":0.93}`)}}, "t", "b")
	if !errors.Is(err, ErrPRNotPermitted) || !errors.Is(err, ErrReadOnly) {
		t.Fatalf("err = %v, want ErrPRNotPermitted", err)
	}
	if got.Branch != "evalgate/refresh/baselines/tutor" || got.URL != "" {
		t.Errorf("got %+v, want the pushed branch and no pull request", got)
	}
	if files := repo.files[repo.branches["evalgate/refresh/baselines/tutor"]]; files["baselines/tutor.json"] != `{"mean":0.93}` {
		t.Errorf("branch holds %q, want the new baseline", files)
	}
	// Any other 403 is not this refusal.
	if notPermitted(fmt.Errorf("x: %w", &gh.ErrorResponse{Response: &http.Response{StatusCode: http.StatusForbidden}, Message: "Resource not accessible by integration"})) {
		t.Error("a plain 403 taken for the Actions setting")
	}
}
