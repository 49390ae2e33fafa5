package ghaction

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"

	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/github"
	"github.com/evalgate/evalgate/internal/safeio"
	"github.com/sethvargo/go-githubactions"
)

// Exit codes of the step: the names of gate's one table.
const (
	ExitPass        = gate.ExitPass        // passed, or failed only in ways fail-on ignores
	ExitGateFailed  = gate.ExitFail        // a gate failed that fail-on counts, or a refresh could not be published
	ExitBadInput    = gate.ExitBadInput    // bad inputs, event, config or results: nothing was judged
	ExitCouldNotRun = gate.ExitCouldNotRun // GitHub or the disk failed before a verdict: nothing was judged
)

// Env is the process environment Run works in; the zero value is the real one.
type Env struct {
	// Getenv reads the environment (inputs, GITHUB_*); nil means os.Getenv.
	Getenv func(string) string
	// Stdout receives workflow commands (::error, ::add-mask, ...); nil means os.Stdout.
	Stdout io.Writer
	// HTTPClient sends GitHub API requests; nil means a default client.
	HTTPClient *http.Client
}

// Run is the container's entry point: `evalgate action`. It reads the inputs and the
// event, calls check (mode: check) or baseline (mode: baseline), publishes the result on
// GitHub, writes outputs, job summary and annotations, and returns the step's exit code.
//
// The CLI wires it like this (internal/cli, command "action"; the image's entry point
// is `evalgate action` with no arguments, everything comes from INPUT_* and GITHUB_*):
//
//	func (c *CLI) action(args []string) int {
//		return ghaction.Run(context.Background(), ghaction.Env{Getenv: c.Getenv, Stdout: c.Stdout},
//			func(ctx context.Context, in ghaction.CheckInput) (*ghaction.Outcome, error) {
//				// Load in.ConfigPath, taking the grading system from in.BaseConfigPath when
//				// set; results from in.Results (none: the config's), or the scored reports
//				// in.Reports joined as evalgate merge does; the baseline from
//				// in.BaselinePath, or, when that is "" and in.ReadBase is set, the config's
//				// baseline path read with in.ReadBase (github.ErrNotFound: no baseline yet).
//				// Score, compare, gate; write the full report under in.ReportDir; render
//				// the comment markdown and the check title/summary; newly failing items as
//				// Annotations on their suite lines. VerdictAccepted when only the
//				// regression gate failed and in.Acceptance.By() != "". Bad input: return an error.
//			},
//			func(ctx context.Context, in ghaction.BaselineInput) (*ghaction.BaselineOutcome, error) {
//				// evalgate baseline over in.Results, written to in.OutPath ("" means the
//				// config's path); return the file's path, mean and a markdown summary.
//			})
//	}
//
// An error from a callback means nothing was judged: Run reports it (and concludes the
// check run as failed) and returns its exit code (gate.ErrorExitCode: ExitBadInput, or
// ExitCouldNotRun for a network or I/O failure). The check run's conclusion always follows the
// verdict; the fail-on input only decides the exit code.
func Run(ctx context.Context, env Env, check CheckFunc, baseline BaselineFunc) int {
	getenv := env.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	stdout := env.Stdout
	if stdout == nil {
		stdout = os.Stdout
	}
	a := githubactions.New(githubactions.WithGetenv(getenv), githubactions.WithWriter(stdout))
	cmd := newCommandsFor(a)

	in, err := readInputs(a)
	for _, tok := range []string{in.Token, in.RefreshToken} {
		if tok != "" {
			a.AddMask(tok)
		}
	}
	if err != nil {
		return cmd.stop(err, nil)
	}
	gctx, err := a.Context()
	if err != nil {
		return cmd.stop(&eventError{fmt.Errorf("reading the workflow context: %w", err)}, nil)
	}
	ev, err := readEvent(gctx)
	if err != nil {
		return cmd.stop(&eventError{err}, nil)
	}
	root := gctx.Workspace
	if root == "" {
		root = "."
	}
	ws, err := newWorkspace(root, in.WorkingDirectory)
	if err != nil {
		return cmd.stop(err, nil)
	}
	owner, repo := gctx.Repo()
	r := &runner{
		in: in, ev: ev, ws: ws, cmd: cmd, a: a, failures: cmd.failures, budget: newTimeBudget(in.PublishBudget),
		owner: owner, repo: repo, sha: gctx.SHA, apiURL: gctx.APIURL, serverURL: gctx.ServerURL, httpClient: env.HTTPClient,
		runID: gctx.RunID, runAttempt: int(gctx.RunAttempt),
	}
	defer func() {
		if r.tmp != "" {
			os.RemoveAll(r.tmp)
		}
	}()
	switch {
	case in.Mode == ModeBaseline && baseline != nil:
		return r.baseline(ctx, baseline)
	case in.Mode == ModeCheck && check != nil:
		return r.check(ctx, check)
	}
	return cmd.stop(&InputError{Input: "mode", Value: string(in.Mode), Msg: "is not available in this build"}, nil)
}

// runner holds one Run's state.
type runner struct {
	in          Inputs
	ev          Event
	ws          workspace
	cmd         *commands
	a           *githubactions.Action
	owner, repo string
	sha         string // GITHUB_SHA
	apiURL      string
	serverURL   string // GITHUB_SERVER_URL: https://github.com, or a GitHub Enterprise host
	httpClient  *http.Client
	// runID and runAttempt (GITHUB_RUN_ID, GITHUB_RUN_ATTEMPT) order racing runs'
	// comments and name this attempt's check run; 0 outside Actions.
	runID      int64
	runAttempt int
	budget     *timeBudget     // the publish-budget input, for every GitHub API call
	failures   channelFailures // the channels that could not be published, and why
	tmp        string          // temporary directory, made on first use, removed at the end
}

// client returns a GitHub client for token, or nil when there is no token.
func (r *runner) client(token string) (*github.Client, error) {
	if token == "" {
		return nil, nil
	}
	return github.New(github.Options{Token: token, BaseURL: r.apiURL, HTTPClient: r.httpClient, RequestTimeout: r.in.RequestTimeout})
}

// readEvent parses the payload at GITHUB_EVENT_PATH, if any.
func readEvent(gctx *githubactions.GitHubContext) (Event, error) {
	if gctx.EventPath == "" {
		return Event{Name: gctx.EventName}, nil
	}
	b, err := safeio.ReadFile(gctx.EventPath, "event payload", maxEventBytes)
	if err != nil {
		return Event{}, fmt.Errorf("reading the event payload: %w", err)
	}
	return ParseEvent(gctx.EventName, b)
}

// reportErrors writes each of the joined errors in err as an ::error line.
func reportErrors(a *githubactions.Action, err error) {
	var joined interface{ Unwrap() []error }
	if errors.As(err, &joined) {
		for _, e := range joined.Unwrap() {
			a.Errorf("evalgate: %v", e)
		}
		return
	}
	a.Errorf("evalgate: %v", err)
}

// maxEventBytes bounds the event payload GitHub writes at GITHUB_EVENT_PATH (a webhook
// payload is at most 25 MB).
const maxEventBytes = 4 * safeio.MaxSmallFileBytes
