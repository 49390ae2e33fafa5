package report_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// htmlData is the item data a report page embeds for its script.
func htmlData(t *testing.T, page []byte) (d struct {
	ID   []string   `json:"id"`
	Base []*float64 `json:"base"`
}) {
	t.Helper()
	const open = `<script id="data" type="application/json">`
	s := string(page)
	i := strings.Index(s, open)
	j := strings.Index(s[i:], "</script>")
	if i < 0 || j < 0 {
		t.Fatal("no embedded data in the page")
	}
	if err := json.Unmarshal([]byte(s[i+len(open):i+j]), &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// The Baseline column has every item the baseline has, not only the ones the
// comparison lists (newly failing, biggest drops).
func TestHTMLReportBaselineColumnHasEveryItem(t *testing.T) {
	r := checked(t, "../../examples/tutor-capstone/evalgate.yaml", "../../examples/tutor-capstone/results/regressed.jsonl")
	var page bytes.Buffer
	if err := r.WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	d := htmlData(t, page.Bytes())
	if len(d.ID) != 20 {
		t.Fatalf("%d items embedded; want 20", len(d.ID))
	}
	// The baseline is the mean over release/run{1,2,3}.jsonl. e-39-02 is right in all
	// three (1.000) and passes now too: no list names it. e-39-09 answers "Maked." in
	// run 2, scoring 0.25 + 0.10 + 0.05 = 0.40 there: (1 + 0.4 + 1) / 3 = 0.800.
	want := map[string]float64{"e-39-02": 1, "e-39-09": 0.8}
	for i, id := range d.ID {
		if d.Base[i] == nil {
			t.Errorf("%s: no baseline score", id)
			continue
		}
		if w, ok := want[id]; ok && *d.Base[i] != w {
			t.Errorf("%s: baseline %v; want %v", id, *d.Base[i], w)
		}
	}
}
