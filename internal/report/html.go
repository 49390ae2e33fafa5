package report

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"math"
	"strings"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/history"
)

// FormatHTML is the self-contained HTML report: one file, inline CSS and JS, no network.
const FormatHTML = "html"

// HTMLFullItems is the suite size up to which the HTML report embeds every item. Above
// it, it embeds the failing, newly failing, newly passing and biggest-drop items with
// the aggregates, and says so at the top.
const HTMLFullItems = 20000

// htmlFullItems is HTMLFullItems; tests lower it.
var htmlFullItems = HTMLFullItems

// htmlTextLimit bounds each prompt, expected and output text embedded per item; the
// JSON report has them whole.
const htmlTextLimit = 2000

//go:embed htmlassets/report.html.tmpl
var htmlTemplateText string

//go:embed htmlassets/report.css
var htmlCSS string

//go:embed htmlassets/report.js
var htmlJS string

var htmlTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"pct":  func(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) },
	"f3":   func(x float64) string { return fmt.Sprintf("%.3f", x) },
	"pts":  gate.FormatPts,
	"word": func(s gate.Status) string { return s.Word() },
	"code": func(s string) template.HTML { return template.HTML(codeHTML(s)) },
}).Parse(htmlTemplateText))

// htmlData is what the template reads.
type htmlData struct {
	R        *Report
	Headline string
	Summary  string
	Status   gate.Status // the headline's status (never pass when not compared)
	Decision []string
	// Statistics is the statistics section's lines (statistics.go).
	Statistics []string
	Notices    []Notice
	Gates      [][]string // gate, kind, threshold, actual, status
	Dims       [][]string // dimension, weight, baseline, this run, delta, status
	Partial    string     // why not every item is embedded
	CostRuns   [][]string // run, score, pass rate, cost: one row per run, when cost is measured
	HistorySV  template.HTML
	History    []historyRow
	CSS        template.CSS
	JS         template.JS
	Data       template.JS
}

type historyRow struct {
	Release, Date, Commit, Score, Scoring string
	Changed                               bool
}

// htmlItems is the per-item data the page's script draws: columns, not objects, so
// 10,000 items stay small.
type htmlItems struct {
	Dims     []string    `json:"dims"`
	Weights  []float64   `json:"weights"`
	Tags     []string    `json:"tags"`
	ID       []string    `json:"id"`
	Line     []int       `json:"line"`
	TagIdx   [][]int     `json:"tagIdx"`
	Score    []float64   `json:"score"`
	Status   []int       `json:"status"` // 0 fail, 1 pass, 2 pending
	Weighted [][]float64 `json:"weighted"`
	Prompt   []string    `json:"prompt"`
	Expected []string    `json:"expected"`
	Got      []string    `json:"got"`
	Why      []string    `json:"why"`
	Flag     []int       `json:"flag"` // 1 newly failing, 2 newly passing, 0 otherwise
	Base     []*float64  `json:"base"` // baseline score, where the comparison names it
}

// WriteHTML writes the report as one self-contained HTML file: the verdict, findings,
// gates, comparison and history, and the dashboard view (a stacked bar of weighted
// sub-scores per item, sortable and filterable by tag and by newly failing) over the item
// table. Everything from the suite and the outputs is escaped.
func (r *Report) WriteHTML(w io.Writer) error {
	items, partial := r.htmlItems()
	var data bytes.Buffer
	enc := json.NewEncoder(&data)
	enc.SetEscapeHTML(true) // "</script>" in an output cannot end the script element
	if err := enc.Encode(items); err != nil {
		return err
	}
	d := htmlData{R: r, Headline: r.headline(), Summary: r.summaryLine(), Decision: r.decisionLines(), Statistics: r.statisticsLines(), Notices: r.Notices,
		Status:  r.headlineStatus(),
		Partial: partial, CSS: template.CSS(htmlCSS), JS: template.JS(htmlJS),
		Data: template.JS(strings.TrimSpace(data.String()))}
	for _, g := range r.gateRows(termIcon) {
		d.Gates = append(d.Gates, []string{g.name, g.kind, g.threshold, g.actual, g.status})
	}
	d.CostRuns = r.costRuns()
	if r.Comparison != nil {
		for _, x := range r.dimensionRows(termIcon) {
			d.Dims = append(d.Dims, []string{x.name, x.weight, x.base, x.cand, x.delta, x.status})
		}
	}
	d.HistorySV = template.HTML(historySVG(r.History, r.Summary.Mean))
	for _, h := range r.History {
		d.History = append(d.History, historyRow{Release: releaseName(h), Date: dateOnly(h.Date), Commit: shortSHA(h.Commit),
			Score: fmt.Sprintf("%.3f ± %.3f", h.Mean, h.Std), Scoring: h.ScoringSystem, Changed: h.ScoringChanged})
	}
	return htmlTemplate.Execute(w, d)
}

