package ghaction

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/evalgate/evalgate/internal/github"
)

// refreshBranchPrefix starts the branch a baseline refresh is proposed from; the
// baseline's path (without extension) follows, so each baseline has its own branch
// and pull request.
const refreshBranchPrefix = "evalgate/refresh/"

// tokenNote ends a refresh pull request's body.
const tokenNote = "\n\n---\nOpened by evalgate's release workflow. Pull requests opened with the workflow's " +
	"`GITHUB_TOKEN` do not trigger workflows: give the action a `refresh-token` for CI to run on this one.\n"

// baseline runs mode baseline: build the baseline from the runs, then write it for a
// later step or propose it in a pull request.
func (r *runner) baseline(ctx context.Context, baseline BaselineFunc) int {
	results, err := r.ws.expandResults(r.in.Results)
	if err != nil {
		reportErrors(r.a, err)
		return ExitBadInput
	}
	bin := BaselineInput{ConfigPath: r.ws.local(r.in.Config), Results: results, Tag: r.ev.ReleaseTag, SHA: r.sha}
	if r.in.Baseline != "" {
		bin.OutPath = r.ws.local(r.in.Baseline)
	}
	out, err := baseline(ctx, bin)
	if err == nil && (out == nil || out.Path == "") {
		err = errors.New("the baseline command returned no file")
	}
	if err != nil {
		reportErrors(r.a, err)
		return ExitBadInput
	}

	r.cmd.setOutput("score", strconv.FormatFloat(out.Score, 'f', 4, 64))
	r.cmd.setOutput("verdict", "baseline")
	r.cmd.setOutput("report-path", r.outputPath(out.Path))
	code := ExitPass
	summary := out.Summary
	if r.in.Refresh == RefreshPR {
		url, note, err := r.proposeBaseline(ctx, out)
		if err != nil {
			r.a.Errorf("evalgate: proposing the new baseline: %v", err)
			code = ExitGateFailed
			note = "The new baseline could not be proposed in a pull request: see the workflow log."
		}
		r.cmd.setOutput("refresh-pr-url", url)
		summary = fmt.Sprintf("> [!NOTE]\n> %s\n\n%s", note, summary)
	}
	r.cmd.addSummary(summary)
	return code
}

// proposeBaseline opens or updates the pull request that proposes out's baseline on the
// default branch, with refresh-token when given. It returns the pull request's URL and
// a line for the summary.
func (r *runner) proposeBaseline(ctx context.Context, out *BaselineOutcome) (string, string, error) {
	var files []github.File
	for _, p := range append([]string{out.Path}, out.Extra...) {
		content, err := os.ReadFile(r.ws.local(p))
		if err != nil {
			return "", "", err
		}
		rp, err := r.ws.repoPath(p)
		if err != nil {
			return "", "", err
		}
		files = append(files, github.File{Path: rp, Content: content})
	}
	repoPath := files[0].Path
	token := r.in.RefreshToken
	if token == "" {
		token = r.in.Token
	}
	gh, err := r.client(token)
	if err != nil {
		return "", "", err
	}
	if gh == nil {
		return "", "", errors.New("no github-token or refresh-token to open the pull request with")
	}
	base := r.ev.DefaultBranch
	if base == "" {
		return "", "", errors.New("the event payload names no default branch (repository.default_branch)")
	}
	what := "the current commit"
	if r.ev.ReleaseTag != "" {
		what = "release " + r.ev.ReleaseTag
	} else if r.sha != "" {
		what = "commit " + short(r.sha)
	}
	title := fmt.Sprintf("evalgate: refresh baseline %s from %s", repoPath, what)
	res, err := gh.OpenRefreshPR(ctx, r.owner, r.repo, base, refreshBranch(repoPath), files, title, out.Summary+tokenNote)
	switch {
	case errors.Is(err, github.ErrReadOnly):
		return "", "", fmt.Errorf("%w (the token needs contents: write and pull-requests: write)", err)
	case err != nil:
		return "", "", err
	case res.Unchanged:
		return "", fmt.Sprintf("`%s` on `%s` already holds this baseline: no pull request needed.", repoPath, base), nil
	case res.Created:
		return res.URL, fmt.Sprintf("Opened %s to refresh `%s`.", res.URL, repoPath), nil
	}
	return res.URL, fmt.Sprintf("Updated %s to refresh `%s`.", res.URL, repoPath), nil
}

// badRefChars matches what a branch name should not hold.
var badRefChars = regexp.MustCompile(`[^A-Za-z0-9._/-]+`)

// refreshBranch names the branch that proposes the baseline at repoPath.
func refreshBranch(repoPath string) string {
	name := strings.TrimSuffix(repoPath, path.Ext(repoPath))
	name = strings.ReplaceAll(badRefChars.ReplaceAllString(name, "-"), "..", ".")
	return refreshBranchPrefix + strings.Trim(name, "./-")
}
