package ghaction

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/evalgate/evalgate/internal/github"
	"github.com/sethvargo/go-githubactions"
)

// GitHub's limits on what one step reports.
// https://docs.github.com/actions/using-workflows/workflow-commands-for-github-actions
const (
	// maxStepSummary: a step's job summary may hold up to 1 MiB.
	maxStepSummary = 1 << 20
	// maxErrorAnnotations, maxWarningAnnotations and maxNoticeAnnotations: GitHub
	// shows at most 10 annotations of each level per step and drops the rest.
	maxErrorAnnotations   = 10
	maxWarningAnnotations = 10
	maxNoticeAnnotations  = 10
)

// summaryTruncationNote ends a job summary cut to fit maxStepSummary.
const summaryTruncationNote = "\n\n---\n:warning: **Truncated** to fit the 1 MiB job summary limit. " +
	"The full report is the `report-path` output: keep it with `actions/upload-artifact` " +
	"(see [docs/action.md](https://github.com/evalgate/evalgate/blob/main/docs/action.md#size-limits)).\n"

// commands writes workflow commands and files through go-githubactions, which panics
// when a file command cannot be written (GITHUB_OUTPUT unwritable, for instance); such
// a failure is turned into an error annotation and recorded in failures (the summary
// or outputs channel), not a crash.
type commands struct {
	a        *githubactions.Action
	failures channelFailures
}

func newCommandsFor(a *githubactions.Action) *commands {
	return &commands{a: a, failures: channelFailures{}}
}

func (c *commands) file(ch Channel, what string, f func()) {
	defer func() {
		if r := recover(); r != nil {
			if c.failures == nil {
				c.failures = channelFailures{}
			}
			c.failures[ch] = fmt.Sprint(r)
			c.a.Errorf("evalgate: cannot write the %s: %v", what, r)
		}
	}()
	f()
}

// setOutput writes one output to GITHUB_OUTPUT as a "name<<DELIM" block. The
// delimiter is random and not in value, as actions/toolkit makes it:
// go-githubactions' SetOutput uses a fixed, public one, so a value holding it (a grade
// name a first adoption's config chose, say) could end the block and set other outputs.
func (c *commands) setOutput(name, value string) {
	c.file(ChannelOutputs, "output "+strconv.Quote(name), func() {
		delim := outputDelimiter()
		for strings.Contains(value, delim) {
			delim = outputDelimiter()
		}
		c.a.IssueFileCommand(&githubactions.Command{Name: "output", Message: name + "<<" + delim + "\n" + value + "\n" + delim})
	})
}

// outputDelimiter is a fresh delimiter for a GITHUB_OUTPUT block.
func outputDelimiter() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return "ghadelimiter_" + hex.EncodeToString(b)
}

// addSummary appends markdown to the job summary, cut below GitHub's limit.
func (c *commands) addSummary(markdown string) {
	if c.a.Getenv("GITHUB_STEP_SUMMARY") == "" {
		return
	}
	// One byte for the line end go-githubactions appends.
	md := github.Truncate(markdown, maxStepSummary-1, summaryTruncationNote)
	c.file(ChannelSummary, "job summary", func() { c.a.AddStepSummary(md) })
}

// annotate writes anns as ::error/::warning/::notice commands on their file lines, at
// most GitHub's limit per level; when a level overflows, its last slot says how many
// more there are.
func (c *commands) annotate(anns []github.Annotation) {
	limits := map[github.Level]int{
		github.LevelFailure: maxErrorAnnotations,
		github.LevelWarning: maxWarningAnnotations,
		github.LevelNotice:  maxNoticeAnnotations,
	}
	total := map[github.Level]int{}
	for _, a := range anns {
		total[level(a)]++
	}
	shown := map[github.Level]int{}
	for _, a := range anns {
		l := level(a)
		switch n := shown[l]; {
		case n == limits[l]:
			continue
		case n == limits[l]-1 && total[l] > limits[l]:
			c.emit(l, nil, fmt.Sprintf("%d more %s annotations: see the job summary and the check run", total[l]-n, l))
		default:
			fields := map[string]string{}
			if a.Path != "" {
				fields["file"], fields["line"] = a.Path, strconv.Itoa(max(a.StartLine, 1))
				if a.EndLine > a.StartLine {
					fields["endLine"] = strconv.Itoa(a.EndLine)
				}
			}
			if a.Title != "" {
				fields["title"] = a.Title
			}
			c.emit(l, fields, a.Message)
		}
		shown[l]++
	}
}

func (c *commands) emit(l github.Level, fields map[string]string, msg string) {
	a := c.a
	if len(fields) > 0 {
		a = a.WithFieldsMap(fields)
	}
	switch l {
	case github.LevelFailure:
		a.Errorf("%s", msg)
	case github.LevelNotice:
		a.Noticef("%s", msg)
	default:
		a.Warningf("%s", msg)
	}
}

func level(a github.Annotation) github.Level {
	if a.Level == "" {
		return github.LevelWarning
	}
	return a.Level
}
