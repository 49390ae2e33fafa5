package report

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/rubric"
)

// Options are what Build needs beyond the scores.
type Options struct {
	Suite           string            // suite name
	GradingSystem   string            // gradingSystem/X.Y.Z
	Metadata        map[string]string // from the config: model_id, model_version, ...
	Now             time.Time
	RunID           string // the run id to record; empty: a hash of the inputs and Now
	CodeVersion     string // git SHA
	EvalgateVersion string
	Command         string // reproduces the report locally
	Mode            string // regression mode (absolute or relative)
	// Stream holds the items, captured while the scoring read them (its Capture and
	// PutCaptured were rubric.ScoreOptions.Capture and OnFirst). Required.
	Stream *ItemStream
	// JSONOnly: the report will only be written as JSON, so a streamed report keeps no
	// items in memory for the other renderers (Render refuses the other formats).
	JSONOnly bool
	// BudgetCut says, per results file, that its run was cut by its budget: each is
	// the report's BudgetCut and a cost warning.
	BudgetCut []string
}

// Build assembles the report: its summary and the items the renderers list come from
// one pass over opts.Stream, and the report's JSON lists every item from it as it is
// written.
func Build(sc *rubric.Scored, cmp *baseline.Comparison, v *gate.Verdict, opts Options) (*Report, error) {
	r, err := build(sc, cmp, v, opts)
	if err != nil {
		return nil, err
	}
	r.deriveNotices()
	r.BudgetCut = opts.BudgetCut
	for _, n := range opts.BudgetCut {
		r.AddWarning(NoticeCost, n)
	}
	return r, nil
}

func build(sc *rubric.Scored, cmp *baseline.Comparison, v *gate.Verdict, opts Options) (*Report, error) {
	r := &Report{
		SchemaVersion: SchemaVersion,
		Suite:         opts.Suite,
		ScoringSystem: sc.System.Version,
		GradingSystem: opts.GradingSystem,
		SuiteHash:     sc.Suite.Hash,
		RubricHash:    sc.System.Hash(),
		Comparison:    cmp,
		Gates:         v.Gates,
		Grade:         v.Grade,
		Regression:    v.Regression,
		Verdict:       *v,
		SuiteFile:     sc.Suite.File,
		Command:       opts.Command,
		Mode:          opts.Mode,
		Scored:        sc,
	}
	r.Metadata = metadata(sc, opts)
	r.Summary = Summary{
		Items: sc.Suite.Len(), Runs: len(sc.Runs),
		Mean:        sc.Metrics[rubric.MetricMeanScore],
		Std:         sc.MetricsStd[rubric.MetricMeanScore],
		PassRate:    sc.Metrics[rubric.MetricPassRate],
		JudgeErrors: int(sumOver(sc, rubric.MetricJudgeErrors)),
		Metrics:     sc.Metrics, Missing: []string{},
	}
	if len(sc.Runs) > 1 {
		r.Summary.MetricsStd = sc.MetricsStd
	}
	r.Summary.Estimates = sc.Estimates()
	if p := sc.System.Pricer; p != nil && p.Table != nil {
		r.Cost = buildCost(sc, cmp, p.Table.Name())
		if l := r.costLine(); l != "" {
			r.AddNotice(NoticeCost, l)
		}
	}
	for _, e := range sc.System.Evaluators() {
		st := e.Stats
		r.Summary.Judges = append(r.Summary.Judges, JudgeUsage{Name: e.Name, Model: e.Metadata.EvaluatorModelID,
			Requests: st.Requests, Calls: st.Calls, CacheHits: st.CacheHits, ParseErrors: st.ParseErrors, Errors: st.Errors,
			PromptTokens: st.PromptTokens, CompletionTokens: st.CompletionTokens})
	}
	for _, d := range sc.System.Dimensions {
		dim := Dimension{Name: d.Name, Weight: d.Weight, Scorer: d.Scorer, Scale: d.Scale,
			Mean: sc.Metrics[rubric.DimensionMetric(d.Name, rubric.SuffixScore)], Failures: sc.Metrics[rubric.DimensionMetric(d.Name, rubric.SuffixFailures)]}
		if m, ok := sc.Metrics[rubric.DimensionMetric(d.Name, rubric.SuffixMean)]; ok {
			dim.RawMean = &m
		}
		if n, ok := sc.Metrics[d.Name+rubric.MetricApplicableSuffix]; ok {
			dim.Items = &n
		}
		if _, ok := sc.Metrics[rubric.DimensionMetric(d.Name, rubric.SuffixScore)]; !ok {
			dim.NA = true // n/a on every item of every run
		}
		r.Dimensions = append(r.Dimensions, dim)
	}
	for _, run := range sc.Runs {
		miss := run.Missing
		if miss == nil {
			miss = []string{}
		}
		r.Runs = append(r.Runs, Run{File: run.File, Mean: run.Metrics[rubric.MetricMeanScore],
			PassRate: run.Metrics[rubric.MetricPassRate], Missing: miss, Metrics: run.Metrics, Estimates: run.Estimates})
	}
	if opts.Stream == nil {
		return nil, fmt.Errorf("report: Build needs the items' stream")
	}
	st, err := opts.Stream.build(sc, !opts.JSONOnly)
	if err != nil {
		return nil, err
	}
	r.Summary.Passed, r.Summary.Missing, r.Summary.Pending = st.passed, st.missing, st.pending
	if len(r.Summary.Pending) == 0 {
		r.Summary.Pending = nil
	}
	r.Items, r.stream, r.jsonOnly = st.kept, opts.Stream, opts.JSONOnly
	return r, nil
}

