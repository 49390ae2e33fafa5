package report_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// expandProject writes a one-dimension project whose item e-1 answers with a long,
// many-line output (with markup in it) that fails, and e-2 that passes; it returns
// the config's path and e-1's output.
func expandProject(t *testing.T) (string, string) {
	t.Helper()
	dir := t.TempDir()
	var out strings.Builder
	for i := 0; i < 12; i++ {
		out.WriteString("Line of the tutor's answer, long enough that the table cell cuts it, <b>not bold</b> & so on.\n")
	}
	out.WriteString("THE-LAST-WORDS of the answer")
	got := out.String()
	line, err := json.Marshal(map[string]string{"id": "e-1", "output": got})
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"evalgate.yaml": "name: expand\nsuite: suite.yaml\nresults: [r.jsonl]\nscoring:\n  version: scoringSystem/1.0.0\n  dimensions: [{name: correctness, weight: 1, scorer: contains}]\ngrading:\n  version: gradingSystem/1.0.0\n  gates: [{name: floor, metric: mean_score, min: 0.9, level: hard}]\n",
		"suite.yaml":    "items:\n  - {id: e-1, prompt: \"Conjugate 'eat', past simple\", expected: [ate]}\n  - {id: e-2, prompt: \"Conjugate 'go', past simple\", expected: [went]}\n",
		"r.jsonl":       string(line) + "\n" + `{"id": "e-2", "output": "went"}` + "\n",
	}
	for name, s := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "evalgate.yaml"), got
}

// One click on a row shows the item's whole output, as text and wrapped inside the
// window, with its expected answer and the dimension's reason; no hover is needed. In
// the row itself the output is cut (the cell clips it); a second click closes it.
func TestHTMLReportRowShowsTheFullTextAfterOneClick(t *testing.T) {
	b := newBrowser(t)
	config, got := expandProject(t)
	page := writeHTML(t, checked(t, config))
	if err := chromedp.Run(b.ctx, chromedp.Navigate("file://"+page), chromedp.WaitVisible("#rows tr", chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	// Before: the Got cell (9th) clips the output, and no details are shown.
	if evalInt(t, b, `(function(){ var td = document.querySelector('#rows tr[data-i="0"] td:nth-child(9)'); return td.scrollWidth > td.clientWidth ? 1 : 0; })()`) != 1 {
		t.Error("the Got cell shows the whole output already: the test would not see the click's effect")
	}
	if n := evalInt(t, b, `document.querySelectorAll("#rows tr.detail").length`); n != 0 {
		t.Fatalf("%d details open before any click", n)
	}
	if err := chromedp.Run(b.ctx, chromedp.Click(`#rows tr[data-i="0"] td:nth-child(2)`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	var shown struct {
		Got, Expected, Reason, WhiteSpace string
		Right, Window, ScrollW, ClientW   float64
		Visible                           bool
	}
	if err := chromedp.Run(b.ctx, chromedp.Evaluate(`(function(){
		var d = document.querySelector("#rows tr.detail");
		if (!d) return {};
		var pres = d.querySelectorAll("pre"), got = pres[2], r = got.getBoundingClientRect();
		return {Got: got.textContent, Expected: pres[1].textContent, Reason: d.querySelector("table.dims tbody tr td:nth-child(4)").textContent,
			WhiteSpace: getComputedStyle(got).whiteSpace, Right: r.right, Window: window.innerWidth,
			ScrollW: got.scrollWidth, ClientW: got.clientWidth, Visible: r.height > 100 && got.checkVisibility()};
	})()`, &shown)); err != nil {
		t.Fatal(err)
	}
	if shown.Got != got {
		t.Errorf("after one click the details show output %q\nwant %q", shown.Got, got)
	}
	if shown.Expected != `["ate"]` {
		t.Errorf("expected answer shown: %q", shown.Expected)
	}
	if shown.Reason == "" {
		t.Error("the dimension's reason is not shown")
	}
	// Readable: wrapped (pre-wrap) inside the window, not clipped sideways, 13 lines tall.
	if shown.WhiteSpace != "pre-wrap" || shown.ScrollW > shown.ClientW || shown.Right > shown.Window || !shown.Visible {
		t.Errorf("the output is not readable in place: %+v", shown)
	}
	// The markup in the output is text.
	if n := evalInt(t, b, `document.querySelectorAll("#rows b").length`); n != 0 {
		t.Errorf("%d <b> elements: the output became markup", n)
	}
	if err := chromedp.Run(b.ctx, chromedp.Click(`#rows tr[data-i="0"] td:nth-child(2)`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	if n := evalInt(t, b, `document.querySelectorAll("#rows tr.detail").length`); n != 0 {
		t.Errorf("a second click left %d details open", n)
	}
	b.check(t)
}
