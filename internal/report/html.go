package report

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
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
	Legend     []legendEntry
	// NoScript is the failing items, shown when the page's script does not run.
	NoScript []noScriptItem
}

type legendEntry struct {
	Name, Weight string
	Color        template.CSS
}

type noScriptItem struct{ ID, Score, Why, Prompt, Expected, Got string }

// noScriptShown bounds the failing items the page lists for a reader without script.
const noScriptShown = 100

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
	Base     []*float64  `json:"base"` // baseline score, where the baseline has the item
	// Notes are each dimension's reason for its value, in Dims order; null when the
	// item has none.
	Notes  [][]string `json:"notes"`
	Colors []string   `json:"colors"` // each dimension's colour, in Dims order
	// Cut says which texts were cut at Limit characters: 1 the prompt, 2 the expected
	// answer, 4 the output.
	Cut   []int `json:"cut"`
	Limit int   `json:"limit"`
}

// dimColors are the dimensions' colours in the bars, the legend and the row details;
// the ones after the tenth repeat.
var dimColors = []string{"#0969da", "#1a7f37", "#bf8700", "#8250df", "#cf222e", "#1b7c83", "#bc4c00", "#6e7781", "#4b6ff0", "#e16f24"}

func dimColor(d int) string { return dimColors[d%len(dimColors)] }

// dimNotes is an item's per-dimension reasons in dims order, nil when it has none; a
// dimension that does not apply to the item reads "n/a", not its weighted 0 alone.
func dimNotes(it Item, dims []string) []string {
	if len(it.Notes) == 0 && !slices.Contains(it.NA, true) {
		return nil
	}
	out := make([]string, len(dims))
	for i, d := range dims {
		out[i] = Visible(Truncate(it.Notes[d], htmlTextLimit))
		if out[i] == "" && it.isNA(i) {
			out[i] = "n/a: does not apply to this item"
		}
	}
	return out
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
	for i, name := range items.Dims {
		d.Legend = append(d.Legend, legendEntry{Name: name, Weight: fmt.Sprint(items.Weights[i]), Color: template.CSS(items.Colors[i])})
	}
	for i := range items.ID {
		if items.Status[i] == 0 && len(d.NoScript) < noScriptShown {
			d.NoScript = append(d.NoScript, noScriptItem{ID: items.ID[i], Score: fmt.Sprintf("%.3f", items.Score[i]), Why: items.Why[i],
				Prompt: items.Prompt[i], Expected: items.Expected[i], Got: items.Got[i]})
		}
	}
	if r.Comparison != nil {
		for _, x := range r.dimensionRows(termIcon) {
			d.Dims = append(d.Dims, []string{x.name, x.weight, x.base, x.cand, x.delta, x.status})
		}
	}
	d.HistorySV = template.HTML(historySVG(r.History, r.Summary.Mean, dateOnly(r.Metadata.TimestampUTC)))
	for _, h := range r.History {
		d.History = append(d.History, historyRow{Release: releaseName(h), Date: dateOnly(h.Date), Commit: shortSHA(h.Commit),
			Score: fmt.Sprintf("%.3f ± %.3f", h.Mean, h.Std), Scoring: h.ScoringSystem, Changed: h.ScoringChanged})
	}
	return htmlTemplate.Execute(w, d)
}

