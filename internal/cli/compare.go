package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/importer"
	"github.com/evalgate/evalgate/internal/report"
	"github.com/evalgate/evalgate/internal/safeio"
)

func (c *CLI) compare(args []string) int {
	fs := newFlagSet("compare", "compare [--format "+report.FormatChoices(report.ComparisonFormats)+"] [--max-drop 0.02] [--method evidence|plain|significance] A.json B.json\n\nA and B are saved reports (check --format json) or baselines; B is compared with A, as\ncheck compares a pull request with its baseline (a release-to-release diff): exit 1 when\nthe drop blocks. When B recorded a cost, check's cost line shows it beside A's\n(docs/cost.md). Any other file (another tool's results, evalgate's results) is refused\n(exit 2), saying what it is: gate results with check first.", c.Stderr)
	format := fs.String("format", report.FormatTable, "output format: "+strings.Join(report.ComparisonFormats, ", "))
	maxDrop := new(float64)
	floatVar(fs, maxDrop, "max-drop", gate.DefaultMaxDrop, "allowed drop of the mean, absolute `points` (0.02 = 2 pts)")
	method := fs.String("method", gate.MethodEvidence, "decision method: evidence, plain or significance")
	if err := fs.Parse(interspersed(fs, args)); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitPass
		}
		return ExitBadInput
	}
	if fs.NArg() != 2 {
		fmt.Fprintln(c.Stderr, "evalgate compare: want two files, A and B")
		fs.Usage()
		return ExitBadInput
	}
	if err := checkFormat(*format); err != nil {
		fmt.Fprintf(c.Stderr, "evalgate: %v\n", err)
		return ExitBadInput
	}
	a, err := loadSnapshot(fs.Arg(0))
	if err != nil {
		return c.fail(err)
	}
	b, err := loadSnapshot(fs.Arg(1))
	if err != nil {
		return c.fail(err)
	}
	rg := &gate.Regression{MaxDrop: maxDrop, Method: *method}
	if err := (&gate.System{Version: "gradingSystem/1.0.0", Regression: rg}).Validate("compare", func(string) bool { return true }, nil, nil); err != nil {
		fmt.Fprintf(c.Stderr, "evalgate compare: %v\n", err)
		return ExitBadInput
	}
	cmp, err := baseline.CompareSnapshots(a, b, fs.Arg(0))
	if err != nil {
		return c.fail(err)
	}
	v := rg.Compare(cmp)
	cost := report.SnapshotCost(a.ComparableMetrics(), b.ComparableMetrics())
	if err := report.RenderComparison(c.Stdout, cmp, v, cost, fs.Arg(0), fs.Arg(1), *format); err != nil {
		return c.fail(err)
	}
	return v.ExitCode()
}

// loadSnapshot reads a baseline, or a JSON report turned into a baseline. Any other
// file (another tool's results, evalgate's own results, JSON of any other kind) is
// refused, saying what it is and what compare takes.
func loadSnapshot(path string) (*baseline.Baseline, error) {
	isBaseline, err := baseline.IsBaselineFile(path)
	if err != nil {
		return nil, err
	}
	if isBaseline { // its own reader says what is wrong with it, or that it is newer
		return baseline.LoadItems(path)
	}
	data, err := safeio.ReadFile(path, "report or baseline", safeio.MaxFileBytes)
	if err != nil {
		return nil, err
	}
	if err := safeio.CheckJSONDepth(path, data, 1); err != nil {
		return nil, err
	}
	var probe struct {
		Summary json.RawMessage              `json:"summary"`
		Items   []map[string]json.RawMessage `json:"items"`
	}
	if json.Unmarshal(data, &probe) == nil {
		if len(probe.Items) > 0 {
			if _, isReport := probe.Items[0]["item"]; isReport {
				return reportSnapshot(path, data)
			}
		} else if probe.Summary != nil && probe.Items != nil {
			return reportSnapshot(path, data) // a report of no items
		}
	}
	line, _, _ := bytes.Cut(bytes.TrimLeft(data, " \t\r\n"), []byte("\n"))
	if err := baseline.RefuseNewer(path, line); err != nil {
		return nil, err // a newer baseline header, with keys this evalgate does not know
	}
	return nil, notSnapshot(path, data)
}

