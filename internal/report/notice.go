package report

import (
	"encoding/json"
	"slices"
)

// NoticeSlot places a notice among the one-line notices under the headline. Every
// format (comment, terminal, HTML, job summary) prints them in this order, each only
// when it applies, so a reader sees the most important one first:
//
//  1. NoticeAccepted: a maintainer accepted the regression
//  2. NoticeProposedGate: the pull request changes its own gate
//  3. NoticeJudgeChanged: a judge differs from the baseline's
//  4. NoticeScoringUnbumped: the scoring changed without a version bump (said in the
//     changed-judge warning instead when the judge's change is what moved it)
//  5. NoticeNoBaseline: the regression gate did not run
//  6. NoticeCost: what the run cost, and its budget
//  7. NoticeNote: everything else (re-scoring, suite changes, estimates, deprecations)
//
// A stage that has something to say adds it with one call: r.AddNotice(slot, text).
type NoticeSlot int

// Notice slots, in render order.
const (
	NoticeAccepted NoticeSlot = iota + 1
	NoticeProposedGate
	NoticeJudgeChanged
	NoticeScoringUnbumped
	NoticeNoBaseline
	NoticeCost
	NoticeNote
)

// Notice is one line a reader must see before the tables.
type Notice struct {
	Slot NoticeSlot
	// Text is trusted text (evalgate's own words): `backticked` parts render as code,
	// the rest is escaped. Untrusted parts (item ids, outputs) must be quoted by the caller.
	Text string
	// Warn marks a notice that needs action (drawn as a warning, not a note).
	Warn bool
}

// MarshalJSON writes a notice as its text: the report's "notices" are strings.
func (n Notice) MarshalJSON() ([]byte, error) { return json.Marshal(n.Text) }

// UnmarshalJSON reads a notice written by MarshalJSON; its slot is NoticeNote, and the
// order it was written in is kept.
func (n *Notice) UnmarshalJSON(b []byte) error {
	n.Slot = NoticeNote
	return json.Unmarshal(b, &n.Text)
}

// AddNotice adds a notice in its slot; a notice with the same slot and text is kept
// once. Empty text adds nothing.
func (r *Report) AddNotice(slot NoticeSlot, text string) {
	r.addNotice(Notice{Slot: slot, Text: text})
}

// AddWarning adds a notice that needs action (drawn as a warning).
func (r *Report) AddWarning(slot NoticeSlot, text string) {
	r.addNotice(Notice{Slot: slot, Text: text, Warn: true})
}

func (r *Report) addNotice(n Notice) {
	if n.Text == "" {
		return
	}
	for _, o := range r.Notices {
		if o.Slot == n.Slot && o.Text == n.Text {
			return
		}
	}
	r.Notices = append(r.Notices, n)
	// Stable: within a slot, notices keep the order they were added in.
	slices.SortStableFunc(r.Notices, func(a, b Notice) int { return int(a.Slot) - int(b.Slot) })
}

// deriveNotices adds the notices the verdict and the comparison call for: an accepted
// regression, a scoring change without a version bump, a missing baseline, the
// comparison's notes and the estimated metrics.
func (r *Report) deriveNotices() {
	v := r.Verdict
	if v.AcceptedBy != "" {
		r.AddNotice(NoticeAccepted, v.Reason)
	}
	judge, unbumpedSaid := r.judgeChangeNotice()
	r.AddWarning(NoticeJudgeChanged, judge)
	if c := r.Comparison; c != nil && c.ScoringUnbumped != "" && !unbumpedSaid {
		r.AddWarning(NoticeScoringUnbumped, c.ScoringUnbumped)
	}
	switch {
	case r.Comparison != nil:
	case v.MissingBaseline != "":
		r.AddWarning(NoticeNoBaseline, v.NoBaseline)
	case v.NoBaseline != "":
		r.AddNotice(NoticeNoBaseline, v.NoBaseline)
	}
	if c := r.Comparison; c != nil {
		for _, n := range c.Notes {
			r.AddNotice(NoticeNote, n)
		}
	}
	for _, l := range r.judgeReliabilityLines() {
		r.AddNotice(NoticeNote, l)
	}
	for _, l := range r.judgeCalibrationLines() {
		r.AddNotice(NoticeNote, l)
	}
	if e := r.Summary.Estimates; e != nil {
		r.AddNotice(NoticeNote, estimatesNotice(e))
	}
}
