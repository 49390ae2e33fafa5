package ghaction

import (
	"fmt"
	"strings"

	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/github"
	"github.com/evalgate/evalgate/internal/report"
)

// maxAnnotatedItems bounds the annotations on newly failing items (the check run batches
// them 50 per request).
const maxAnnotatedItems = 200

// maxFindingAnnotations bounds the notices the diagnosis adds on suite lines.
const maxFindingAnnotations = 50

// Rendered is where the check callback wrote the report, and the comment it rendered.
type Rendered struct {
	ReportPath, HTMLPath string
	// Markdown is the pull request's comment and the job summary (report.Markdown).
	Markdown string
}

// NewOutcome is what the action publishes for the report r: the step's outputs, the
// check run's title and body, the comment (rendered), and anns (Annotations, taken
// while r's suite path was still the workspace's). What the verdict means is asked of
// gate, whether the result changed of the comparison.
func NewOutcome(r *report.Report, rendered Rendered, anns []github.Annotation) *Outcome {
	out := &Outcome{
		Suite: r.Suite, Verdict: r.Verdict.Status, Blocks: r.Verdict.Blocks, Score: r.Summary.Mean,
		ReportPath: rendered.ReportPath, HTMLPath: rendered.HTMLPath,
		CommentMarkdown: rendered.Markdown, CheckSummary: rendered.Markdown,
		CheckTitle:  r.Title(),
		FailedSoft:  gate.SoftFailed(r.Gates),
		Changed:     r.Comparison.Differs() || r.Proposed != nil,
		Annotations: anns,
	}
	if g := r.Grade; g != nil {
		out.Grade = g.Grade
	}
	if cmp := r.Comparison; cmp != nil {
		out.HasBaseline, out.BaselineScore, out.Delta = true, cmp.Base, cmp.Delta
	}
	return out
}

// Annotations point at the suite lines of newly failing items (failing items when there
// is no baseline), at the level gate gives the verdict's items, and at the items the
// diagnosis names, as notices.
func Annotations(r *report.Report) []github.Annotation {
	level := github.Level(r.Verdict.ItemLevel())
	title, items := r.Failing()
	var out []github.Annotation
	for i, it := range items {
		if i == maxAnnotatedItems {
			break
		}
		line := max(it.Line, 1) // an imported record in a JSON document has no line: the file's top
		out = append(out, github.Annotation{Path: r.SuiteFile, StartLine: line, EndLine: line, Level: level,
			Title:   fmt.Sprintf("%s: %s", strings.ToLower(strings.TrimSuffix(title, " items")), report.Visible(report.Truncate(it.ID, 80))),
			Message: fmt.Sprintf("score %.3f: %s", it.Score, report.Visible(report.Truncate(it.Reason(), 200)))})
	}
	for _, f := range r.Findings {
		for _, it := range f.Items {
			if it.Line > 0 && len(out) < maxAnnotatedItems+maxFindingAnnotations {
				out = append(out, github.Annotation{Path: r.SuiteFile, StartLine: it.Line, EndLine: it.Line, Level: github.LevelNotice,
					Title: "diagnosis: " + f.Rule + ": " + report.Visible(report.Truncate(it.ID, 80)), Message: report.Visible(report.Truncate(strings.ReplaceAll(f.Message, "`", ""), 500))})
			}
		}
	}
	return out
}