// notSnapshot is the error for a file compare cannot read: what the file is, as far as
// its content tells (a tool's results, evalgate's results, a JSON document and its
// first keys), and what compare takes instead.
func notSnapshot(path string, data []byte) error {
	takes := "compare takes two saved reports (evalgate check --format json --out FILE) or baselines (evalgate baseline)"
	gateFirst := "; to compare these results, gate them first: evalgate check --results " + shellQuote(path) + " --format json --out FILE"
	if f, err := importer.Detect(path); err == nil && f != importer.Evalgate {
		return eval.Errorf(path, 0, "", "a %s results file, not an evalgate report or baseline: %s%s", f, takes, gateFirst)
	}
	if isResultsJSONL(data) {
		return eval.Errorf(path, 0, "", "evalgate results (one record per line), not a report or baseline: %s%s", takes, gateFirst)
	}
	what := "not an evalgate report or baseline"
	if keys := topKeys(data); keys != "" {
		what += " (its top-level keys: " + keys + ")"
	}
	return eval.Errorf(path, 0, "", "%s: %s", what, takes)
}

// isResultsJSONL reports whether data's first line is a JSON object with an id: a
// results record.
func isResultsJSONL(data []byte) bool {
	var rec map[string]json.RawMessage
	line, _, _ := bytes.Cut(bytes.TrimLeft(data, " \t\r\n"), []byte("\n"))
	if json.Unmarshal(line, &rec) != nil {
		return false
	}
	_, ok := rec["id"]
	return ok
}

// topKeys lists the first five top-level keys of a JSON object, in order, quoted and
// cut to 40 characters each; "" when data is not one.
func topKeys(data []byte) string {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return ""
	}
	var keys []string
	for len(keys) < 5 && dec.More() {
		t, err := dec.Token()
		k, ok := t.(string)
		if err != nil || !ok {
			break
		}
		keys = append(keys, fmt.Sprintf("%q", report.Truncate(k, 40)))
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			break
		}
	}
	if dec.More() {
		keys = append(keys, "…")
	}
	return strings.Join(keys, ", ")
}

// reportSnapshot reads the parts of a saved report a comparison needs.
func reportSnapshot(path string, data []byte) (*baseline.Baseline, error) {
	var r struct {
		Suite         string `json:"suite"`
		ScoringSystem string `json:"scoringSystem"`
		GradingSystem string `json:"gradingSystem"`
		RubricHash    string `json:"rubric_hash"`
		Summary       struct {
			Mean    float64            `json:"mean"`
			Std     float64            `json:"std"`
			Runs    int                `json:"runs"`
			Metrics map[string]float64 `json:"metrics"`
		} `json:"summary"`
		Dimensions []struct {
			Name string  `json:"name"`
			Mean float64 `json:"mean"`
		} `json:"dimensions"`
		Items []struct {
			ID        string             `json:"item"`
			Score     float64            `json:"score"`
			Pass      bool               `json:"pass"`
			PassRuns  *int               `json:"pass_runs"`
			Runs      *int               `json:"runs"`
			Breakdown map[string]float64 `json:"breakdown"`
			Tags      []string           `json:"tags"`
		} `json:"items"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&r); err != nil {
		return nil, eval.Errorf(path, 0, "", "not a JSON report: %v", err)
	}
	b := &baseline.Baseline{SchemaVersion: baseline.SchemaVersion, Suite: r.Suite, ScoringSystem: r.ScoringSystem,
		GradingSystem: r.GradingSystem, RubricHash: r.RubricHash, Mean: r.Summary.Mean, Std: r.Summary.Std,
		Metrics: r.Summary.Metrics, Dimensions: map[string]float64{},
		// A report's judge_cost_usd is the judging's cost, cache hits priced, as a new
		// baseline's (rubric.JudgeCost.JudgingUSD).
		JudgeCostPricesHits: true}
	for i := 0; i < max(r.Summary.Runs, 1); i++ {
		b.Runs = append(b.Runs, baseline.RunAggregate{})
	}
	for _, d := range r.Dimensions {
		b.Dimensions[d.Name] = d.Mean
	}
	for _, it := range r.Items {
		pr := 0.0
		if it.Pass {
			pr = 1
		}
		if it.PassRuns != nil && it.Runs != nil && *it.Runs > 0 {
			pr = float64(*it.PassRuns) / float64(*it.Runs)
		}
		b.Items = append(b.Items, baseline.Item{ID: it.ID, Score: it.Score, PassRate: pr, Breakdown: it.Breakdown, Tags: it.Tags})
	}
	return b, nil
}
