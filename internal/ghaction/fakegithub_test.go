package ghaction

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	gh "github.com/google/go-github/v60/github"
)

// The repository the webhook payloads in testdata/events come from.
const (
	owner   = "Codertocat"
	repo    = "Hello-World"
	prefix  = "/repos/" + owner + "/" + repo
	headSHA = "ec26c3e57ca3a959ca5aad62de7213c562f8c821"
	baseSHA = "f95f852bd8fca8fcc58a9a2d6c842781e32a215e"
)

// The fake's times: the head commit reaches GitHub at fakePushed, and the labels are
// applied five minutes later, so a maintainer's label accepts it.
var (
	fakePushed  = time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	fakeLabeled = fakePushed.Add(5 * time.Minute)
)

// fakeAPI is an httptest GitHub for one repository: it records every request, decodes
// bodies into go-github types, and fails the test on any request it does not know.
type fakeAPI struct {
	t   *testing.T
	mux *http.ServeMux
	srv *httptest.Server

	mu       sync.Mutex
	calls    []string // "METHOD /path"
	auth     map[string]string
	creates  []gh.CreateCheckRunOptions
	updates  []gh.UpdateCheckRunOptions
	comments []*gh.IssueComment
	prs      []*gh.NewPullRequest
	puts     map[string]string // path -> content committed
}

// fakeOptions shape the repository the fake serves.
type fakeOptions struct {
	baseFiles map[string]string // files at the base sha (and the default branch)
	changed   []string          // files the pull request changes
	labels    []string          // the pull request's labels now
	labeledBy string            // who applied each label
	labeledAt time.Time         // when each label was applied; zero: fakeLabeled
	// pushed is when each commit reached GitHub (its one check suite's creation); nil
	// means the head sha at fakePushed, before the labels.
	pushed map[string]time.Time
	// prHead is the head sha GET pulls/2 answers; "" means headSHA.
	prHead    string
	writers   []string // logins with write permission
	forbidden bool     // every write answers 403
	// fault, when set, sees every request first (after it is recorded) and may answer
	// it, hang, or break the connection instead of the fake; it returns false to let
	// the fake answer. serve runs the fake's own handler (e.g. to record a comment
	// before the answer is lost).
	fault func(w http.ResponseWriter, r *http.Request, serve func(http.ResponseWriter, *http.Request)) bool
	// prNotPermitted answers POST pulls as GitHub does when Actions may not open pull
	// requests.
	prNotPermitted bool
	// openPRs are the open pull requests GET pulls lists (without a head filter).
	openPRs []*gh.PullRequest
}