func sumOver(sc *rubric.Scored, metric string) float64 {
	t := 0.0
	for _, r := range sc.Runs {
		t += r.Metrics[metric]
	}
	return t
}

// buildItem is one item of the report from its scores; the parts its shown sample
// said (prompt, reference, output, per-sample fields, notes) come pre-rendered from the
// ItemStream.
func buildItem(sc *rubric.Scored, is *rubric.ItemScore) Item {
	sys := sc.System
	it := Item{ID: is.Item.ID, Line: is.Item.Line, Tags: is.Item.Tags, Prompt: is.Item.Prompt,
		Expected: expectedOf(is.Item, nil, sys), Score: is.Score, Pass: is.Pass, PassRuns: is.PassRuns,
		Runs: is.Runs, CappedBy: is.CappedBy, Why: is.Why, Missing: is.Missing == is.Runs, MissingRuns: is.Missing, Pending: is.Pending}
	for d, dim := range sys.Dimensions {
		it.Breakdown = append(it.Breakdown, KV{dim.Name, is.Breakdown[d]})
		it.NA = append(it.NA, d < len(is.NA) && is.NA[d])
		it.Weighted = append(it.Weighted, KV{dim.Name, is.Weighted[d]})
		var raw any
		if is.Raw[d] != nil {
			raw = *is.Raw[d]
		}
		if is.Labels[d] != "" && len(sc.Runs) == 1 {
			raw = is.Labels[d]
		}
		it.Raw = append(it.Raw, KV{dim.Name, raw})
		if is.Errors[d] != "" && it.EvaluatorError == "" {
			it.EvaluatorError = is.Errors[d]
		}
		if dim.Key != "" && (dim.Scorer == "recorded" || dim.Scorer == "llm_judge") && !slices.Contains(rubric.ReportItemKeys, dim.Key) &&
			!slices.ContainsFunc(it.Sample, func(kv KV) bool { return kv.Key == dim.Key }) {
			// Under its key beside the item's own keys, once; a key the item already
			// uses (promptfoo's `score`) is left to raw, under the dimension's name.
			it.Sample = append(it.Sample, KV{dim.Key, raw})
		}
	}
	return it
}

