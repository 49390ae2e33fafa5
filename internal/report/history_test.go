package report

import (
	"bytes"
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
