package ghaction

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/evalgate/evalgate/internal/github"
	"github.com/evalgate/evalgate/internal/report"
	"github.com/evalgate/evalgate/internal/safeio"
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
		return r.cmd.stop(err, r.budget)
	}
	reports, err := r.ws.expand("report", r.in.Report)
	if err != nil {
		return r.cmd.stop(err, r.budget)
	}
	bin := BaselineInput{ConfigPath: r.ws.local(r.in.Config), Results: results, Reports: reports, Tag: r.ev.ReleaseTag, SHA: r.sha}
	if r.in.Baseline != "" {
		bin.OutPath = r.ws.local(r.in.Baseline)
	}
	out, err := baseline(ctx, bin)
	if err == nil && (out == nil || out.Path == "") {
		err = errors.New("the baseline command returned no file")
	}
	if err != nil {
		return r.cmd.stop(err, r.budget)
	}

	r.cmd.setOutput("score", strconv.FormatFloat(out.Score, 'f', 4, 64))
	r.cmd.setOutput("verdict", "baseline")
	r.cmd.setOutput("report-path", r.outputPath(out.Path))
	code := ExitPass
	summary := out.Summary
	if r.in.Refresh == RefreshPR {
		bctx, done := r.budget.context(ctx, stretchFinal)
		url, note, err := r.proposeBaseline(bctx, out)
		done()
		if err != nil {
			err = r.budget.explain(err)
			r.a.Errorf("evalgate: proposing the new baseline: %v", err)
			r.failures[ChannelRefreshPR] = report.EscapeTrunc(oneLine(err.Error()), maxErrorShown)
			code = ExitGateFailed
			if note == "" {
				note = "The new baseline could not be proposed in a pull request: " + r.failures[ChannelRefreshPR]
			}
		}
		r.cmd.setOutput("refresh-pr-url", url)
		kind := "NOTE"
		if err != nil {
			kind = "CAUTION"
		}
		summary = fmt.Sprintf("> [!%s]\n> %s\n\n%s", kind, note, summary)
	}
	r.cmd.addSummary(summary)
	r.cmd.setOutput("failed-channels", r.failures.list())
	return code
}

// proposeBaseline opens or updates the pull request that proposes out's baseline on the
// default branch, with refresh-token when given. It returns the pull request's URL and
// a line for the summary; when it fails after pushing the branch, the line says how to
// finish by hand.
func (r *runner) proposeBaseline(ctx context.Context, out *BaselineOutcome) (string, string, error) {
	var files []github.File
	for _, p := range append([]string{out.Path}, out.Extra...) {
		content, err := safeio.ReadFile(r.ws.local(p), "baseline", safeio.MaxFileBytes)
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
	case errors.Is(err, github.ErrPRNotPermitted):
		compare := r.compareURL(base, res.Branch)
		r.a.Errorf("evalgate: GitHub does not let GitHub Actions open pull requests in %s/%s. The branch %s is pushed: open the pull request at %s . "+
			"To let the action open it next time, turn on %s, or give the action a refresh-token.", r.owner, r.repo, res.Branch, compare, prSettingPlain)
		return "", fmt.Sprintf("GitHub does not let GitHub Actions open pull requests here, so the new baseline is pushed on the branch `%s` "+
			"but no pull request was opened: **[open it by hand](%s)**.\n>\n> To let the action open it next time, turn on %s, "+
			"or give the action a `refresh-token` (see [docs/action.md](https://github.com/evalgate/evalgate/blob/main/docs/action.md#release-baseline-refresh)).",
			codeSpan(res.Branch), compare, prSetting), err
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

// The repository setting that lets a workflow's GITHUB_TOKEN open pull requests.
const (
	prSetting = "**Settings → Actions → General → Workflow permissions → Allow GitHub Actions to create and approve pull requests** " +
		"(in the repository; if it is greyed out, first in the organization's settings)"
	prSettingPlain = `Settings > Actions > General > Workflow permissions > "Allow GitHub Actions to create and approve pull requests" ` +
		`(in the repository; if it is greyed out, first in the organization's settings)`
)

// compareURL is the page that opens a pull request from branch into base.
func (r *runner) compareURL(base, branch string) string {
	server := strings.TrimSuffix(r.serverURL, "/")
	if server == "" {
		server = "https://github.com"
	}
	esc := func(ref string) string {
		parts := strings.Split(ref, "/")
		for i, p := range parts {
			parts[i] = url.PathEscape(p)
		}
		return strings.Join(parts, "/")
	}
	return fmt.Sprintf("%s/%s/%s/compare/%s...%s?expand=1", server, url.PathEscape(r.owner), url.PathEscape(r.repo), esc(base), esc(branch))
}

// badRefChars matches what a branch name should not hold.
var badRefChars = regexp.MustCompile(`[^A-Za-z0-9._/-]+`)

// refreshBranch names the branch that proposes the baseline at repoPath.
func refreshBranch(repoPath string) string {
	name := strings.TrimSuffix(repoPath, path.Ext(repoPath))
	name = strings.ReplaceAll(badRefChars.ReplaceAllString(name, "-"), "..", ".")
	return refreshBranchPrefix + strings.Trim(name, "./-")
}