// htmlItems gathers the embedded items: all of them up to HTMLFullItems, else the ones
// a reader looks at (failing, flipped, biggest drops).
func (r *Report) htmlItems() (*htmlItems, string) {
	out := &htmlItems{}
	for _, d := range r.Dimensions {
		out.Dims = append(out.Dims, d.Name)
		out.Weights = append(out.Weights, d.Weight)
	}
	flag := map[string]int{}
	base := map[string]float64{}
	if c := r.Comparison; c != nil {
		for _, ch := range c.NewlyFailing {
			flag[ch.ID] = 1
			base[ch.ID] = ch.BaseScore
		}
		for _, ch := range c.NewlyPassing {
			flag[ch.ID] = 2
			base[ch.ID] = ch.BaseScore
		}
		for _, ch := range append(append([]baseline.ItemChange{}, c.BiggestDrops...), c.Unstable...) {
			base[ch.ID] = ch.BaseScore
		}
	}
	all := len(r.Items) <= htmlFullItems
	partial := ""
	if !all || len(r.Items) < r.Summary.Items {
		partial = fmt.Sprintf("This suite has %d items: the page embeds the failing, newly failing, newly passing and biggest-drop items, with the aggregates for all of them. The JSON report lists every item.", r.Summary.Items)
	}
	tagIdx := map[string]int{}
	for _, it := range r.Items {
		_, named := base[it.ID]
		if !all && it.Pass && flag[it.ID] == 0 && !named {
			continue
		}
		out.ID = append(out.ID, it.ID)
		out.Line = append(out.Line, it.Line)
		var ti []int
		for _, t := range it.Tags {
			i, ok := tagIdx[t]
			if !ok {
				i = len(out.Tags)
				tagIdx[t] = i
				out.Tags = append(out.Tags, t)
			}
			ti = append(ti, i)
		}
		if ti == nil {
			ti = []int{}
		}
		out.TagIdx = append(out.TagIdx, ti)
		out.Score = append(out.Score, round4(it.Score))
		st := 0
		switch {
		case it.Pending:
			st = 2
		case it.Pass:
			st = 1
		}
		out.Status = append(out.Status, st)
		wts := make([]float64, len(out.Dims))
		for i, kv := range it.Weighted {
			if f, ok := kv.Value.(float64); ok && i < len(wts) {
				wts[i] = round4(f)
			}
		}
		out.Weighted = append(out.Weighted, wts)
		out.Prompt = append(out.Prompt, Truncate(it.Prompt, htmlTextLimit))
		exp := ""
		if it.Expected != nil {
			exp = describe(it.Expected)
		}
		out.Expected = append(out.Expected, Truncate(exp, htmlTextLimit))
		out.Got = append(out.Got, Truncate(it.Got, htmlTextLimit))
		why := ""
		if !it.Pass {
			why = it.Reason()
		}
		out.Why = append(out.Why, why)
		out.Flag = append(out.Flag, flag[it.ID])
		if b, ok := base[it.ID]; ok {
			b := round4(b)
			out.Base = append(out.Base, &b)
		} else {
			out.Base = append(out.Base, nil)
		}
	}
	if out.Tags == nil {
		out.Tags = []string{}
	}
	return out, partial
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }

// codeHTML escapes text for HTML, turning `backticked` names into <code>.
func codeHTML(s string) string {
	parts := strings.Split(s, "`")
	var b strings.Builder
	for i, p := range parts {
		esc := template.HTMLEscapeString(p)
		if i%2 == 1 && i < len(parts)-1 {
			b.WriteString("<code>" + esc + "</code>")
		} else {
			if i%2 == 1 {
				b.WriteString("`")
			}
			b.WriteString(esc)
		}
	}
	return b.String()
}

// historySVG draws the score over the releases as an inline SVG line chart, this pull
// request's score as the last point; a scoring change is a dashed vertical rule (scores
// either side are not comparable). Empty without history.
func historySVG(recs []history.Record, pr float64) string {
	if len(recs) == 0 {
		return ""
	}
	const w, h, pad = 640.0, 180.0, 30.0
	n := len(recs) + 1
	x := func(i int) float64 { return pad + (w-2*pad)*float64(i)/math.Max(1, float64(n-1)) }
	lo, hi := pr, pr
	for _, r := range recs {
		lo, hi = math.Min(lo, r.Mean), math.Max(hi, r.Mean)
	}
	lo, hi = math.Max(0, lo-0.05), math.Min(1, hi+0.05)
	if hi-lo < 0.01 {
		lo, hi = math.Max(0, lo-0.05), math.Min(1, hi+0.05)
	}
	y := func(v float64) float64 { return h - pad - (h-2*pad)*(v-lo)/(hi-lo) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="history" viewBox="0 0 %.0f %.0f" role="img" aria-label="score history">`, w, h)
	fmt.Fprintf(&b, `<text x="4" y="%.1f" class="axis">%.2f</text><text x="4" y="%.1f" class="axis">%.2f</text>`, y(hi)+4, hi, y(lo)+4, lo)
	var pts []string
	for i, r := range recs {
		if r.ScoringChanged {
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" class="change"><title>scoring changed to %s</title></line>`,
				(x(i)+x(max(i-1, 0)))/2, pad/2, (x(i)+x(max(i-1, 0)))/2, h-pad/2, template.HTMLEscapeString(r.ScoringSystem))
		}
		pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(i), y(r.Mean)))
	}
	pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(n-1), y(pr)))
	fmt.Fprintf(&b, `<polyline points="%s" class="trend"/>`, strings.Join(pts, " "))
	for i, r := range recs {
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="4" class="rel"><title>%s %.3f ± %.3f</title></circle>`, x(i), y(r.Mean),
			template.HTMLEscapeString(releaseName(r)), r.Mean, r.Std)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" class="lbl">%s</text>`, x(i), h-8, template.HTMLEscapeString(Truncate(releaseName(r), 12)))
	}
	fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="5" class="pr"><title>this pull request %.3f</title></circle>`, x(n-1), y(pr), pr)
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" class="lbl">this PR</text>`, x(n-1), h-8)
	b.WriteString(`</svg>`)
	return b.String()
}