// sampleFields are seed 001's per-sample fields, where recorded.
func sampleFields(r *eval.Result) []KV {
	var out []KV
	if r.LatencyE2EMs != nil {
		out = append(out, KV{"latency_e2e_ms", *r.LatencyE2EMs})
	}
	if r.LatencyModelMs != nil {
		out = append(out, KV{"latency_model_ms", *r.LatencyModelMs})
	}
	if r.InputTokens != nil {
		out = append(out, KV{"input_tokens", *r.InputTokens})
	}
	if r.OutputTokens != nil {
		out = append(out, KV{"output_tokens", *r.OutputTokens})
	}
	if total, ok := r.TotalTokens(); ok {
		out = append(out, KV{"total_tokens", total})
		out = append(out, KV{"token_efficiency_ratio", rubric.Round9(*r.OutputTokens / max(*r.InputTokens, 1))})
	}
	if r.TimedOut {
		out = append(out, KV{"timed_out", true})
	}
	if r.Error != "" {
		out = append(out, KV{"error", r.Error})
	}
	return out
}

// expectedOf is the item's reference answer as seed 000 shows it; when the item names
// none, what its result says the tool held the output to (res: its shown sample, nil
// when none; eval.Result.ExpectedAssertion).
func expectedOf(it *eval.Item, res *eval.Result, sys *rubric.System) any {
	for _, d := range sys.Dimensions {
		if d.Expected != "" {
			if v, ok := it.Field(d.Expected); ok {
				return v
			}
		}
	}
	for _, k := range []string{"expected_contains", "expected"} {
		if v, ok := it.Fields[k]; ok {
			return v
		}
	}
	if res != nil && res.ExpectedAssertion != "" {
		return res.ExpectedAssertion
	}
	return nil
}

func metadata(sc *rubric.Scored, opts Options) Metadata {
	m := opts.Metadata
	get := func(k string) string { return m[k] }
	h := sha256.New()
	h.Write([]byte(sc.Suite.Hash))
	h.Write([]byte(sc.System.Hash()))
	var files []string
	for _, r := range sc.Runs {
		files = append(files, r.File)
		h.Write([]byte(r.File))
	}
	h.Write([]byte(opts.Now.UTC().Format(time.RFC3339Nano)))
	runID := hex.EncodeToString(h.Sum(nil))[:16]
	if opts.RunID != "" {
		runID = opts.RunID
	}
	md := Metadata{
		RunID:                                runID,
		TimestampUTC:                         opts.Now.UTC().Format(time.RFC3339),
		DatasetID:                            opts.Suite,
		DatasetVersionOrHash:                 "sha256:" + sc.Suite.Hash,
		ModelID:                              get("model_id"),
		ModelVersion:                         get("model_version"),
		EvaluatorModelID:                     get("evaluator_model_id"),
		EvaluatorModelVersion:                get("evaluator_model_version"),
		PromptTemplateID:                     get("prompt_template_id"),
		PromptTemplateVersionOrHash:          get("prompt_template_version_or_hash"),
		EvaluatorPromptTemplateVersionOrHash: get("evaluator_prompt_template_version_or_hash"),
		CodeVersion:                          opts.CodeVersion,
		Environment:                          get("environment"),
		EvalgateVersion:                      opts.EvalgateVersion,
		ResultsFiles:                         files,
	}
	if ev := sc.System.Evaluators(); len(ev) > 0 {
		var ids, versions, hashes []string
		for _, e := range ev {
			ids = append(ids, e.Metadata.EvaluatorModelID)
			versions = append(versions, e.Metadata.EvaluatorModelVersion)
			hashes = append(hashes, e.Metadata.TemplateID+" "+e.Metadata.TemplateHash)
		}
		md.EvaluatorModelID = strings.Join(ids, ", ")
		md.EvaluatorModelVersion = strings.Join(versions, ", ")
		md.EvaluatorPromptTemplateVersionOrHash = strings.Join(hashes, ", ")
		p := ev[0].Metadata.Params
		md.GenerationParams = GenerationParams{Temperature: &p.Temperature, TopP: &p.TopP, MaxTokens: &p.MaxTokens, Seed: ptrInt(int(p.Seed))}
	}
	if md.ModelID == "" {
		md.ModelID = modelFromResults(sc)
	}
	if md.Environment == "" {
		md.Environment = fmt.Sprintf("%s/%s", runtime.GOOS, runtime.GOARCH)
	}
	return md
}

func modelFromResults(sc *rubric.Scored) string {
	for _, r := range sc.Runs {
		if r.Model != "" {
			return r.Model
		}
	}
	return ""
}

func ptrInt(i int) *int { return &i }
