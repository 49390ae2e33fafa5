package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/history"
)

func hrec(release, scoring string, mean float64, changed bool) history.Record {
	return history.Record{Release: release, Date: "2026-01-02T00:00:00Z", Commit: "abcdef0123", Mean: mean, Runs: 3,
		ScoringSystem: scoring, GradingSystem: "gradingSystem/1.0.0", ScoringChanged: changed,
		Dimensions: map[string]float64{"correctness": mean}}
}

func TestHistoryLineShowsReleasesSinceTheLastScoringChange(t *testing.T) {
	r := &Report{ScoringSystem: "scoringSystem/2.0.0", Summary: Summary{Mean: 0.8}, History: []history.Record{
		hrec("refs/tags/v1", "scoringSystem/1.0.0", 0.5, false),
		hrec("refs/tags/v2", "scoringSystem/2.0.0", 0.9, true),
		hrec("refs/tags/v3_*", "scoringSystem/2.0.0", 0.95, false),
	}}
	got := r.historyLine()
	want := `History: v2 0.900 → v3\_\* 0.950 → **this PR 0.800** (since the last scoring change)`
	if got != want {
		t.Errorf("historyLine = %q\nwant %q", got, want)
	}
	// A PR under another scoring system than the last record is not set beside it.
	r.ScoringSystem = "scoringSystem/3.0.0"
	if got := r.historyLine(); got != "" {
		t.Errorf("historyLine across a scoring change = %q; want none", got)
	}
	r.History = nil
	if got := r.historyLine(); got != "" {
		t.Errorf("historyLine without history = %q; want none", got)
	}
}

func TestRenderHistoryTable(t *testing.T) {
	var b bytes.Buffer
	recs := []history.Record{hrec("refs/tags/v1", "scoringSystem/1.0.0", 0.9, false), hrec("refs/tags/v2", "scoringSystem/1.0.0", 0.85, false)}
	if err := RenderHistory(&b, recs, FormatTable); err != nil {
		t.Fatal(err)
	}
	// v2 − v1 = 0.85 − 0.90 = −0.05 = −5.0 pts.
	if !strings.Contains(b.String(), "-5.0 pts") || !strings.Contains(b.String(), "correctness") {
		t.Errorf("table:\n%s", b.String())
	}
	b.Reset()
	if err := RenderHistory(&b, nil, FormatJSON); err != nil || strings.TrimSpace(b.String()) != "[]" {
		t.Errorf("empty JSON history = %q, %v; want []", b.String(), err)
	}
}

// The HTML report's history chart labels each point with its release and its date, the
// pull request's with "this PR" and the report's date; the labels differ point by point.
func TestHistorySVGLabelsReleasesAndDates(t *testing.T) {
	a, b := hrec("refs/tags/v1.3.0", "scoringSystem/1.0.0", 0.9, false), hrec("", "scoringSystem/1.0.0", 0.95, false)
	b.Date, b.Commit = "2026-02-10T08:00:00Z", "0123456789ab"
	svg := historySVG([]history.Record{a, b}, 0.875, "2026-03-01")
	for _, want := range []string{">v1.3.0<", ">2026-01-02<", ">0123456<", ">2026-02-10<", ">this PR<", ">2026-03-01<", ">0.900<", ">0.950<", ">0.875<"} {
		if !strings.Contains(svg, want) {
			t.Errorf("history chart lacks the label %s:\n%s", want, svg)
		}
	}
	// With 40 releases and the PR (41 points) every ⌈41/8⌉ = 6th point is labelled:
	// 0, 6, …, 36 and the last (40), 8 labels, not 41 on top of each other.
	var recs []history.Record
	for i := 0; i < 40; i++ {
		recs = append(recs, hrec(fmt.Sprintf("refs/tags/v1.%d", i), "scoringSystem/1.0.0", 0.9, false))
	}
	if n := strings.Count(historySVG(recs, 0.9, "2026-03-01"), `class="val"`); n != 8 {
		t.Errorf("%d of 41 points labelled; want 8", n)
	}
}
