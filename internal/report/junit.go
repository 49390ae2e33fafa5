package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/rubric"
)

// FormatJUnit is the JUnit XML format CI test reporters read.
const FormatJUnit = "junit"

// The JUnit document: testsuites › testsuite › testcase, as Jenkins, GitLab and the
// GitHub test-reporter actions read it (schema/junit.xsd describes what evalgate writes).
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string      `xml:"name,attr"`
	Tests      int         `xml:"tests,attr"`
	Failures   int         `xml:"failures,attr"`
	Errors     int         `xml:"errors,attr"`
	Skipped    int         `xml:"skipped,attr"`
	Time       string      `xml:"time,attr"`
	Timestamp  string      `xml:"timestamp,attr,omitempty"`
	Properties *junitProps `xml:"properties,omitempty"`
	Cases      []junitCase `xml:"testcase"`
	SystemOut  string      `xml:"system-out,omitempty"`
}

type junitProps struct {
	List []junitProperty `xml:"property"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",cdata"` // xmlText: only characters XML can hold
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

// untagged groups the items that have no tag.
const untagged = "untagged"

// WriteJUnit writes the report as JUnit XML: the gates as one test suite, then one test
// suite per first tag with one test case per item (its pass verdict over the runs).
// A failing item's failure message is why it failed; its text is the breakdown. A
// pending item is skipped. Untrusted text (ids, tags, outputs, reasons) is shown through
// Visible, as in every other renderer, then escaped by encoding/xml (characters XML
// cannot hold become U+FFFD).
func (r *Report) WriteJUnit(w io.Writer) error {
	doc := junitSuites{Name: "evalgate " + r.Suite, Time: "0"}
	gates := junitSuite{Name: r.Suite + " gates", Time: "0", Timestamp: r.Metadata.TimestampUTC, Properties: &junitProps{[]junitProperty{
		{"scoringSystem", r.ScoringSystem}, {"gradingSystem", r.GradingSystem},
		{rubric.MetricMeanScore, fmt.Sprintf("%.4f", r.Summary.Mean)}, {"verdict", string(r.Verdict.Status)},
	}}}
	for _, g := range r.gateRows(termIcon) {
		c := junitCase{Name: g.name, Classname: "evalgate.gates." + g.kind, Time: "0"}
		raw := r.gateByName(g.gateName)
		// gate says how each gate shows: an inconclusive regression that blocks fails its
		// test case as a failed gate does.
		switch level := r.Verdict.GateLevel(raw); {
		case level == gate.LevelFailure:
			c.Failure = &junitFailure{Message: fmt.Sprintf("%s: %s, want %s", g.name, g.actual, g.threshold), Type: g.kind, Text: xmlText(Visible(raw.Message))}
		case level == gate.LevelWarning:
			c.SystemOut = fmt.Sprintf("warning: %s, want %s. %s", g.actual, g.threshold, Visible(raw.Message))
		case raw.Status == gate.Skipped:
			c.Skipped = &junitSkipped{Message: Visible(raw.Message)}
		}
		gates.add(c)
	}
	r.junitNotices(&gates)
	for _, f := range r.Findings {
		gates.SystemOut += "diagnosis: " + Visible(strings.ReplaceAll(f.Message, "`", "")) + "\n"
	}
	r.junitSettle(&gates)
	doc.Suites = append(doc.Suites, gates)

	byTag := map[string]int{}
	for _, it := range r.Items {
		tag := untagged
		if len(it.Tags) > 0 {
			tag = it.Tags[0]
		}
		i, ok := byTag[tag]
		if !ok {
			i = len(doc.Suites)
			byTag[tag] = i
			doc.Suites = append(doc.Suites, junitSuite{Name: Visible(tag), Time: "0"})
		}
		doc.Suites[i].add(r.junitItem(it, tag))
	}
	if n := r.Summary.Items - len(r.Items); n > 0 {
		doc.Suites[0].SystemOut += fmt.Sprintf("%d passing item(s) of %d are left out of this file (a large suite lists its failing items); the JSON report lists every item.\n", n, r.Summary.Items)
	}
	for _, s := range doc.Suites {
		doc.Tests += s.Tests
		doc.Failures += s.Failures
		doc.Skipped += s.Skipped
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// junitNotices writes what every other format shows first into the gates suite's
// system-out: the headline, then the notices in their slot order (a changed judge, a
// scoring change without a version bump, a missing baseline, the judges' reliability,
// settle's summary and rounds, ...), "warning: " or "note: " before each.
func (r *Report) junitNotices(gates *junitSuite) {
	gates.SystemOut += plain(strings.ReplaceAll(r.headline(), "`", "")) + "\n"
	for _, n := range r.Notices {
		prefix := "note: "
		if n.Warn {
			prefix = "warning: "
		}
		gates.SystemOut += prefix + plain(strings.ReplaceAll(n.Text, "`", "")) + "\n"
	}
}

// junitSettle says what check --settle did on the gates suite: its outcome, why it
// stopped, its rounds and extra item-runs as properties. Its lines (the summary, then
// one per round) are notices, written by junitNotices.
func (r *Report) junitSettle(gates *junitSuite) {
	res := r.Settle
	if res == nil {
		return
	}
	gates.Properties.List = append(gates.Properties.List,
		junitProperty{"settle.outcome", string(res.Outcome)}, junitProperty{"settle.stop", string(res.Stop)},
		junitProperty{"settle.rounds", fmt.Sprint(len(res.Rounds))}, junitProperty{"settle.item_runs", fmt.Sprint(res.ItemRuns)})
}

func (s *junitSuite) add(c junitCase) {
	s.Tests++
	switch {
	case c.Failure != nil:
		s.Failures++
	case c.Skipped != nil:
		s.Skipped++
	}
	s.Cases = append(s.Cases, c)
}

func (r *Report) gateByName(name string) gate.Result {
	for _, g := range r.Gates {
		if g.Name == name {
			return g
		}
	}
	return gate.Result{}
}

// junitItem is one item's test case: its pass verdict over the runs.
func (r *Report) junitItem(it Item, tag string) junitCase {
	c := junitCase{Name: Visible(it.ID), Classname: r.Suite + "." + Visible(tag), Time: "0", File: r.SuiteFile, Line: it.Line}
	if c.Line <= 0 {
		c.Line = 0
	}
	switch {
	case it.Pending:
		c.Skipped = &junitSkipped{Message: Visible(it.Reason())}
	case !it.Pass:
		msg := fmt.Sprintf("score %.3f: %s", it.Score, it.Reason()) // several runs: Reason counts the failed ones
		c.Failure = &junitFailure{Message: Visible(Truncate(msg, 1000)), Type: "item", Text: xmlText(Visible(breakdownText(it)))}
	}
	return c
}

// breakdownText is the item's breakdown as a reader of a test report wants it.
func breakdownText(it Item) string {
	var b strings.Builder
	fmt.Fprintf(&b, "score %.3f\n", it.Score)
	for i, kv := range it.Breakdown {
		if it.isNA(i) {
			fmt.Fprintf(&b, "%s: n/a\n", kv.Key)
			continue
		}
		fmt.Fprintf(&b, "%s: %v", kv.Key, fmtValue(kv.Value))
		if i < len(it.Weighted) {
			fmt.Fprintf(&b, " (weighted %v)", fmtValue(it.Weighted[i].Value))
		}
		if n := it.Notes[kv.Key]; n != "" {
			fmt.Fprintf(&b, ": %s", Truncate(n, 200))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "prompt: %s\n", Truncate(it.Prompt, 500))
	if it.Expected != nil {
		fmt.Fprintf(&b, "expected: %s\n", Truncate(describe(it.Expected), 500))
	}
	fmt.Fprintf(&b, "got: %s\n", Truncate(it.Got, 2000))
	return b.String()
}

func fmtValue(v any) string {
	if f, ok := v.(float64); ok {
		return fmt.Sprintf("%.3f", f)
	}
	return fmt.Sprint(v)
}

func describe(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// xmlText replaces the characters XML 1.0 cannot hold (most control characters,
// surrogates, U+FFFE/U+FFFF) with U+FFFD, so an output full of odd bytes still gives
// a well-formed file. encoding/xml does this for attributes and character data, not
// for CDATA sections.
func xmlText(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			return r
		case r < 0x20, r >= 0xD800 && r <= 0xDFFF, r == 0xFFFE, r == 0xFFFF, r == utf8.RuneError:
			return '\uFFFD'
		}
		return r
	}, s)
}
