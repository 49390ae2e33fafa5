package cli_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goccy/go-yaml"
	"github.com/google/go-cmp/cmp"
	gh "github.com/google/go-github/v60/github"

	"github.com/evalgate/evalgate/internal/cli"
)

// The repository the end-to-end runs pretend to be in. The webhook payloads in
// testdata/events come from Codertocat/Hello-World#2; each run gets a copy rewritten to
// this repository, pull request and commits, so nothing can pass by reading a value the
// payload happens to share with the fake.
const (
	e2eOwner = "acme"
	e2eRepo  = "tutor-bot"
	e2eFork  = "forker/tutor-bot"
	e2ePR    = 42
	e2eHead  = "6dcb09b5b57875f334f61aebed695e2e4193db5e" // pull_request.head.sha: the check run's commit
	e2eBase  = "9049f1265b7d61be4a8904a9a27120d2064dab3b" // pull_request.base.sha: where the gate is read
	e2eMerge = "c0ffee0000000000000000000000000000000042" // GITHUB_SHA on a pull request: the merge commit
	e2eMain  = "b1e55ed000000000000000000000000000000001" // the default branch's head (release refresh)
	e2eTag   = "v1.4.0"
	e2eToken = "ghs_e2eTokenThatMustNeverBeLogged"

	repoPrefix = "/repos/" + e2eOwner + "/" + e2eRepo
	// tutorBaseline is the config's baseline, relative to the repository root.
	tutorBaseline = "baselines/tutor-capstone.jsonl"
	// refreshBranch is where the release refresh proposes tutorBaseline.
	refreshBranch = "evalgate/refresh/baselines/tutor-capstone"
)

// repoRoot is the repository root, absolute (a test may change directory).
var repoRoot = func() string {
	abs, err := filepath.Abs("../..")
	if err != nil {
		panic(err)
	}
	return abs
}()

// buildEvalgate builds ./cmd/evalgate as the Dockerfile does (static, trimmed paths)
// into a temporary directory of t, which every end-to-end case shares.
func buildEvalgate(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "evalgate")
	cmd := exec.Command("go", "build", "-trimpath", "-o", bin, "./cmd/evalgate")
	cmd.Dir = repoRoot
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/evalgate: %v\n%s", err, out)
	}
	return bin
}

// fakeRepo is the state of the repository the fake GitHub serves.
type fakeRepo struct {
	baseFiles    map[string]string // files at the base commit (e2eBase) and the default branch's head
	changed      []string          // files the pull request changes, served over two pages
	labels       []string          // the pull request's labels, as GET pulls/N answers
	labeledBy    string            // who applied each label (issue events)
	writers      []string          // logins with write permission; anyone else has read
	forbidWrites bool              // every write is answered 403, as for a read-only token
	headFiles    map[string]string // files at the pull request's head (e2eHead); nil: baseFiles
	forkHead     string            // "owner:branch" of the fork the pull request comes from
}

// fakeCheckRun is a check run the action created, with every update it sent.
type fakeCheckRun struct {
	create  gh.CreateCheckRunOptions
	updates []gh.UpdateCheckRunOptions
}

// conclusion returns the conclusion of the last update, "" if none completed it.
func (c *fakeCheckRun) conclusion() string {
	for i := len(c.updates) - 1; i >= 0; i-- {
		if s := c.updates[i].GetConclusion(); s != "" {
			return s
		}
	}
	return ""
}

// annotations returns every annotation sent, in order.
func (c *fakeCheckRun) annotations() []*gh.CheckRunAnnotation {
	var out []*gh.CheckRunAnnotation
	for _, u := range c.updates {
		if u.Output != nil {
			out = append(out, u.Output.Annotations...)
		}
	}
	return out
}

// fakeGitHub is an httptest GitHub for acme/tutor-bot: it records every request,
// decodes request bodies into go-github types, keeps comments and check runs across
// runs (a synchronize after an opened), and fails the test on any request it does not
// know. The handlers run under mu.
type fakeGitHub struct {
	t    *testing.T
	srv  *httptest.Server
	mux  *http.ServeMux
	repo fakeRepo

	mu        sync.Mutex
	calls     []string // "METHOD /path?query", the repository prefix dropped
	comments  []*gh.IssueComment
	checkRuns []*fakeCheckRun
	refs      map[string]string // branch -> sha
	puts      []gh.RepositoryContentFileOptions
	putPaths  []string
	pulls     []gh.NewPullRequest
	lastID    int64
}

func newFakeGitHub(t *testing.T, repo fakeRepo) *fakeGitHub {
	t.Helper()
	f := &fakeGitHub{t: t, mux: http.NewServeMux(), repo: repo, refs: map[string]string{"master": e2eMain}, lastID: 1000}
	f.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("fake GitHub: unexpected request %s %s", r.Method, r.URL)
		f.reply(w, http.StatusTeapot, map[string]string{"message": "unexpected"})
	})
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		call := r.Method + " " + strings.TrimPrefix(r.URL.Path, repoPrefix)
		if r.URL.RawQuery != "" {
			call += "?" + r.URL.RawQuery
		}
		f.calls = append(f.calls, call)
		if got := r.Header.Get("Authorization"); got != "Bearer "+e2eToken {
			t.Errorf("fake GitHub: %s: Authorization %q; want the github-token input", call, got)
		}
		w.Header().Set("Content-Type", "application/json")
		if repo.forbidWrites && r.Method != http.MethodGet {
			f.reply(w, http.StatusForbidden, map[string]string{"message": "Resource not accessible by integration"})
			return
		}
		f.mux.ServeHTTP(w, r)
	}))
	t.Cleanup(f.srv.Close)
	f.routes()
	return f
}

