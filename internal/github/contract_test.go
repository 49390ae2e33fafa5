package github

import (
	"bufio"
	"context"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	gh "github.com/google/go-github/v60/github"
)

// The contract test sends every request this package makes to GitHub's own OpenAPI
// description, served by Stoplight Prism (scripts/contract.sh start), and requires a 2xx
// answer for each; a deliberately invalid request must get 422, so the test can fail.
//
//	scripts/contract.sh start 4010
//	EVALGATE_CONTRACT_URL=http://127.0.0.1:4010 go test ./internal/github -run Contract
//	scripts/contract.sh stop 4010
//
// Prism answers with the spec's fixed example objects and stores nothing, so the calls
// whose flow depends on state (update or delete a comment found by its marker, create a
// branch or a pull request) are also made one by one.

// contractEnv names the Prism base URL; under CI=true the test must not skip.
const contractEnv = "EVALGATE_CONTRACT_URL"

// operation is one "METHOD /path/{param}" line of testdata/contract/github-paths.txt.
type operation struct {
	line string
	re   *regexp.Regexp
}

func contractOperations(t *testing.T) []operation {
	t.Helper()
	f, err := os.Open("../../testdata/contract/github-paths.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	param := regexp.MustCompile(`\\\{[a-z_]+\\\}`)
	var ops []operation
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(strings.SplitN(sc.Text(), "#", 2)[0])
		if line == "" {
			continue
		}
		method, path, _ := strings.Cut(line, " ")
		path = strings.TrimSpace(path)
		// {path} and {ref} hold slashes; the other parameters one segment.
		pat := param.ReplaceAllStringFunc(regexp.QuoteMeta(path), func(p string) string {
			if p == `\{path\}` || p == `\{ref\}` {
				return `.+`
			}
			return `[^/]+`
		})
		ops = append(ops, operation{line: method + " " + path, re: regexp.MustCompile("^" + method + " " + pat + "$")})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return ops
}

// exchange is one request sent to Prism and the status it got.
type exchange struct {
	call   string // METHOD /path
	status int
	want   int    // the status a Prefer header asked for; 0 means any 2xx
	reason string // Prism's sl-violations header, if any
}

// contractTransport records exchanges and rewrites Accept types Prism cannot serve:
// go-github v60 sends application/vnd.github.squirrel-girl-preview (no "+json") when
// reading comments, and Prism knows JSON media types only.
type contractTransport struct {
	mu     sync.Mutex
	log    []exchange
	prefer map[string]int // "METHOD /path" -> the status to ask Prism for
}

func (c *contractTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if !strings.Contains(r.Header.Get("Accept"), "json") {
		r.Header.Set("Accept", "application/vnd.github.v3+json")
	}
	call := r.Method + " " + r.URL.Path
	c.mu.Lock()
	want := c.prefer[call]
	c.mu.Unlock()
	if want != 0 {
		r.Header.Set("Prefer", "code="+strconv.Itoa(want))
	}
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.log = append(c.log, exchange{call: call, status: resp.StatusCode, want: want, reason: resp.Header.Get("sl-violations")})
	c.mu.Unlock()
	return resp, nil
}

// take returns the exchanges so far and forgets them, and sets the Prefer map for the
// next ones.
func (c *contractTransport) take(prefer map[string]int) []exchange {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.log
	c.log, c.prefer = nil, prefer
	return out
}

func TestContract(t *testing.T) {
	base := os.Getenv(contractEnv)
	if base == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set; CI must run the contract test (scripts/contract.sh start)", contractEnv)
		}
		t.Skipf("%s is not set; run scripts/contract.sh start and set it to run the contract test", contractEnv)
	}
	ops := contractOperations(t)
	tr := &contractTransport{}
	c, err := New(Options{Token: "contract", BaseURL: base, HTTPClient: &http.Client{Transport: tr}, RetryBudget: -1})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	pub := Publication{
		Owner: "o", Repo: "r", PRNumber: 1, HeadSHA: "ec26c3e57ca3a959ca5aad62de7213c562f8c821",
		Marker: "<!-- evalgate:suite=tutor -->", CommentBody: "## evalgate\n✅ pass", CommentMode: CommentAlways,
		CheckName: "evalgate: tutor", CheckExternalID: "evalgate/1/1/tutor", RunID: 1, RunAttempt: 1, Conclusion: ConclusionFailure, CheckTitle: "score dropped",
		CheckSummary: "summary", CheckText: "text", Annotations: annotations(120),
	}
	for _, l := range []Level{LevelNotice, LevelWarning} {
		pub.Annotations = append(pub.Annotations, Annotation{Path: "suite.yaml", StartLine: 1, Level: l, Message: string(l)})
	}
	refresh := func() error {
		_, err := c.OpenRefreshPR(ctx, "o", "r", "main", "evalgate/refresh-baseline", []File{{Path: "baselines/tutor.json", Content: []byte(`{"mean":0.9}`)}}, "refresh", "body")
		return err
	}
	steps := []struct {
		name string
		run  func() error
		// decodeOK tolerates an error that is not an API error: Prism's example for
		// contents holds base64 with literal "\n" pairs, which no client can decode.
		decodeOK bool
		prefer   map[string]int
	}{
		{name: "Publish", run: func() error { _, err := c.Publish(ctx, pub); return err }},
		{name: "FindCheckRun", run: func() error {
			_, _, err := c.FindCheckRun(ctx, "o", "r", pub.CheckName, pub.HeadSHA, pub.CheckExternalID)
			return err
		}},
		{name: "update comment", run: func() error {
			_, _, err := c.gh.Issues.EditComment(ctx, "o", "r", 1, &gh.IssueComment{Body: &pub.CommentBody})
			return err
		}},
		{name: "delete duplicate comment", run: func() error { _, err := c.gh.Issues.DeleteComment(ctx, "o", "r", 1); return err }},
		{name: "PullRequest", run: func() error { _, err := c.PullRequest(ctx, "o", "r", 1); return err }},
		{name: "ChangedFiles", run: func() error { _, err := c.ChangedFiles(ctx, "o", "r", 1); return err }},
		{name: "Acceptance", run: func() error { _, err := c.Acceptance(ctx, "o", "r", 1, pub.HeadSHA, "bug", nil); return err }},
		{name: "head commit's check suites", run: func() error { _, err := c.pushedAt(ctx, "o", "r", pub.HeadSHA); return err }},
		{name: "collaborator permission", run: func() error { _, err := c.canWrite(ctx, "o", "r", "octocat"); return err }},
		{name: "FileAtRef", decodeOK: true, run: func() error {
			_, err := c.FileAtRef(ctx, "o", "r", "baselines/tutor.json", pub.HeadSHA)
			return err
		}},
		{name: "ListFiles", decodeOK: true, run: func() error {
			_, err := c.ListFiles(ctx, "o", "r", ".evalgate/judge-cache", pub.HeadSHA)
			return err
		}},
		{name: "FindPullRequest", run: func() error {
			_, _, err := c.FindPullRequest(ctx, "o", "r", "forker/r", "fix-typo", pub.HeadSHA)
			return err
		}},
		{name: "OpenPullRequestsAt", run: func() error {
			_, err := c.OpenPullRequestsAt(ctx, "o", "r", pub.HeadSHA)
			return err
		}},
		{name: "OpenRefreshPR, branch exists", run: refresh},
		{name: "OpenRefreshPR, new branch", run: refresh, prefer: map[string]int{
			"GET /repos/o/r/git/ref/heads/evalgate/refresh-baseline": http.StatusNotFound,
		}},
		{name: "open refresh pull request", run: func() error {
			_, _, err := c.gh.PullRequests.Create(ctx, "o", "r", &gh.NewPullRequest{
				Title: gh.String("refresh"), Head: gh.String("evalgate/refresh-baseline"), Base: gh.String("main"), Body: gh.String("b"),
			})
			return err
		}},
	}
	hit := map[string]bool{}
	for _, s := range steps {
		tr.take(s.prefer)
		err := s.run()
		if err != nil && !(s.decodeOK && status(err) == 0) {
			t.Errorf("%s: %v", s.name, err)
		}
		for _, x := range tr.take(nil) {
			op := ""
			for _, o := range ops {
				if o.re.MatchString(x.call) {
					op = o.line
					break
				}
			}
			if op == "" {
				t.Errorf("%s: %s is not in testdata/contract/github-paths.txt", s.name, x.call)
			}
			hit[op] = true
			if ok := x.status >= 200 && x.status <= 299; x.want != 0 && x.status != x.want || x.want == 0 && !ok {
				t.Errorf("%s: %s answered %d %s", s.name, x.call, x.status, x.reason)
			}
		}
	}
	for _, o := range ops {
		if !hit[o.line] {
			t.Errorf("operation %s was not exercised", o.line)
		}
	}

	// A request that breaks the schema must be refused, or this test proves nothing.
	invalid := []struct {
		name string
		opts gh.UpdateCheckRunOptions
	}{
		{"conclusion bogus", gh.UpdateCheckRunOptions{Name: "evalgate", Status: gh.String("completed"), Conclusion: gh.String("bogus")}},
		{"annotation level bogus", gh.UpdateCheckRunOptions{Name: "evalgate", Output: &gh.CheckRunOutput{
			Title: gh.String("t"), Summary: gh.String("s"),
			Annotations: []*gh.CheckRunAnnotation{{Path: gh.String("a"), StartLine: gh.Int(1), EndLine: gh.Int(1), AnnotationLevel: gh.String("bogus"), Message: gh.String("m")}},
		}}},
	}
	for _, tt := range invalid {
		_, _, err := c.gh.Checks.UpdateCheckRun(ctx, "o", "r", 4, tt.opts)
		if got := status(err); got != http.StatusUnprocessableEntity {
			t.Errorf("%s: status %d (err %v), want 422", tt.name, got, err)
		}
		tr.take(nil)
	}
}
