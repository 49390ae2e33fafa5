package report

import (
	"fmt"
	"strings"

	"github.com/evalgate/evalgate/internal/gate"
)

// ProposedGate is a pull request's own gate definition where it differs from its base
// commit's: the config, suite, scoring and grading systems, rubric tests and judges it
// brings. The base commit's gate decides until a maintainer accepts the proposed one;
// the report shows both.
type ProposedGate struct {
	// Config is the pull request's config (its repository path); BaseConfig the base
	// commit's.
	Config     string `json:"config"`
	BaseConfig string `json:"base_config"`
	// Scored says the results were scored under the proposed gate; NotScored says why
	// not (a judge it points at another endpoint or key, for one).
	Scored    bool   `json:"scored"`
	NotScored string `json:"not_scored,omitempty"`
	// Verdict and Score under the proposed gate, when Scored.
	Verdict gate.Status `json:"verdict,omitempty"`
	Blocks  bool        `json:"blocks,omitempty"`
	Score   float64     `json:"score,omitempty"`
	// Removed are the base suite's items the pull request removes (missing under the
	// base gate); Added the items it adds (scored under the proposed gate, not gated
	// until accepted). Both sorted; RemovedTotal and AddedTotal count them all when the
	// lists are cut.
	Removed      []string `json:"removed,omitempty"`
	Added        []string `json:"added,omitempty"`
	RemovedTotal int      `json:"removed_total,omitempty"`
	AddedTotal   int      `json:"added_total,omitempty"`
	// Changes are the other differences, one plain line each ("weight of correctness
	// 0.60 → 0.10", "scorer of schema: json_schema → contains", "changes file x").
	Changes []string `json:"changes,omitempty"`
	// AcceptedBy is the maintainer who accepted it (the accept label, write access):
	// then the verdict is the proposed gate's.
	AcceptedBy  string `json:"accepted_by,omitempty"`
	AcceptLabel string `json:"-"`
}

// maxProposedIDs bounds the item ids listed per kind in the proposed-gate section.
const maxProposedIDs = 10

// Short says in a few words what the proposed gate changes: "removes 2 items, 3 other
// changes".
func (p *ProposedGate) Short() string {
	var parts []string
	if p.RemovedTotal > 0 {
		parts = append(parts, plural(p.RemovedTotal, "removes %d item", "removes %d items"))
	}
	if p.AddedTotal > 0 {
		parts = append(parts, plural(p.AddedTotal, "adds %d item", "adds %d items"))
	}
	if n := len(p.Changes); n > 0 {
		if len(parts) == 0 && n == 1 {
			parts = append(parts, p.Changes[0])
		} else {
			parts = append(parts, plural(n, "%d other change", "%d other changes"))
		}
	}
	if len(parts) == 0 {
		return "changes its files"
	}
	return Truncate(strings.Join(parts, ", "), 120)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf(one, n)
	}
	return fmt.Sprintf(many, n)
}

// mdProposed is the proposed-gate section, first in the comment: a short line, then
// what the proposed gate changes.
func (r *Report) mdProposed(MarkdownOptions) []block {
	p := r.Proposed
	if p == nil {
		return nil
	}
	var b strings.Builder
	under := "it could not be scored: " + Escape(p.NotScored) // it may quote the pull request's config
	if p.Scored {
		word := (&gate.Verdict{Status: p.Verdict, Blocks: p.Blocks}).Word()
		under = fmt.Sprintf("under it this run would be **%s** (score %.3f)", word, p.Score)
	}
	cfg := code(p.Config)
	if p.Config != p.BaseConfig {
		cfg += " (the base commit's is " + code(p.BaseConfig) + ")"
	}
	if p.AcceptedBy != "" {
		fmt.Fprintf(&b, "> [!NOTE]\n> **Proposed gate accepted** by @%s with the %s label: this pull request is judged by its own gate %s, which %s.\n",
			Escape(p.AcceptedBy), code(p.AcceptLabel), cfg, Escape(p.Short()))
	} else {
		fmt.Fprintf(&b, "> [!IMPORTANT]\n> **Proposed gate:** this pull request changes its own gate %s: %s; %s. "+
			"The verdict below is the base commit's gate; the proposed one applies once merged, or to this commit alone if a maintainer with write access applies the %s label while it is the head: "+
			"the label counts only in the run that applying it starts (under <code>workflow_run</code>, re-run this workflow once it is on), and a later push needs it removed and applied again.\n",
			cfg, Escape(p.Short()), under, code(p.AcceptLabel))
	}
	list := func(what string, ids []string, total int) {
		if total == 0 {
			return
		}
		quoted := make([]string, len(ids))
		for i, id := range ids {
			quoted[i] = code(Truncate(id, 80))
		}
		more := ""
		if total > len(ids) {
			more = fmt.Sprintf(" and %d more", total-len(ids))
		}
		fmt.Fprintf(&b, "> - %s: %s%s\n", what, strings.Join(quoted, ", "), more)
	}
	list("removes (missing under the base gate)", p.Removed, p.RemovedTotal)
	list("adds (scored, shown as new, not gated until accepted)", p.Added, p.AddedTotal)
	for _, c := range p.Changes {
		fmt.Fprintf(&b, "> - %s\n", codeSpans(Visible(c)))
	}
	b.WriteString("\n")
	return []block{{text: b.String(), cut: cutNever}}
}

// code is untrusted text as an HTML code span.
func code(s string) string { return "<code>" + htmlEscape(Visible(s)) + "</code>" }

// CutIDs keeps the first maxProposedIDs of ids and the total: what ProposedGate lists.
func CutIDs(ids []string) ([]string, int) {
	if len(ids) > maxProposedIDs {
		return ids[:maxProposedIDs], len(ids)
	}
	return ids, len(ids)
}