func (f *fakeGitHub) routes() {
	t, p := f.t, repoPrefix
	pr := p + "/pulls/" + strconv.Itoa(e2ePR)
	issue := p + "/issues/" + strconv.Itoa(e2ePR)

	// The base commit's files, base64-encoded as the Contents API serves them.
	f.mux.HandleFunc("GET "+p+"/contents/{path...}", func(w http.ResponseWriter, r *http.Request) {
		files := f.repo.baseFiles
		switch ref := r.URL.Query().Get("ref"); {
		case ref == e2eHead && f.repo.headFiles != nil:
			files = f.repo.headFiles
		case ref != e2eBase && ref != e2eMain && ref != e2eHead:
			t.Errorf("fake GitHub: %s read at ref %q; want the base sha %s (or the default branch's head)", r.URL.Path, ref, e2eBase)
		}
		content, ok := files[r.PathValue("path")]
		if !ok {
			f.reply(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
			return
		}
		f.reply(w, http.StatusOK, &gh.RepositoryContent{
			Type: gh.String("file"), Encoding: gh.String("base64"), Path: gh.String(r.PathValue("path")),
			SHA:     gh.String("blob-" + r.PathValue("path")),
			Content: gh.String(base64.StdEncoding.EncodeToString([]byte(content))),
		})
	})

	f.mux.HandleFunc("GET "+pr, func(w http.ResponseWriter, r *http.Request) {
		out := &gh.PullRequest{Number: gh.Int(e2ePR), State: gh.String("open"),
			Head: &gh.PullRequestBranch{SHA: gh.String(e2eHead)}, Base: &gh.PullRequestBranch{SHA: gh.String(e2eBase), Ref: gh.String("master")}}
		for _, l := range f.repo.labels {
			out.Labels = append(out.Labels, &gh.Label{Name: gh.String(l)})
		}
		f.reply(w, http.StatusOK, out)
	})
	// The changed files over two pages, so the action must follow the Link header.
	f.mux.HandleFunc("GET "+pr+"/files", func(w http.ResponseWriter, r *http.Request) {
		half := (len(f.repo.changed) + 1) / 2
		files := f.repo.changed[:half]
		if r.URL.Query().Get("page") == "2" {
			files = f.repo.changed[half:]
		} else {
			next := fmt.Sprintf("%s%s/files?page=2", f.srv.URL, pr)
			w.Header().Set("Link", fmt.Sprintf(`<%s>; rel="next", <%s>; rel="last"`, next, next))
		}
		out := []*gh.CommitFile{}
		for _, name := range files {
			out = append(out, &gh.CommitFile{Filename: gh.String(name), Status: gh.String("modified")})
		}
		f.reply(w, http.StatusOK, out)
	})
	// The head commit reached GitHub at 10:00 (its check suite), the labels came at 10:05:
	// a maintainer's label accepts it.
	pushed := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	f.mux.HandleFunc("GET "+issue+"/events", func(w http.ResponseWriter, r *http.Request) {
		out := []*gh.IssueEvent{}
		for _, l := range f.repo.labels {
			out = append(out, &gh.IssueEvent{Event: gh.String("labeled"), CreatedAt: &gh.Timestamp{Time: pushed.Add(5 * time.Minute)},
				Actor: &gh.User{Login: gh.String(f.repo.labeledBy)}, Label: &gh.Label{Name: gh.String(l)}})
		}
		f.reply(w, http.StatusOK, out)
	})
	f.mux.HandleFunc("GET "+p+"/commits/"+e2eHead+"/check-suites", func(w http.ResponseWriter, r *http.Request) {
		f.reply(w, http.StatusOK, &gh.ListCheckSuiteResults{Total: gh.Int(1), CheckSuites: []*gh.CheckSuite{{ID: gh.Int64(1), CreatedAt: &gh.Timestamp{Time: pushed}}}})
	})
	f.mux.HandleFunc("GET "+p+"/collaborators/{user}/permission", func(w http.ResponseWriter, r *http.Request) {
		perm := "read"
		if slices.Contains(f.repo.writers, r.PathValue("user")) {
			perm = "write"
		}
		f.reply(w, http.StatusOK, &gh.RepositoryPermissionLevel{Permission: gh.String(perm), User: &gh.User{Login: gh.String(r.PathValue("user"))}})
	})

	// The sticky comment. A workflow's GITHUB_TOKEN may not read GET /user: its
	// comments are github-actions[bot]'s.
	f.mux.HandleFunc("GET /user", func(w http.ResponseWriter, r *http.Request) {
		f.reply(w, http.StatusForbidden, map[string]string{"message": "Resource not accessible by integration"})
	})
	f.mux.HandleFunc("GET "+issue+"/comments", func(w http.ResponseWriter, r *http.Request) {
		out := f.comments
		if out == nil {
			out = []*gh.IssueComment{}
		}
		f.reply(w, http.StatusOK, out)
	})
	f.mux.HandleFunc("POST "+issue+"/comments", func(w http.ResponseWriter, r *http.Request) {
		in := e2eDecode[gh.IssueComment](t, r)
		f.lastID++
		c := &gh.IssueComment{ID: gh.Int64(f.lastID), Body: in.Body, User: &gh.User{Login: gh.String("github-actions[bot]")},
			CreatedAt: &gh.Timestamp{Time: time.Date(2025, 6, 12, 9, 30, len(f.comments), 0, time.UTC)},
			HTMLURL:   gh.String(fmt.Sprintf("https://github.com/%s/%s/pull/%d#issuecomment-%d", e2eOwner, e2eRepo, e2ePR, f.lastID))}
		f.comments = append(f.comments, c)
		f.reply(w, http.StatusCreated, c)
	})
	f.mux.HandleFunc("PATCH "+p+"/issues/comments/{id}", func(w http.ResponseWriter, r *http.Request) {
		in := e2eDecode[gh.IssueComment](t, r)
		for _, c := range f.comments {
			if strconv.FormatInt(c.GetID(), 10) == r.PathValue("id") {
				c.Body = in.Body
				f.reply(w, http.StatusOK, c)
				return
			}
		}
		f.reply(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
	})

	// Check runs.
	f.mux.HandleFunc("POST "+p+"/check-runs", func(w http.ResponseWriter, r *http.Request) {
		in := e2eDecode[gh.CreateCheckRunOptions](t, r)
		f.checkRuns = append(f.checkRuns, &fakeCheckRun{create: in})
		id := int64(len(f.checkRuns))
		f.reply(w, http.StatusCreated, &gh.CheckRun{ID: gh.Int64(id), Name: gh.String(in.Name), HeadSHA: gh.String(in.HeadSHA), Status: in.Status,
			HTMLURL: gh.String(fmt.Sprintf("https://github.com/%s/%s/runs/%d", e2eOwner, e2eRepo, id))})
	})
	f.mux.HandleFunc("PATCH "+p+"/check-runs/{id}", func(w http.ResponseWriter, r *http.Request) {
		id, _ := strconv.Atoi(r.PathValue("id"))
		if id < 1 || id > len(f.checkRuns) {
			f.reply(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
			return
		}
		in := e2eDecode[gh.UpdateCheckRunOptions](t, r)
		if in.Output != nil && len(in.Output.Annotations) > 50 {
			t.Errorf("fake GitHub: %d annotations in one request; the API takes 50", len(in.Output.Annotations))
		}
		run := f.checkRuns[id-1]
		run.updates = append(run.updates, in)
		f.reply(w, http.StatusOK, &gh.CheckRun{ID: gh.Int64(int64(id)), HeadSHA: gh.String(run.create.HeadSHA), Conclusion: in.Conclusion,
			HTMLURL: gh.String(fmt.Sprintf("https://github.com/%s/%s/runs/%d", e2eOwner, e2eRepo, id))})
	})

	// The release refresh: branch refs, the Contents API commit, the pull request.
	f.mux.HandleFunc("GET "+p+"/git/ref/heads/{branch...}", func(w http.ResponseWriter, r *http.Request) {
		sha, ok := f.refs[r.PathValue("branch")]
		if !ok {
			f.reply(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
			return
		}
		f.reply(w, http.StatusOK, &gh.Reference{Ref: gh.String("refs/heads/" + r.PathValue("branch")), Object: &gh.GitObject{SHA: gh.String(sha), Type: gh.String("commit")}})
	})
	f.mux.HandleFunc("POST "+p+"/git/refs", func(w http.ResponseWriter, r *http.Request) {
		in := e2eDecode[map[string]string](t, r)
		branch, ok := strings.CutPrefix(in["ref"], "refs/heads/")
		if !ok {
			t.Errorf("fake GitHub: ref %q created; want refs/heads/...", in["ref"])
		}
		f.refs[branch] = in["sha"]
		f.reply(w, http.StatusCreated, &gh.Reference{Ref: gh.String(in["ref"]), Object: &gh.GitObject{SHA: gh.String(in["sha"])}})
	})
	f.mux.HandleFunc("PATCH "+p+"/git/refs/heads/{branch...}", func(w http.ResponseWriter, r *http.Request) {
		in := e2eDecode[map[string]any](t, r)
		sha, _ := in["sha"].(string)
		f.refs[r.PathValue("branch")] = sha
		f.reply(w, http.StatusOK, &gh.Reference{Ref: gh.String("refs/heads/" + r.PathValue("branch")), Object: &gh.GitObject{SHA: gh.String(sha)}})
	})
	f.mux.HandleFunc("PUT "+p+"/contents/{path...}", func(w http.ResponseWriter, r *http.Request) {
		in := e2eDecode[gh.RepositoryContentFileOptions](t, r)
		f.puts = append(f.puts, in)
		f.putPaths = append(f.putPaths, r.PathValue("path"))
		f.reply(w, http.StatusCreated, &gh.RepositoryContentResponse{Content: &gh.RepositoryContent{Path: gh.String(r.PathValue("path"))}})
	})
	f.mux.HandleFunc("GET "+p+"/pulls", func(w http.ResponseWriter, r *http.Request) {
		out := []*gh.PullRequest{}
		if h := r.URL.Query().Get("head"); h != "" && h == f.repo.forkHead && r.URL.Query().Get("state") == "open" {
			out = append(out, &gh.PullRequest{Number: gh.Int(e2ePR), State: gh.String("open"),
				Head: &gh.PullRequestBranch{SHA: gh.String(e2eHead), Repo: &gh.Repository{FullName: gh.String(e2eFork)}}})
		}
		for i, pr := range f.pulls {
			if r.URL.Query().Get("head") == e2eOwner+":"+pr.GetHead() {
				out = append(out, &gh.PullRequest{Number: gh.Int(100 + i), State: gh.String("open")})
			}
		}
		f.reply(w, http.StatusOK, out)
	})
	f.mux.HandleFunc("PATCH "+p+"/pulls/{n}", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.PathValue("n"))
		if n < 100 || n >= 100+len(f.pulls) {
			f.reply(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
			return
		}
		in := e2eDecode[gh.PullRequest](t, r)
		f.pulls[n-100].Title, f.pulls[n-100].Body = in.Title, in.Body
		f.reply(w, http.StatusOK, &gh.PullRequest{Number: gh.Int(n),
			HTMLURL: gh.String(fmt.Sprintf("https://github.com/%s/%s/pull/%d", e2eOwner, e2eRepo, n))})
	})
	f.mux.HandleFunc("POST "+p+"/pulls", func(w http.ResponseWriter, r *http.Request) {
		in := e2eDecode[gh.NewPullRequest](t, r)
		f.pulls = append(f.pulls, in)
		n := 100 + len(f.pulls) - 1
		f.reply(w, http.StatusCreated, &gh.PullRequest{Number: gh.Int(n),
			HTMLURL: gh.String(fmt.Sprintf("https://github.com/%s/%s/pull/%d", e2eOwner, e2eRepo, n))})
	})
}

func (f *fakeGitHub) reply(w http.ResponseWriter, code int, v any) {
	w.WriteHeader(code)
	if err := json.NewEncoder(w).Encode(v); err != nil {
		f.t.Errorf("fake GitHub: encoding the reply: %v", err)
	}
}

// takeCalls returns the requests recorded since the last call, and forgets them.
func (f *fakeGitHub) takeCalls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.calls
	f.calls = nil
	return out
}

// writes returns the calls that are not reads.
func writes(calls []string) []string {
	var out []string
	for _, c := range calls {
		if !strings.HasPrefix(c, "GET ") {
			out = append(out, c)
		}
	}
	return out
}

func e2eDecode[T any](t *testing.T, r *http.Request) T {
	t.Helper()
	var v T
	if err := json.NewDecoder(r.Body).Decode(&v); err != nil {
		t.Errorf("fake GitHub: %s %s: decoding the body: %v", r.Method, r.URL.Path, err)
	}
	return v
}

// actionSpec is one `evalgate action` run.
type actionSpec struct {
	eventName string                  // GITHUB_EVENT_NAME
	event     string                  // the payload in testdata/events, without ".json"
	edit      func(ev map[string]any) // changes the payload after it is moved to acme/tutor-bot
	inputs    map[string]string       // inputs by their action.yml names; the rest take action.yml's defaults
	setup     func(t *testing.T, workspace string)
	env       map[string]string // more environment variables (a judge's API key)
}

// actionRun is what one run left behind.
type actionRun struct {
	code           int
	stdout, stderr string
	outputs        map[string]string // GITHUB_OUTPUT
	summary        string            // GITHUB_STEP_SUMMARY
	workspace      string
	tmp            string // TMPDIR and RUNNER_TEMP
}

// runAction runs `evalgate action` as the container does: no flags, every setting from
// the environment GitHub gives a Docker action. bin is the built binary, run as a
// subprocess; "" runs the same command line in-process with the clock at goldenNow.
func runAction(t *testing.T, bin string, f *fakeGitHub, spec actionSpec) actionRun {
	t.Helper()
	dir := t.TempDir()
	workspace := filepath.Join(dir, "workspace")
	copyRepoFiles(t, workspace)
	return runActionIn(t, bin, f, spec, dir, workspace)
}

// runActionIn is runAction in a workspace of the caller's; dir, a fresh directory,
// takes the event payload, the outputs and the temporary directory.
func runActionIn(t *testing.T, bin string, f *fakeGitHub, spec actionSpec, dir, workspace string) actionRun {
	t.Helper()
	run := actionRun{workspace: workspace, tmp: filepath.Join(dir, "tmp")}
	if spec.setup != nil {
		spec.setup(t, run.workspace)
	}
	e2eMkdir(t, run.tmp)
	eventPath := filepath.Join(dir, "event.json")
	e2eWriteJSON(t, eventPath, e2eEvent(t, spec.event, spec.edit))
	outputPath, summaryPath := filepath.Join(dir, "output"), filepath.Join(dir, "step_summary")
	e2eWrite(t, outputPath, "")
	e2eWrite(t, summaryPath, "")

	sha, ref := e2eMerge, fmt.Sprintf("refs/pull/%d/merge", e2ePR)
	switch spec.eventName {
	case "release":
		sha, ref = e2eMain, "refs/tags/"+e2eTag
	case "workflow_run":
		sha, ref = e2eMain, "refs/heads/master" // the default branch's workflow
	}
	// Only what a runner sets: nothing of the test's own environment leaks in, so a
	// developer's GITHUB_TOKEN or a CI's GITHUB_* cannot change the outcome.
	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + dir,
		"TMPDIR=" + run.tmp,
		"CI=true",
		"GITHUB_ACTIONS=true",
		"GITHUB_ACTION=__evalgate_evalgate",
		"GITHUB_ACTOR=octocat",
		"GITHUB_API_URL=" + f.srv.URL,
		"GITHUB_SERVER_URL=https://github.com",
		"GITHUB_EVENT_NAME=" + spec.eventName,
		"GITHUB_EVENT_PATH=" + eventPath,
		"GITHUB_JOB=evalgate",
		"GITHUB_OUTPUT=" + outputPath,
		"GITHUB_REF=" + ref,
		"GITHUB_REPOSITORY=" + e2eOwner + "/" + e2eRepo,
		"GITHUB_REPOSITORY_OWNER=" + e2eOwner,
		"GITHUB_RUN_ID=1234567890",
		"GITHUB_SHA=" + sha,
		"GITHUB_STEP_SUMMARY=" + summaryPath,
		"GITHUB_WORKFLOW=evalgate",
		"GITHUB_WORKFLOW_REF=" + e2eOwner + "/" + e2eRepo + "/" + e2eWorkflow + "@" + ref,
		"GITHUB_WORKSPACE=" + run.workspace,
		"RUNNER_TEMP=" + run.tmp,
	}
	for k, v := range spec.env {
		env = append(env, k+"="+v)
	}
	// GitHub passes every input of action.yml to a Docker action as INPUT_<NAME>, the
	// name upper-cased with its dashes kept, defaults included.
	for name, v := range actionInputs(t, spec.inputs) {
		env = append(env, "INPUT_"+strings.ToUpper(name)+"="+v)
	}

	var stdout, stderr bytes.Buffer
	if bin == "" {
		vars := map[string]string{}
		for _, kv := range env {
			k, v, _ := strings.Cut(kv, "=")
			vars[k] = v
		}
		c := &cli.CLI{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr,
			Getenv: func(k string) string { return vars[k] }, Now: func() time.Time { return goldenNow }}
		run.code = c.Main([]string{"evalgate", "action"})
	} else {
		cmd := exec.Command(bin, "action")
		cmd.Dir = run.workspace
		cmd.Env = env
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		switch {
		case errors.As(err, &ee):
			run.code = ee.ExitCode()
		case err != nil:
			t.Fatalf("evalgate action: %v", err)
		}
	}
	run.stdout, run.stderr = stdout.String(), stderr.String()
	run.outputs = e2eOutputs(t, outputPath)
	run.summary = e2eRead(t, summaryPath)
	// The token is masked first thing, and appears nowhere else.
	if !strings.HasPrefix(run.stdout, "::add-mask::"+e2eToken+"\n") {
		t.Errorf("the github-token is not masked first; stdout:\n%s", run.stdout)
	}
	for _, out := range []string{strings.Replace(run.stdout, "::add-mask::"+e2eToken, "", 1), run.stderr, run.summary, e2eRead(t, outputPath)} {
		if strings.Contains(out, e2eToken) {
			t.Errorf("the github-token appears in the action's output:\n%s", out)
		}
	}
	if t.Failed() {
		t.Logf("exit %d\nstdout:\n%s\nstderr:\n%s", run.code, run.stdout, run.stderr)
	}
	return run
}

// actionInputs returns the inputs as GitHub fills them: action.yml's defaults (the
// token's default expression replaced by the token), then the run's own.
func actionInputs(t *testing.T, set map[string]string) map[string]string {
	t.Helper()
	var meta struct {
		Inputs map[string]struct {
			Default string `yaml:"default"`
		} `yaml:"inputs"`
	}
	if err := yaml.Unmarshal([]byte(e2eRead(t, filepath.Join(repoRoot, "action.yml"))), &meta); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for name, in := range meta.Inputs {
		out[name] = strings.ReplaceAll(in.Default, "${{ github.token }}", e2eToken)
	}
	for name, v := range set {
		if _, ok := meta.Inputs[name]; !ok {
			t.Fatalf("input %q is not in action.yml", name)
		}
		out[name] = v
	}
	return out
}

// e2eEvent reads testdata/events/<name>.json and moves it to acme/tutor-bot: the
// repository, pull request #42 with its head and base commits, the release tag.
func e2eEvent(t *testing.T, name string, edit func(map[string]any)) map[string]any {
	t.Helper()
	var ev map[string]any
	if err := json.Unmarshal([]byte(e2eRead(t, filepath.Join(repoRoot, "testdata", "events", name+".json"))), &ev); err != nil {
		t.Fatal(err)
	}
	moveRepo := func(r any, fullName string) {
		m, ok := r.(map[string]any)
		if !ok {
			t.Fatalf("%s: repository is %T", name, r)
		}
		owner, repo, _ := strings.Cut(fullName, "/")
		m["full_name"], m["name"] = fullName, repo
		m["owner"].(map[string]any)["login"] = owner
		m["default_branch"] = "master"
	}
	moveRepo(ev["repository"], e2eOwner+"/"+e2eRepo)
	if pr, ok := ev["pull_request"].(map[string]any); ok {
		ev["number"], pr["number"] = e2ePR, e2ePR
		head, base := pr["head"].(map[string]any), pr["base"].(map[string]any)
		head["sha"], base["sha"], base["ref"] = e2eHead, e2eBase, "master"
		moveRepo(head["repo"], e2eOwner+"/"+e2eRepo)
		moveRepo(base["repo"], e2eOwner+"/"+e2eRepo)
		pr["labels"] = []any{}
	}
	if wr, ok := ev["workflow_run"].(map[string]any); ok {
		// The producer's run on the pull request's head; its head repository is the fork
		// for a fork's pull request.
		wr["head_sha"] = e2eHead
		moveRepo(wr["repository"], e2eOwner+"/"+e2eRepo)
		if hr := wr["head_repository"].(map[string]any); hr["fork"] == true {
			moveRepo(hr, e2eFork)
		} else {
			moveRepo(hr, e2eOwner+"/"+e2eRepo)
		}
		for _, p := range wr["pull_requests"].([]any) {
			pr := p.(map[string]any)
			pr["number"] = e2ePR
			pr["head"].(map[string]any)["sha"] = e2eHead
			pr["base"].(map[string]any)["sha"] = "0000000000000000000000000000000000000bad" // stale: the API's is used
		}
	}
	if rel, ok := ev["release"].(map[string]any); ok {
		rel["tag_name"] = e2eTag
	}
	if edit != nil {
		edit(ev)
	}
	return ev
}

// copyRepoFiles copies what the tutor example's check reads into a workspace: the
// repository's evalgate.yaml, examples/tutor-capstone and baselines/.
func copyRepoFiles(t *testing.T, workspace string) {
	t.Helper()
	for rel, content := range projectFiles(t, repoRoot, "evalgate.yaml", "examples/tutor-capstone", "baselines") {
		e2eWrite(t, filepath.Join(workspace, filepath.FromSlash(rel)), content)
	}
}

// projectFiles reads the files at paths (files, or directories walked) under root, by
// their slash paths relative to root.
func projectFiles(t *testing.T, root string, paths ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, p := range paths {
		err := filepath.WalkDir(filepath.Join(root, filepath.FromSlash(p)), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			b, err := os.ReadFile(path)
			out[filepath.ToSlash(rel)] = string(b)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// baseFiles are the files of the base commit the fake serves: the repository's own
// config and baseline, as committed.
// tutorHistory is the tutor baseline's history file, beside it.
const tutorHistory = "baselines/tutor-capstone.history.jsonl"

func baseFiles(t *testing.T) map[string]string {
	t.Helper()
	files := projectFiles(t, repoRoot, "examples/tutor-capstone/suite.yaml", "examples/tutor-capstone/schema.json", "examples/tutor-capstone/rubric_tests.yaml")
	for k, v := range map[string]string{
		"evalgate.yaml": e2eRead(t, filepath.Join(repoRoot, "evalgate.yaml")),
		e2eWorkflow:     e2eWorkflowYAML,
		tutorBaseline:   e2eRead(t, filepath.Join(repoRoot, filepath.FromSlash(tutorBaseline))),
		// Two releases of history beside it (the PR comment's history line).
		tutorHistory: `{"release":"refs/tags/v1.0.0","date":"2026-01-05T10:00:00Z","commit":"1111111","mean":0.95,"std":0.01,"runs":3,"pass_rate":0.9,"dimensions":{},"scoringSystem":"scoringSystem/1.0.0","gradingSystem":"gradingSystem/1.0.0","rubric_hash":""}
{"release":"refs/tags/v1.1.0","date":"2026-02-05T10:00:00Z","commit":"2222222","mean":0.975,"std":0.0,"runs":3,"pass_rate":0.95,"dimensions":{},"scoringSystem":"scoringSystem/1.0.0","gradingSystem":"gradingSystem/1.0.0","rubric_hash":""}
`,
	} {
		files[k] = v
	}
	return files
}

// readOutputs parses GITHUB_OUTPUT: "name<<DELIMITER\nvalue\nDELIMITER\n" entries.
func e2eOutputs(t *testing.T, path string) map[string]string {
	t.Helper()
	out := map[string]string{}
	rest := e2eRead(t, path)
	for rest != "" {
		header, body, ok := strings.Cut(rest, "\n")
		name, delim, ok2 := strings.Cut(header, "<<")
		if !ok || !ok2 {
			t.Fatalf("GITHUB_OUTPUT: %q is not name<<delimiter", header)
		}
		value, after, ok := strings.Cut(body, "\n"+delim+"\n")
		if !ok {
			if value, ok = strings.CutPrefix(body, delim+"\n"); ok { // an empty value
				out[name], rest = "", value
				continue
			}
			t.Fatalf("GITHUB_OUTPUT: output %q has no closing delimiter", name)
		}
		if _, dup := out[name]; dup {
			t.Errorf("GITHUB_OUTPUT: output %q set twice", name)
		}
		out[name], rest = value, after
	}
	return out
}

func e2eRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func e2eWrite(t *testing.T, path, content string) {
	t.Helper()
	e2eMkdir(t, filepath.Dir(path))
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func e2eWriteJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	e2eWrite(t, path, string(b))
}

func e2eMkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

// The workflow that runs the action (GITHUB_WORKFLOW_REF), as the base commit has it:
// its evalgate step uses the default config and working directory.
const (
	e2eWorkflow     = ".github/workflows/evalgate.yml"
	e2eWorkflowYAML = `on: pull_request
jobs:
  gate:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: evalgate/evalgate@v1
        with:
          results: results/*.jsonl
`
)

// What the tutor example's runs look like from GitHub.
const (
	tutorSuite  = "examples/tutor-capstone/suite.yaml"
	tutorMarker = "<!-- evalgate:suite=tutor-capstone -->"
	reportPath  = "evalgate-report-tutor-capstone.json" // the report-path output: at the workspace root
)

// prSpec is a pull request event with the tutor example's results file results.
func prSpec(event, results string, inputs map[string]string) actionSpec {
	in := map[string]string{"results": "examples/tutor-capstone/results/" + results}
	for k, v := range inputs {
		in[k] = v
	}
	return actionSpec{eventName: "pull_request", event: event, inputs: in}
}

// appliedBy edits pull_request.labeled (a real payload: the label "bug" applied) into
// login applying label: the run that starts accepts the payload's head commit.
func appliedBy(label, login string) func(map[string]any) {
	return func(ev map[string]any) {
		ev["label"].(map[string]any)["name"] = label
		ev["sender"].(map[string]any)["login"] = login
	}
}

func commentURL(id int) string {
	return fmt.Sprintf("https://github.com/%s/%s/pull/%d#issuecomment-%d", e2eOwner, e2eRepo, e2ePR, id)
}

// TestActionE2E runs the built binary as `evalgate action` against a fake GitHub with
// the real webhook payloads of testdata/events, and checks what a workflow and a
// reviewer see: the exit code, the outputs, the job summary, the report file, and
// every request made to GitHub.
func TestActionE2E(t *testing.T) {
	bin := buildEvalgate(t)

	t.Run("blocked, then the comment is updated in place", func(t *testing.T) {
		t.Parallel()
		f := newFakeGitHub(t, fakeRepo{baseFiles: baseFiles(t), changed: []string{"src/tutor.py", "prompts/correct.txt", "README.md"}})

		// Opened with a regressed run: the regression gate and the capstone gate fail.
		run := runAction(t, bin, f, prSpec("pull_request.opened", "regressed.jsonl", nil))
		wantExit(t, run, 1)
		wantOutputs(t, run, map[string]string{"score": "0.8750", "baseline-score": "0.9750", "delta": "-0.1000",
			"verdict": "fail", "grade": "", "report-path": reportPath, "comment-url": commentURL(1001),
			"html-path": "evalgate-report-tutor-capstone.html"})
		// The HTML report beside it is one self-contained file: nothing loaded from elsewhere.
		if page := e2eRead(t, filepath.Join(run.workspace, "evalgate-report-tutor-capstone.html")); !strings.HasPrefix(page, "<!DOCTYPE html>") ||
			strings.Contains(page, "src=\"http") || strings.Contains(page, "href=\"http") || !strings.Contains(page, "e-39-12") {
			t.Errorf("html-path holds no self-contained report of the run")
		}
		base := "?ref=" + e2eBase
		wantCalls(t, f.takeCalls(), []string{
			"POST /check-runs",                    // in progress before anything is scored
			"GET /contents/" + e2eWorkflow + base, // which config the base commit's workflow gates with
			"GET /contents/evalgate.yaml" + base,
			"GET /pulls/42/files?page=1&per_page=100",
			"GET /pulls/42/files?page=2&per_page=100",
			"GET /pulls/42", // its labels, for the accept label
			// The gate, all of it, as of the base commit: the config and every file it names.
			"GET /contents/evalgate.yaml" + base,
			"GET /contents/" + tutorSuite + base,
			"GET /contents/examples/tutor-capstone/rubric_tests.yaml" + base,
			"GET /contents/examples/tutor-capstone/schema.json" + base,
			"GET /contents/" + tutorBaseline + base,
			"GET /contents/baselines/tutor-capstone.history.jsonl" + base, // the score's history, as of the base commit
			"PATCH /check-runs/1",
			"GET /user", // whose comments are the action's own (GITHUB_TOKEN: 403, so github-actions[bot])
			"GET /issues/42/comments?page=1&per_page=100",
			"GET /issues/42/comments?page=1&per_page=100", // listed again just before creating
			"POST /issues/42/comments",
			"GET /issues/42/comments?page=1&per_page=100", // and after: no racing duplicate
		})
		comment := onlyComment(t, f)
		if !strings.HasPrefix(comment, tutorMarker+"\n### ❌ evalgate · tutor-capstone: blocked") {
			t.Errorf("the comment does not start with the marker and the verdict line:\n%s", comment)
		}
		wantGoldenComment(t, "comment-fail.md", comment)
		wantSummary(t, run, comment)
		wantCheckRun(t, f, 1, "failure", "blocked tutor-capstone · score 0.875 (Δ −10.0 pts)")
		wantAnnotations(t, run, f.checkRuns[0].annotations(), "failure", "e-39-03", "e-39-07", "e-39-12")
		wantReport(t, run, "fail", "0.875")
		if !strings.Contains(run.stdout, "::error title=evalgate::blocked tutor-capstone") {
			t.Errorf("no ::error line with the verdict; stdout:\n%s", run.stdout)
		}

		// The author pushes a fix: synchronize, on the same pull request. The comment
		// is edited in place, a new check run goes to the (same) head commit.
		run = runAction(t, bin, f, prSpec("pull_request.synchronize", "pr.jsonl", nil))
		wantExit(t, run, 0)
		wantOutputs(t, run, map[string]string{"score": "0.9725", "baseline-score": "0.9750", "delta": "-0.0025",
			"verdict": "warn", "grade": "", "report-path": reportPath, "comment-url": commentURL(1001)})
		wantWrites(t, f.takeCalls(), []string{"POST /check-runs", "PATCH /check-runs/2", "PATCH /issues/comments/1001"})
		comment = onlyComment(t, f)
		wantGoldenComment(t, "comment-warn.md", comment)
		wantSummary(t, run, comment)
		wantCheckRun(t, f, 2, "success", "passed with warnings tutor-capstone")
		wantReport(t, run, "warn", "0.9725")
	})

	t.Run("fail-on never: the step passes, the check still fails", func(t *testing.T) {
		t.Parallel()
		f := newFakeGitHub(t, fakeRepo{baseFiles: baseFiles(t)})
		run := runAction(t, bin, f, prSpec("pull_request.opened", "regressed.jsonl", map[string]string{"fail-on": "never"}))
		wantExit(t, run, 0)
		wantOutputs(t, run, map[string]string{"verdict": "fail"})
		wantWrites(t, f.takeCalls(), []string{"POST /check-runs", "PATCH /check-runs/1", "POST /issues/42/comments"})
		wantCheckRun(t, f, 1, "failure", "blocked")
	})

	t.Run("results-format input: the files are read in the format named", func(t *testing.T) {
		t.Parallel()
		f := newFakeGitHub(t, fakeRepo{baseFiles: baseFiles(t)})
		run := runAction(t, bin, f, prSpec("pull_request.opened", "pr.jsonl", map[string]string{"results-format": "evalgate"}))
		wantExit(t, run, 0)
		wantOutputs(t, run, map[string]string{"verdict": "warn", "score": "0.9725"})
		// The tutor's JSONL read as promptfoo output is bad input, named as such.
		f = newFakeGitHub(t, fakeRepo{baseFiles: baseFiles(t)})
		run = runAction(t, bin, f, prSpec("pull_request.opened", "pr.jsonl", map[string]string{"results-format": "promptfoo"}))
		wantExit(t, run, 2)
		if out := run.stdout + run.stderr; !strings.Contains(out, `pr.jsonl:1: record has no \"testCase\"`) && !strings.Contains(out, `record has no "testCase"`) {
			t.Errorf("no promptfoo import error; output:\n%s", out)
		}
		f = newFakeGitHub(t, fakeRepo{baseFiles: baseFiles(t)})
		run = runAction(t, bin, f, prSpec("pull_request.opened", "pr.jsonl", map[string]string{"results-format": "braintrust"}))
		wantExit(t, run, 2)
		if out := run.stdout + run.stderr; !strings.Contains(out, `input results-format: unknown results format "braintrust"`) {
			t.Errorf("no error naming the input; output:\n%s", out)
		}
	})

	t.Run("fail-on soft: a warning fails the step, the check passes", func(t *testing.T) {
		t.Parallel()
		f := newFakeGitHub(t, fakeRepo{baseFiles: baseFiles(t)})
		run := runAction(t, bin, f, prSpec("pull_request.opened", "pr.jsonl", map[string]string{"fail-on": "soft"}))
		wantExit(t, run, 1)
		wantOutputs(t, run, map[string]string{"verdict": "warn"})
		wantCheckRun(t, f, 1, "success", "passed with warnings")
	})

	t.Run("accept label applied by a maintainer", func(t *testing.T) {
		t.Parallel()
		// Only the regression gate fails: the capstone and eval gates pass at 0.93 (five
		// items lost 4.5 pts between them in each of the pull request's three runs, a drop
		// that stands out from the runs' spread as well as from its items' noise; one run
		// alone would be inconclusive, as a bad run could explain it).
		// The run the maintainer's applying the label started: the acceptance is bound
		// to the commit it was applied to, the payload's head.
		spec := prSpec("pull_request.labeled", "", nil)
		spec.edit = appliedBy("evalgate/accept", "maintainer")
		spec.inputs["results"] = threeRuns
		spec.setup = func(t *testing.T, ws string) { writeThreeRuns(t, ws) }

		f := newFakeGitHub(t, fakeRepo{baseFiles: baseFiles(t), labels: []string{"bug", "evalgate/accept"}, labeledBy: "maintainer", writers: []string{"maintainer"}})
		run := runAction(t, bin, f, spec)
		wantExit(t, run, 0)
		wantOutputs(t, run, map[string]string{"score": "0.9300", "delta": "-0.0450", "verdict": "accepted"})
		calls := f.takeCalls()
		for _, c := range []string{"GET /issues/42/events?page=1&per_page=100", "GET /collaborators/maintainer/permission"} {
			if !slices.Contains(calls, c) {
				t.Errorf("no %s: who applied the label, with which permission, is not checked; calls:\n%s", c, strings.Join(calls, "\n"))
			}
		}
		wantCheckRun(t, f, 1, "neutral", "regression accepted tutor-capstone")
		comment := onlyComment(t, f)
		want := tutorMarker + "\n> [!NOTE]\n> Regression accepted by @maintainer with the `evalgate/accept` label: the check is neutral.\n"
		if !strings.HasPrefix(comment, want) {
			t.Errorf("the comment does not start by saying who accepted the regression; want prefix\n%s\ngot:\n%s", want, comment)
		}
		wantReport(t, run, "accepted", "0.93")

		// A push's run with the maintainer's label on accepts nothing, and says to
		// re-apply the label.
		pushed := spec
		pushed.event, pushed.edit = "pull_request.synchronize", nil
		f = newFakeGitHub(t, fakeRepo{baseFiles: baseFiles(t), labels: []string{"evalgate/accept"}, labeledBy: "maintainer", writers: []string{"maintainer"}})
		run = runAction(t, bin, f, pushed)
		wantExit(t, run, 1)
		wantOutputs(t, run, map[string]string{"verdict": "fail"})
		wantCheckRun(t, f, 1, "failure", "blocked")
		if c := onlyComment(t, f); !strings.Contains(c, "accepts only the commit it was applied to") || strings.Contains(c, "accepted by") {
			t.Errorf("a push's run with the label on: the comment does not say the label accepts only the commit it was applied to:\n%s", c)
		}

		// The same label applied by someone who cannot write accepts nothing.
		spec.edit = appliedBy("evalgate/accept", "drive-by")
		f = newFakeGitHub(t, fakeRepo{baseFiles: baseFiles(t), labels: []string{"evalgate/accept"}, labeledBy: "drive-by", writers: []string{"maintainer"}})
		run = runAction(t, bin, f, spec)
		wantExit(t, run, 1)
		wantOutputs(t, run, map[string]string{"verdict": "fail"})
		wantCheckRun(t, f, 1, "failure", "blocked")
		if c := onlyComment(t, f); strings.Contains(c, "accepted by") {
			t.Errorf("a label from a reader accepted the regression:\n%s", c)
		}
	})

	t.Run("the pull request changes its own baseline and gates", func(t *testing.T) {
		t.Parallel()
		// The head lowers the bar: a baseline made from the regressed run itself, and
		// gates loosened to let 0.875 through.
		weaken := func(t *testing.T, ws string) {
			cmd := exec.Command(bin, "baseline", "--results", "examples/tutor-capstone/results/regressed.jsonl", "--out", tutorBaseline)
			cmd.Dir, cmd.Env = ws, []string{"PATH=" + os.Getenv("PATH"), "GITHUB_SHA=" + e2eHead}
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("evalgate baseline: %v\n%s", err, out)
			}
			cfg := e2eRead(t, filepath.Join(ws, "evalgate.yaml"))
			for old, weak := range map[string]string{"min: 0.92": "min: 0.80", "min: 0.93": "min: 0.80", "max_drop: 0.02": "max_drop: 0.50"} {
				if !strings.Contains(cfg, old) {
					t.Fatalf("evalgate.yaml has no %q to weaken", old)
				}
				cfg = strings.ReplaceAll(cfg, old, weak)
			}
			e2eWrite(t, filepath.Join(ws, "evalgate.yaml"), cfg)

			// Trusted, the head's own files would let the regressed run through.
			check := exec.Command(bin, "check", "--results", "examples/tutor-capstone/results/regressed.jsonl")
			check.Dir, check.Env = ws, []string{"PATH=" + os.Getenv("PATH"), "GITHUB_SHA=" + e2eHead}
			if out, err := check.CombinedOutput(); err != nil {
				t.Fatalf("evalgate check on the head's own baseline and gates: %v; want a pass\n%s", err, out)
			}
		}
		// The baseline is on the second page of the changed files.
		f := newFakeGitHub(t, fakeRepo{baseFiles: baseFiles(t), changed: []string{"evalgate.yaml", "src/tutor.py", "README.md", tutorBaseline}})
		spec := prSpec("pull_request.synchronize", "regressed.jsonl", nil)
		spec.setup = weaken
		run := runAction(t, bin, f, spec)
		wantExit(t, run, 1)
		wantOutputs(t, run, map[string]string{"score": "0.8750", "baseline-score": "0.9750", "delta": "-0.1000", "verdict": "fail"})
		wantCheckRun(t, f, 1, "failure", "blocked")
		comment := onlyComment(t, f)
		want := tutorMarker + "\n> [!WARNING]\n> This pull request changes what the gate is read from: `" + tutorBaseline + "`, `evalgate.yaml`. " +
			"The gate used here (`evalgate.yaml` with every file it names, and the baseline) comes from the base commit `" + e2eBase[:7] + "`; " +
			"the changes apply once merged, or once a maintainer accepts them as a proposed gate.\n"
		if !strings.HasPrefix(comment, want) {
			t.Errorf("the comment does not say first that the pull request changes its gate; want prefix\n%s\ngot:\n%s", want, comment)
		}
		for _, s := range []string{"| capstone (mean\\_score) ", "| ≥ 0.92 ", "drop ≤ 2.0 pts"} {
			if !strings.Contains(comment, s) {
				t.Errorf("the comment lacks %q: the gates are not the base commit's:\n%s", s, comment)
			}
		}
		if got := wantReport(t, run, "fail", "0.875"); got.Comparison.BaselineFile != tutorBaseline+"@"+e2eBase[:7] {
			t.Errorf("report: baseline_file %q; want the base commit's %s@%s", got.Comparison.BaselineFile, tutorBaseline, e2eBase[:7])
		}
	})

	t.Run("the pull request points its config at a weaker baseline", func(t *testing.T) {
		t.Parallel()
		// The base commit also holds an old, weak baseline (made from the run under
		// test, so nothing regresses against it). The head's config names it; the
		// base's config still names the real one, and that is the one used.
		weak := evalgateIn(t, bin, "baseline", "--results", "results/regression-only.jsonl", "--out", "baselines/old.jsonl")
		files := baseFiles(t)
		files["baselines/old.jsonl"] = weak
		f := newFakeGitHub(t, fakeRepo{baseFiles: files, changed: []string{"evalgate.yaml"}})
		spec := prSpec("pull_request.synchronize", "", nil)
		spec.inputs["results"] = threeRuns
		spec.setup = func(t *testing.T, ws string) {
			writeThreeRuns(t, ws)
			cfg := e2eRead(t, filepath.Join(ws, "evalgate.yaml"))
			e2eWrite(t, filepath.Join(ws, "evalgate.yaml"), strings.Replace(cfg, "baseline: "+tutorBaseline, "baseline: baselines/old.jsonl", 1))
		}
		run := runAction(t, bin, f, spec)
		wantExit(t, run, 1)
		wantOutputs(t, run, map[string]string{"score": "0.9300", "baseline-score": "0.9750", "verdict": "fail"})
		// The head's baseline is the proposed gate's: shown beside it, never deciding.
		if comment := onlyComment(t, f); !strings.Contains(comment, "<code>baselines/tutor-capstone.jsonl</code> → <code>baselines/old.jsonl</code>") {
			t.Errorf("the comment does not show the proposed baseline change:\n%s", comment)
		}
		if got := wantReport(t, run, "fail", "0.93"); got.Comparison.BaselineFile != tutorBaseline+"@"+e2eBase[:7] {
			t.Errorf("report: baseline_file %q; want %s@%s", got.Comparison.BaselineFile, tutorBaseline, e2eBase[:7])
		}
	})

	t.Run("a malformed config at the base commit: fails closed, and the summary says what to do", func(t *testing.T) {
		t.Parallel()
		base := baseFiles(t)
		base["evalgate.yaml"] = "{\"suite\": [1, 2,\n"
		f := newFakeGitHub(t, fakeRepo{baseFiles: base})
		run := runAction(t, bin, f, prSpec("pull_request.opened", "regressed.jsonl", nil))
		wantExit(t, run, 2)
		wantOutputs(t, run, map[string]string{"verdict": "error", "failed-channels": ""})
		wantCheckRun(t, f, 1, "failure", "evalgate could not run")
		for _, want := range []string{"### ❌ evalgate could not judge this run", "evalgate.yaml as of the base commit: ",
			"`evalgate.yaml` is broken on the base branch", "fix `evalgate.yaml` on the base branch first"} {
			if !strings.Contains(run.summary, want) {
				t.Errorf("the summary lacks %q:\n%s", want, run.summary)
			}
		}
	})

	t.Run("a misspelt baseline: a warning with the nearest name; require-baseline fails it", func(t *testing.T) {
		t.Parallel()
		// The base's config and the head's both name baselines/tutor-capstone.jsn, which
		// exists in neither: without require-baseline the regression gate is skipped
		// with a warning at the top; with it the check fails.
		misspelt := strings.Replace(e2eRead(t, filepath.Join(repoRoot, "evalgate.yaml")), "baseline: "+tutorBaseline, "baseline: baselines/tutor-capstone.jsn", 1)
		files := baseFiles(t)
		files["evalgate.yaml"] = misspelt
		setup := func(t *testing.T, ws string) { e2eWrite(t, filepath.Join(ws, "evalgate.yaml"), misspelt) }
		wantWarning := func(t *testing.T, comment string) {
			t.Helper()
			want := "> [!WARNING]\n> baseline baselines/tutor-capstone.jsn does not exist on the base branch or in this pull request (did you mean baselines/tutor-capstone.jsonl?)"
			if !strings.Contains(comment, want) {
				t.Errorf("the comment does not warn about the missing baseline; want\n%s\ngot:\n%s", want, comment)
			}
		}

		f := newFakeGitHub(t, fakeRepo{baseFiles: files})
		spec := prSpec("pull_request.opened", "pr.jsonl", nil)
		spec.setup = setup
		run := runAction(t, bin, f, spec)
		wantExit(t, run, 0)
		wantOutputs(t, run, map[string]string{"verdict": "warn"})
		wantWarning(t, onlyComment(t, f))
		wantSummary(t, run, onlyComment(t, f))

		f = newFakeGitHub(t, fakeRepo{baseFiles: files})
		spec = prSpec("pull_request.opened", "pr.jsonl", map[string]string{"require-baseline": "true"})
		spec.setup = setup
		run = runAction(t, bin, f, spec)
		wantExit(t, run, 1)
		wantOutputs(t, run, map[string]string{"verdict": "fail"})
		wantCheckRun(t, f, 1, "failure", "blocked tutor-capstone")
		comment := onlyComment(t, f)
		wantWarning(t, comment)
		if !strings.Contains(comment, `regression gate "regression" failed: baseline baselines/tutor-capstone.jsn is required (require\_baseline) but does not exist`) {
			t.Errorf("the regression gate does not say the baseline is required:\n%s", comment)
		}
	})

	t.Run("the pull request that adds evalgate is never failed by a missing baseline", func(t *testing.T) {
		t.Parallel()
		// The base commit has no config at all: this pull request adds evalgate, with a
		// config whose baseline is not made yet, and require-baseline on.
		f := newFakeGitHub(t, fakeRepo{baseFiles: map[string]string{}})
		spec := prSpec("pull_request.opened", "pr.jsonl", map[string]string{"require-baseline": "true"})
		spec.setup = func(t *testing.T, ws string) {
			cfg := e2eRead(t, filepath.Join(ws, "evalgate.yaml"))
			e2eWrite(t, filepath.Join(ws, "evalgate.yaml"), strings.Replace(cfg, "baseline: "+tutorBaseline, "baseline: baselines/new-suite.json", 1))
		}
		run := runAction(t, bin, f, spec)
		wantExit(t, run, 0)
		wantOutputs(t, run, map[string]string{"verdict": "warn"})
		if comment := onlyComment(t, f); !strings.Contains(comment, "> [!WARNING]\n> baseline baselines/new-suite.json does not exist") {
			t.Errorf("the comment does not warn about the missing baseline:\n%s", comment)
		}
	})

	t.Run("fork: summary and log only, the verdict still fails the step", func(t *testing.T) {
		t.Parallel()
		f := newFakeGitHub(t, fakeRepo{baseFiles: baseFiles(t), forbidWrites: true})
		spec := prSpec("pull_request.opened", "regressed.jsonl", nil)
		spec.edit = func(ev map[string]any) {
			repo := ev["pull_request"].(map[string]any)["head"].(map[string]any)["repo"].(map[string]any)
			repo["full_name"], repo["fork"] = e2eFork, true
			repo["owner"].(map[string]any)["login"] = "forker"
		}
		run := runAction(t, bin, f, spec)
		wantExit(t, run, 1)
		wantOutputs(t, run, map[string]string{"verdict": "fail", "comment-url": "", "report-path": reportPath})
		wantWrites(t, f.takeCalls(), nil)
		if !strings.HasPrefix(run.summary, "> [!NOTE]\n> Pull request from a fork: its token is read-only") {
			t.Errorf("the summary does not say why there is no comment:\n%s", run.summary)
		}
		wantFallbackAnnotations(t, run, "e-39-03", "e-39-07", "e-39-12")
		wantReport(t, run, "fail", "0.875")
	})

	t.Run("read-only token: 403 on the first write, summary and log only", func(t *testing.T) {
		t.Parallel()
		f := newFakeGitHub(t, fakeRepo{baseFiles: baseFiles(t), forbidWrites: true})
		run := runAction(t, bin, f, prSpec("pull_request.opened", "regressed.jsonl", nil))
		wantExit(t, run, 1)
		wantOutputs(t, run, map[string]string{"verdict": "fail", "comment-url": ""})
		// The refused check run does not keep the comment from being tried.
		wantWrites(t, f.takeCalls(), []string{"POST /check-runs", "POST /issues/42/comments"})
		wantOutputs(t, run, map[string]string{"failed-channels": "check-run,comment"})
		if !strings.HasPrefix(run.summary, "> [!WARNING]\n> Not everything could be published on GitHub (failed-channels: `check-run,comment`)") ||
			!strings.Contains(run.summary, "`permissions: checks: write`") {
			t.Errorf("the summary does not say why there is no comment:\n%s", run.summary)
		}
		wantFallbackAnnotations(t, run, "e-39-03", "e-39-07", "e-39-12")
	})

	t.Run("release: refresh pull request, then updated in place", func(t *testing.T) {
		t.Parallel()
		f := newFakeGitHub(t, fakeRepo{baseFiles: baseFiles(t)})
		spec := actionSpec{eventName: "release", event: "release.published",
			inputs: map[string]string{"mode": "baseline", "results": "examples/tutor-capstone/release/run*.jsonl"}}
		run := runAction(t, bin, f, spec)
		wantExit(t, run, 0)
		prURL := fmt.Sprintf("https://github.com/%s/%s/pull/100", e2eOwner, e2eRepo)
		wantOutputs(t, run, map[string]string{"score": "0.9750", "verdict": "baseline", "report-path": tutorBaseline, "refresh-pr-url": prURL})
		wantCalls(t, f.takeCalls(), []string{
			"GET /git/ref/heads/master",
			"GET /contents/" + tutorBaseline + "?ref=" + e2eMain,
			"GET /contents/baselines/index.json?ref=" + e2eMain,                   // the index goes with the baseline
			"GET /contents/baselines/tutor-capstone.history.jsonl?ref=" + e2eMain, // and the score's history
			"GET /contents/baselines/.gitattributes?ref=" + e2eMain,
			"GET /git/ref/heads/" + refreshBranch,
			"POST /git/refs",
			"PUT /contents/" + tutorBaseline,
			"PUT /contents/baselines/index.json",
			"PUT /contents/baselines/tutor-capstone.history.jsonl",
			"PUT /contents/baselines/.gitattributes",
			"GET /pulls?base=master&head=" + e2eOwner + "%3A" + strings.ReplaceAll(refreshBranch, "/", "%2F") + "&state=open",
			"POST /pulls",
		})
		written := e2eRead(t, filepath.Join(run.workspace, tutorBaseline))
		var b struct {
			Source struct{ Ref, SHA string } `json:"source"`
			Runs   []any                     `json:"runs"`
		}
		if err := json.NewDecoder(strings.NewReader(written)).Decode(&b); err != nil { // the header line
			t.Fatal(err)
		}
		if b.Source.Ref != "refs/tags/"+e2eTag || b.Source.SHA != e2eMain || len(b.Runs) != 3 {
			t.Errorf("baseline source %+v from %d runs; want refs/tags/%s at %s from 3", b.Source, len(b.Runs), e2eTag, e2eMain)
		}
		if f.refs[refreshBranch] != e2eMain {
			t.Errorf("refresh branch at %q; want the default branch's head %s", f.refs[refreshBranch], e2eMain)
		}
		if len(f.puts) != 4 || f.putPaths[0] != tutorBaseline || string(f.puts[0].Content) != written || f.puts[0].GetBranch() != refreshBranch {
			t.Errorf("committed %v on %q; want %s with the new baseline on %s", f.putPaths, f.puts[0].GetBranch(), tutorBaseline, refreshBranch)
		}
		// The baselines index is refreshed with it, so the default branch's rollup names
		// the new baseline's mean.
		if index := e2eRead(t, filepath.Join(run.workspace, "baselines/index.json")); len(f.puts) < 2 ||
			f.putPaths[1] != "baselines/index.json" || string(f.puts[1].Content) != index || !strings.Contains(index, `"mean": 0.975`) {
			t.Errorf("committed %v; want baselines/index.json as written beside the baseline", f.putPaths)
		}
		// The score's history gains the release's record, merged by union.
		if len(f.puts) < 4 || !strings.Contains(string(f.puts[2].Content), `"release":"refs/tags/`+e2eTag+`"`) ||
			!strings.Contains(string(f.puts[3].Content), "*.history.jsonl merge=union") {
			t.Errorf("committed %v; want the history with the release and its .gitattributes", f.putPaths)
		}
		if len(f.pulls) != 1 || f.pulls[0].GetHead() != refreshBranch || f.pulls[0].GetBase() != "master" ||
			!strings.Contains(f.pulls[0].GetTitle(), e2eTag) || !strings.Contains(f.pulls[0].GetBody(), "refresh-token") {
			t.Errorf("refresh pull request %+v; want %s into master, titled with the release, saying why a refresh-token helps", f.pulls, refreshBranch)
		}
		if !strings.Contains(run.summary, "Opened "+prURL) {
			t.Errorf("the summary does not link the refresh pull request:\n%s", run.summary)
		}

		// Re-running the release moves the branch and updates the pull request.
		run = runAction(t, bin, f, spec)
		wantExit(t, run, 0)
		wantOutputs(t, run, map[string]string{"refresh-pr-url": prURL})
		wantWrites(t, f.takeCalls(), []string{"PATCH /git/refs/heads/" + refreshBranch, "PUT /contents/" + tutorBaseline, "PUT /contents/baselines/index.json",
			"PUT /contents/baselines/tutor-capstone.history.jsonl", "PUT /contents/baselines/.gitattributes", "PATCH /pulls/100"})
		if len(f.pulls) != 1 {
			t.Errorf("%d refresh pull requests; want the first one updated", len(f.pulls))
		}
	})

	t.Run("release: refresh file, no API call", func(t *testing.T) {
		t.Parallel()
		f := newFakeGitHub(t, fakeRepo{baseFiles: baseFiles(t)})
		run := runAction(t, bin, f, actionSpec{eventName: "release", event: "release.published", inputs: map[string]string{
			"mode": "baseline", "refresh": "file", "results": "examples/tutor-capstone/release/run*.jsonl", "baseline": "out/tutor-capstone.jsonl"}})
		wantExit(t, run, 0)
		wantOutputs(t, run, map[string]string{"score": "0.9750", "verdict": "baseline", "report-path": "out/tutor-capstone.jsonl"})
		wantCalls(t, f.takeCalls(), nil)
		if b := e2eRead(t, filepath.Join(run.workspace, "out", "tutor-capstone.jsonl")); !strings.Contains(b, `"ref":"refs/tags/`+e2eTag+`"`) {
			t.Errorf("the baseline written does not record the release:\n%s", b)
		}
		if !strings.Contains(run.summary, "Baseline for **tutor-capstone** from 3 run(s): mean 0.9750") {
			t.Errorf("summary:\n%s", run.summary)
		}
	})
}

// evalgateIn runs the binary with args in a fresh copy of the repository's files (with
// testdata/action/regression-only.jsonl in results/) and returns the file it wrote,
// the last argument.
func evalgateIn(t *testing.T, bin string, args ...string) string {
	t.Helper()
	ws := t.TempDir()
	copyRepoFiles(t, ws)
	e2eWrite(t, filepath.Join(ws, "results", "regression-only.jsonl"), e2eRead(t, filepath.Join("testdata", "action", "regression-only.jsonl")))
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Env = ws, []string{"PATH=" + os.Getenv("PATH"), "GITHUB_SHA=" + e2eHead}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("evalgate %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return e2eRead(t, filepath.Join(ws, args[len(args)-1]))
}

func wantExit(t *testing.T, run actionRun, code int) {
	t.Helper()
	if run.code != code {
		t.Errorf("exit code %d; want %d\nstdout:\n%s\nstderr:\n%s", run.code, code, run.stdout, run.stderr)
	}
}

// wantOutputs checks the outputs named in want; the others may be anything.
func wantOutputs(t *testing.T, run actionRun, want map[string]string) {
	t.Helper()
	for name, v := range want {
		got, ok := run.outputs[name]
		if !ok || got != v {
			t.Errorf("output %s = %q (set: %v); want %q", name, got, ok, v)
		}
	}
}

func wantCalls(t *testing.T, got, want []string) {
	t.Helper()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("requests to GitHub (-want +got):\n%s", diff)
	}
}

func wantWrites(t *testing.T, calls, want []string) {
	t.Helper()
	if diff := cmp.Diff(want, writes(calls)); diff != "" {
		t.Errorf("writes to GitHub (-want +got):\n%s\nall requests:\n%s", diff, strings.Join(calls, "\n"))
	}
}

// onlyComment returns the body of the pull request's one comment, which must carry the
// marker.
func onlyComment(t *testing.T, f *fakeGitHub) string {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.comments) != 1 {
		t.Fatalf("%d comments on the pull request; want 1", len(f.comments))
	}
	body := f.comments[0].GetBody()
	if !strings.HasPrefix(body, tutorMarker+"\n") {
		t.Errorf("the comment does not start with the marker %s:\n%s", tutorMarker, body)
	}
	return body
}

// wantSummary checks that the job summary is the comment without its marker.
func wantSummary(t *testing.T, run actionRun, comment string) {
	t.Helper()
	want := strings.TrimPrefix(comment, tutorMarker+"\n")
	// The comment's last line is its hidden run stamp, which orders racing runs.
	want = regexp.MustCompile(`\n<!-- evalgate:run=[0-9]+\.[0-9]+ -->$`).ReplaceAllString(want, "")
	if diff := cmp.Diff(strings.TrimSpace(want), strings.TrimSpace(run.summary)); diff != "" {
		t.Errorf("job summary differs from the comment (-comment +summary):\n%s", diff)
	}
}

// wantCheckRun checks check run n: created in progress on the pull request's head
// commit (never GITHUB_SHA, the merge commit) and completed with conclusion, its title
// starting with title.
func wantCheckRun(t *testing.T, f *fakeGitHub, n int, conclusion, title string) {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.checkRuns) != n {
		t.Fatalf("%d check runs; want %d", len(f.checkRuns), n)
	}
	run := f.checkRuns[n-1]
	if run.create.HeadSHA != e2eHead || run.create.Name != "evalgate" || run.create.GetStatus() != "in_progress" {
		t.Errorf("check run created as %q on %s, status %q; want \"evalgate\" on the head sha %s, in_progress", run.create.Name, run.create.HeadSHA, run.create.GetStatus(), e2eHead)
	}
	last := run.updates[len(run.updates)-1]
	if last.GetStatus() != "completed" || run.conclusion() != conclusion {
		t.Errorf("check run ended %q with conclusion %q; want completed, %q", last.GetStatus(), run.conclusion(), conclusion)
	}
	if got := last.GetOutput().GetTitle(); !strings.HasPrefix(got, title) {
		t.Errorf("check run title %q; want it to start with %q", got, title)
	}
}

// wantAnnotations checks that the check run's annotations are the ids, in order, each
// on the suite line of its item.
func wantAnnotations(t *testing.T, run actionRun, anns []*gh.CheckRunAnnotation, level string, ids ...string) {
	t.Helper()
	lines := strings.Split(e2eRead(t, filepath.Join(run.workspace, tutorSuite)), "\n")
	if len(anns) != len(ids) {
		t.Fatalf("%d annotations; want %d (%v)", len(anns), len(ids), ids)
	}
	for i, a := range anns {
		line := a.GetStartLine()
		if a.GetPath() != tutorSuite || line < 1 || line > len(lines) || !strings.Contains(lines[line-1], "id: "+ids[i]) {
			t.Errorf("annotation %d on %s:%d; want %s on the line of %s", i, a.GetPath(), line, tutorSuite, ids[i])
		}
		if a.GetAnnotationLevel() != level || !strings.Contains(a.GetTitle(), ids[i]) {
			t.Errorf("annotation %d: level %q, title %q; want %q naming %s", i, a.GetAnnotationLevel(), a.GetTitle(), level, ids[i])
		}
	}
}

// wantFallbackAnnotations checks the log annotations that stand in for the check run's:
// one ::error per newly failing item on its suite line.
func wantFallbackAnnotations(t *testing.T, run actionRun, ids ...string) {
	t.Helper()
	lines := strings.Split(e2eRead(t, filepath.Join(run.workspace, tutorSuite)), "\n")
	re := regexp.MustCompile(`(?m)^::error file=` + regexp.QuoteMeta(tutorSuite) + `,line=(\d+),.*title=newly failing%3A ([\w-]+)::`)
	var got []string
	for _, m := range re.FindAllStringSubmatch(run.stdout, -1) {
		n, _ := strconv.Atoi(m[1])
		if n < 1 || n > len(lines) || !strings.Contains(lines[n-1], "id: "+m[2]) {
			t.Errorf("log annotation for %s on line %d; the item is elsewhere", m[2], n)
		}
		got = append(got, m[2])
	}
	if diff := cmp.Diff(ids, got); diff != "" {
		t.Errorf("log annotations on items (-want +got):\n%s\nstdout:\n%s", diff, run.stdout)
	}
}

// e2eReport is the part of the JSON report the end-to-end test reads.
type e2eReport struct {
	Suite   string `json:"suite"`
	Verdict struct {
		Status     string `json:"status"`
		AcceptedBy string `json:"accepted_by"`
	} `json:"verdict"`
	Summary struct {
		Mean float64 `json:"mean"`
	} `json:"summary"`
	Metadata struct {
		CodeVersion  string   `json:"code_version"`
		ResultsFiles []string `json:"results_files"`
	} `json:"metadata"`
	Comparison *struct {
		BaselineFile string `json:"baseline_file"`
	} `json:"comparison"`
}

// wantReport checks the report file at the report-path output (relative to the
// workspace), and that the run left no temporary file behind.
func wantReport(t *testing.T, run actionRun, status, mean string) e2eReport {
	t.Helper()
	var r e2eReport
	p := run.outputs["report-path"]
	if p == "" || filepath.IsAbs(p) {
		t.Fatalf("report-path %q; want a path relative to the workspace", p)
	}
	if err := json.Unmarshal([]byte(e2eRead(t, filepath.Join(run.workspace, p))), &r); err != nil {
		t.Fatalf("report %s: %v", p, err)
	}
	if r.Suite != "tutor-capstone" || r.Verdict.Status != status || strconv.FormatFloat(r.Summary.Mean, 'f', -1, 64) != mean {
		t.Errorf("report: suite %q, verdict %q, mean %v; want tutor-capstone, %q, %s", r.Suite, r.Verdict.Status, r.Summary.Mean, status, mean)
	}
	if r.Metadata.CodeVersion != e2eMerge {
		t.Errorf("report: code_version %q; want GITHUB_SHA %s", r.Metadata.CodeVersion, e2eMerge)
	}
	for _, f := range append(r.Metadata.ResultsFiles, r.Comparison.BaselineFile) {
		if filepath.IsAbs(f) || strings.Contains(f, run.tmp) {
			t.Errorf("report: path %q; want it relative to the repository", f)
		}
	}
	left, _ := os.ReadDir(run.tmp)
	for _, e := range left {
		t.Errorf("temporary file left behind: %s", filepath.Join(run.tmp, e.Name()))
	}
	return r
}

// threeRuns is the action's results input for the pull request's three runs of
// testdata/action/regression-only.jsonl (writeThreeRuns): with three runs beside the
// baseline's three the runs' spread is known to 4 degrees of freedom, and a drop of
// 4.5 pts on 20 items blocks; one run of it is inconclusive (a run bad as a whole,
// within what three baseline runs allow, could explain it).
const threeRuns = "results/regression-only-*.jsonl"

// writeThreeRuns writes the three runs threeRuns names into the workspace ws.
func writeThreeRuns(t *testing.T, ws string) {
	t.Helper()
	b := e2eRead(t, filepath.Join("testdata", "action", "regression-only.jsonl"))
	for r := 1; r <= 3; r++ {
		e2eWrite(t, filepath.Join(ws, "results", fmt.Sprintf("regression-only-%d.jsonl", r)), b)
	}
}