// htmlItems gathers the embedded items: all of them up to HTMLFullItems, else the ones
// a reader looks at (failing, flipped, biggest drops). Their untrusted text (ids, tags,
// prompts, outputs, reasons) is shown through Visible, as in every other renderer.
func (r *Report) htmlItems() (*htmlItems, string) {
	out := &htmlItems{Limit: htmlTextLimit}
	for i, d := range r.Dimensions {
		out.Dims = append(out.Dims, d.Name)
		out.Weights = append(out.Weights, d.Weight)
		out.Colors = append(out.Colors, dimColor(i))
	}
	flag := map[string]int{}
	named := map[string]bool{} // the items the comparison lists
	if c := r.Comparison; c != nil {
		for _, ch := range c.NewlyFailing {
			flag[ch.ID] = 1
		}
		for _, ch := range c.NewlyPassing {
			flag[ch.ID] = 2
		}
		for _, l := range [][]baseline.ItemChange{c.NewlyFailing, c.NewlyPassing, c.BiggestDrops, c.Unstable} {
			for _, ch := range l {
				named[ch.ID] = true
			}
		}
	}
	all := len(r.Items) <= htmlFullItems
	partial := ""
	if !all || len(r.Items) < r.Summary.Items {
		partial = fmt.Sprintf("This suite has %d items: the page embeds the failing, newly failing, newly passing and biggest-drop items, with the aggregates for all of them. The JSON report lists every item.", r.Summary.Items)
	}
	tagIdx := map[string]int{}
	for _, it := range r.Items {
		if !all && it.Pass && flag[it.ID] == 0 && !named[it.ID] {
			continue
		}
		out.ID = append(out.ID, Visible(it.ID))
		out.Line = append(out.Line, it.Line)
		var ti []int
		for _, t := range it.Tags {
			i, ok := tagIdx[t]
			if !ok {
				i = len(out.Tags)
				tagIdx[t] = i
				out.Tags = append(out.Tags, Visible(t))
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
		exp := ""
		if it.Expected != nil {
			exp = describe(it.Expected)
		}
		cut := 0
		for k, t := range []string{it.Prompt, exp, it.Got} {
			short := Truncate(t, htmlTextLimit)
			if short != t {
				cut |= 1 << k
			}
			col := []*[]string{&out.Prompt, &out.Expected, &out.Got}[k]
			*col = append(*col, Visible(short))
		}
		out.Cut = append(out.Cut, cut)
		why := ""
		if !it.Pass {
			why = it.Reason()
		}
		out.Why = append(out.Why, Visible(why))
		out.Flag = append(out.Flag, flag[it.ID])
		var base *float64
		if r.Comparison != nil {
			if b, ok := r.Comparison.BaseScore(it.ID); ok {
				b = round4(b)
				base = &b
			}
		}
		out.Base = append(out.Base, base)
		out.Notes = append(out.Notes, dimNotes(it, out.Dims))
	}
	if out.Tags == nil {
		out.Tags = []string{}
	}
	return out, partial
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }

// codeHTML escapes text for HTML (bidi and control characters made visible), turning
// `backticked` names into <code>.
func codeHTML(s string) string {
	parts := strings.Split(s, "`")
	var b strings.Builder
	for i, p := range parts {
		esc := template.HTMLEscapeString(Visible(p))
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
// request's score (on date prDate) as the last point. Each point is labelled with its
// score above it and its release (ref or tag, else commit) and date below the axis; with
// many points, every k-th is labelled (and the first and last always). A scoring change
// is a dashed vertical rule: scores either side are not comparable. Empty without
// history.
func historySVG(recs []history.Record, pr float64, prDate string) string {
	if len(recs) == 0 {
		return ""
	}
	const w, h, left, right, top, bottom = 640.0, 210.0, 40.0, 40.0, 22.0, 44.0
	n := len(recs) + 1
	x := func(i int) float64 { return left + (w-left-right)*float64(i)/math.Max(1, float64(n-1)) }
	lo, hi := pr, pr
	for _, r := range recs {
		lo, hi = math.Min(lo, r.Mean), math.Max(hi, r.Mean)
	}
	lo, hi = math.Max(0, lo-0.05), math.Min(1, hi+0.05)
	if hi-lo < 0.01 {
		lo, hi = math.Max(0, lo-0.05), math.Min(1, hi+0.05)
	}
	y := func(v float64) float64 { return h - bottom - (h-top-bottom)*(v-lo)/(hi-lo) }
	every := int(math.Ceil(float64(n) / 8)) // at most about eight labels across 640 units
	labelled := func(i int) bool { return i == 0 || i == n-1 || (i%every == 0 && n-1-i >= every/2+1) }
	esc := template.HTMLEscapeString
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="history" viewBox="0 0 %.0f %.0f" role="img" aria-label="score by release and date">`, w, h)
	for _, v := range []float64{lo, (lo + hi) / 2, hi} {
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" class="grid"/><text x="4" y="%.1f" class="axis">%.2f</text>`, left-6, y(v), w-right+6, y(v), y(v)+3, v)
	}
	var pts []string
	for i, r := range recs {
		if r.ScoringChanged {
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" class="change"><title>scoring changed to %s</title></line>`,
				(x(i)+x(max(i-1, 0)))/2, top/2, (x(i)+x(max(i-1, 0)))/2, h-bottom+4, esc(r.ScoringSystem))
		}
		pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(i), y(r.Mean)))
	}
	pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(n-1), y(pr)))
	fmt.Fprintf(&b, `<polyline points="%s" class="trend"/>`, strings.Join(pts, " "))
	label := func(i int, name, date string, score float64) {
		if !labelled(i) {
			return
		}
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" class="val">%.3f</text>`, x(i), y(score)-8, score)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" class="lbl">%s</text><text x="%.1f" y="%.1f" class="lbl">%s</text>`,
			x(i), h-bottom+16, esc(Truncate(name, 14)), x(i), h-bottom+30, esc(date))
	}
	for i, r := range recs {
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="4" class="rel"><title>%s, %s: %.3f ± %.3f</title></circle>`, x(i), y(r.Mean),
			esc(releaseName(r)), esc(dateOnly(r.Date)), r.Mean, r.Std)
		label(i, releaseName(r), dateOnly(r.Date), r.Mean)
	}
	fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="5" class="pr"><title>this pull request: %.3f</title></circle>`, x(n-1), y(pr), pr)
	label(n-1, "this PR", prDate, pr)
	b.WriteString(`</svg>`)
	return b.String()
}