func newFakeAPI(t *testing.T, o fakeOptions) *fakeAPI {
	f := &fakeAPI{t: t, mux: http.NewServeMux(), auth: map[string]string{}, puts: map[string]string{}}
	f.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("unexpected request %s %s", r.Method, r.URL)
		w.WriteHeader(http.StatusTeapot)
	})
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		call := r.Method + " " + r.URL.Path
		f.calls = append(f.calls, call)
		f.auth[call] = r.Header.Get("Authorization")
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if o.fault != nil && o.fault(w, r, f.serve) {
			return
		}
		if o.forbidden && r.Method != http.MethodGet {
			f.reply(w, http.StatusForbidden, map[string]string{"message": "Resource not accessible by integration"})
			return
		}
		f.serve(w, r)
	}))
	t.Cleanup(f.srv.Close)

	f.mux.HandleFunc("POST "+prefix+"/check-runs", func(w http.ResponseWriter, r *http.Request) {
		f.creates = append(f.creates, decodeBody[gh.CreateCheckRunOptions](t, r))
		f.reply(w, http.StatusCreated, &gh.CheckRun{ID: gh.Int64(7), HTMLURL: gh.String("https://github.com/" + owner + "/" + repo + "/runs/7")})
	})
	f.mux.HandleFunc("PATCH "+prefix+"/check-runs/7", func(w http.ResponseWriter, r *http.Request) {
		f.updates = append(f.updates, decodeBody[gh.UpdateCheckRunOptions](t, r))
		f.reply(w, http.StatusOK, &gh.CheckRun{ID: gh.Int64(7)})
	})
	f.mux.HandleFunc("GET "+prefix+"/commits/{ref}/check-runs", func(w http.ResponseWriter, r *http.Request) {
		res := &gh.ListCheckRunsResults{Total: gh.Int(0)}
		completed := false
		for _, u := range f.updates {
			completed = completed || u.GetStatus() == "completed"
		}
		for _, c := range f.creates {
			if c.HeadSHA == r.PathValue("ref") && c.Name == r.URL.Query().Get("check_name") && !completed {
				res.CheckRuns = []*gh.CheckRun{{ID: gh.Int64(7), Name: gh.String(c.Name), Status: gh.String("in_progress"), ExternalID: c.ExternalID}}
				res.Total = gh.Int(1)
			}
		}
		f.reply(w, http.StatusOK, res)
	})
	// A workflow's GITHUB_TOKEN may not read its user: its comments are the Actions bot's.
	f.mux.HandleFunc("GET /user", func(w http.ResponseWriter, r *http.Request) {
		f.reply(w, http.StatusForbidden, map[string]string{"message": "Resource not accessible by integration"})
	})
	f.mux.HandleFunc("GET "+prefix+"/issues/2/comments", func(w http.ResponseWriter, r *http.Request) {
		f.reply(w, http.StatusOK, f.comments)
	})
	f.mux.HandleFunc("POST "+prefix+"/issues/2/comments", func(w http.ResponseWriter, r *http.Request) {
		in := decodeBody[gh.IssueComment](t, r)
		id := int64(len(f.comments) + 1)
		c := &gh.IssueComment{ID: &id, Body: in.Body, User: &gh.User{Login: gh.String("github-actions[bot]")}, HTMLURL: gh.String(fmt.Sprintf("https://github.com/%s/%s/pull/2#issuecomment-%d", owner, repo, id))}
		f.comments = append(f.comments, c)
		f.reply(w, http.StatusCreated, c)
	})
	f.mux.HandleFunc("PATCH "+prefix+"/issues/comments/{id}", func(w http.ResponseWriter, r *http.Request) {
		in := decodeBody[gh.IssueComment](t, r)
		for _, c := range f.comments {
			if fmt.Sprint(c.GetID()) == r.PathValue("id") {
				c.Body = in.Body
				f.reply(w, http.StatusOK, c)
				return
			}
		}
		f.reply(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
	})
	f.mux.HandleFunc("GET "+prefix+"/contents/{path...}", func(w http.ResponseWriter, r *http.Request) {
		if ref := r.URL.Query().Get("ref"); ref != baseSHA && ref != "main0" {
			t.Errorf("%s read at %q, want the base sha", r.URL.Path, ref)
		}
		content, ok := o.baseFiles[r.PathValue("path")]
		if !ok {
			f.reply(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
			return
		}
		f.reply(w, http.StatusOK, &gh.RepositoryContent{Type: gh.String("file"), Encoding: gh.String("base64"),
			SHA: gh.String("blob1"), Content: gh.String(base64.StdEncoding.EncodeToString([]byte(content)))})
	})
	f.mux.HandleFunc("GET "+prefix+"/pulls/2/files", func(w http.ResponseWriter, r *http.Request) {
		var files []*gh.CommitFile
		for _, c := range o.changed {
			files = append(files, &gh.CommitFile{Filename: gh.String(c)})
		}
		f.reply(w, http.StatusOK, files)
	})
	f.mux.HandleFunc("GET "+prefix+"/pulls/2", func(w http.ResponseWriter, r *http.Request) {
		head := o.prHead
		if head == "" {
			head = headSHA
		}
		pr := &gh.PullRequest{Number: gh.Int(2), Head: &gh.PullRequestBranch{SHA: gh.String(head)},
			Base: &gh.PullRequestBranch{SHA: gh.String(baseSHA), Ref: gh.String("master")}}
		for _, l := range o.labels {
			pr.Labels = append(pr.Labels, &gh.Label{Name: gh.String(l)})
		}
		f.reply(w, http.StatusOK, pr)
	})
	f.mux.HandleFunc("GET "+prefix+"/issues/2/events", func(w http.ResponseWriter, r *http.Request) {
		at := o.labeledAt
		if at.IsZero() {
			at = fakeLabeled
		}
		var events []*gh.IssueEvent
		for _, l := range o.labels {
			events = append(events, &gh.IssueEvent{Event: gh.String("labeled"), Actor: &gh.User{Login: gh.String(o.labeledBy)}, Label: &gh.Label{Name: gh.String(l)},
				CreatedAt: &gh.Timestamp{Time: at}})
		}
		f.reply(w, http.StatusOK, events)
	})
	f.mux.HandleFunc("GET "+prefix+"/commits/{ref}/check-suites", func(w http.ResponseWriter, r *http.Request) {
		pushed := o.pushed
		if pushed == nil {
			pushed = map[string]time.Time{headSHA: fakePushed}
		}
		res := &gh.ListCheckSuiteResults{Total: gh.Int(0)}
		if at, ok := pushed[r.PathValue("ref")]; ok {
			res.Total, res.CheckSuites = gh.Int(1), []*gh.CheckSuite{{ID: gh.Int64(1), CreatedAt: &gh.Timestamp{Time: at}}}
		}
		f.reply(w, http.StatusOK, res)
	})
	f.mux.HandleFunc("GET "+prefix+"/collaborators/{user}/permission", func(w http.ResponseWriter, r *http.Request) {
		perm := "read"
		for _, u := range o.writers {
			if u == r.PathValue("user") {
				perm = "write"
			}
		}
		f.reply(w, http.StatusOK, &gh.RepositoryPermissionLevel{Permission: &perm})
	})

	// The release refresh: the default branch "master" is at main0 and holds baseFiles.
	f.mux.HandleFunc("GET "+prefix+"/git/ref/heads/{branch...}", func(w http.ResponseWriter, r *http.Request) {
		if r.PathValue("branch") != "master" {
			f.reply(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
			return
		}
		f.reply(w, http.StatusOK, &gh.Reference{Ref: gh.String("refs/heads/master"), Object: &gh.GitObject{SHA: gh.String("main0")}})
	})
	f.mux.HandleFunc("POST "+prefix+"/git/refs", func(w http.ResponseWriter, r *http.Request) {
		in := decodeBody[map[string]string](t, r)
		if in["ref"] != "refs/heads/evalgate/refresh/baselines/tutor" || in["sha"] != "main0" {
			t.Errorf("branch created as %v", in)
		}
		f.reply(w, http.StatusCreated, &gh.Reference{})
	})
	f.mux.HandleFunc("PUT "+prefix+"/contents/{path...}", func(w http.ResponseWriter, r *http.Request) {
		in := decodeBody[gh.RepositoryContentFileOptions](t, r)
		if in.GetBranch() != "evalgate/refresh/baselines/tutor" {
			t.Errorf("committed on branch %q", in.GetBranch())
		}
		f.puts[r.PathValue("path")] = string(in.Content)
		f.reply(w, http.StatusOK, &gh.RepositoryContentResponse{})
	})
	f.mux.HandleFunc("GET "+prefix+"/pulls", func(w http.ResponseWriter, r *http.Request) {
		out := []*gh.PullRequest{}
		if r.URL.Query().Get("head") == "" {
			out = append(out, o.openPRs...)
		}
		f.reply(w, http.StatusOK, out)
	})
	f.mux.HandleFunc("POST "+prefix+"/pulls", func(w http.ResponseWriter, r *http.Request) {
		in := decodeBody[gh.NewPullRequest](t, r)
		if o.prNotPermitted {
			f.reply(w, http.StatusForbidden, map[string]string{"message": "GitHub Actions is not permitted to create or approve pull requests.",
				"documentation_url": "https://docs.github.com/rest/pulls/pulls#create-a-pull-request"})
			return
		}
		f.prs = append(f.prs, &in)
		f.reply(w, http.StatusCreated, &gh.PullRequest{Number: gh.Int(9), HTMLURL: gh.String("https://github.com/" + owner + "/" + repo + "/pull/9")})
	})
	return f
}

// serve answers r with the fake's handlers.
func (f *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.mux.ServeHTTP(w, r)
}

func (f *fakeAPI) reply(w http.ResponseWriter, code int, v any) {
	w.WriteHeader(code)
	if err := json.NewEncoder(w).Encode(v); err != nil {
		f.t.Errorf("encode reply: %v", err)
	}
}

// requests returns the recorded calls, without the repository prefix.
func (f *fakeAPI) requests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]string, len(f.calls))
	for i, c := range f.calls {
		out[i] = strings.Replace(c, prefix, "", 1)
	}
	return out
}

// writes returns the recorded calls that are not reads.
func (f *fakeAPI) writes() []string {
	var out []string
	for _, c := range f.requests() {
		if !strings.HasPrefix(c, "GET ") {
			out = append(out, c)
		}
	}
	return out
}

func decodeBody[T any](t *testing.T, r *http.Request) T {
	t.Helper()
	var v T
	if err := json.NewDecoder(r.Body).Decode(&v); err != nil {
		t.Errorf("%s %s: decode body: %v", r.Method, r.URL.Path, err)
	}
	return v
}
