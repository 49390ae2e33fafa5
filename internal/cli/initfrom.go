package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/importer"
	"github.com/evalgate/evalgate/internal/rubric"
	"github.com/evalgate/evalgate/internal/safeio"
	"github.com/evalgate/evalgate/internal/scaffold"
	"github.com/evalgate/evalgate/internal/settle"
)

// initDim is one recorded dimension of a starter config made from another tool's file.
type initDim struct {
	name, key, scale, note string
	weighted, optional     bool // weighted: shares the weight; optional: not every record has it
	weight                 float64
	// absent says why an optional dimension may be missing; empty: not every record has it
	absent string
}

// initFrom writes a starter evalgate.yaml whose dimensions mirror the tool's own
// assertions or scorers as recorded values, with weights that sum to 1.
func (c *CLI) initFrom(o InitOptions, from string, imp importer.Options) int {
	if o.Scaffold.Name == "" {
		abs, err := filepath.Abs(o.Dir)
		if err != nil {
			return c.fail(err)
		}
		o.Scaffold.Name = scaffold.SuiteName(filepath.Base(abs))
	}
	dims, results, tool, meta, err := initDims(from, imp)
	if err != nil {
		return c.fail(err)
	}
	pfConfig := tool == "promptfoo" && isYAML(from)
	cfgPath := filepath.Join(o.Dir, scaffold.ConfigFile)
	rel := results
	if r, err := filepath.Rel(o.Dir, results); err == nil {
		rel = filepath.ToSlash(r)
	}
	flags := strings.Join(importArgs(imp), " ")
	// promptfoo's config: the one given, or the one beside its results file.
	pfCfg := filepath.Join(filepath.Dir(from), "promptfooconfig.yaml")
	if pfConfig {
		pfCfg = from
	}
	pfCfgRel := filepath.ToSlash(relOrSelf(o.Dir, pfCfg))
	text := initConfig(o.Scaffold.Name, tool, from, rel, flags, rerunTemplate(tool, pfCfgRel, meta), dims)
	files := []scaffold.File{{Path: scaffold.ConfigFile, Content: []byte(text)}}
	if tool == "promptfoo" {
		// promptfoo users get the workflow that runs promptfoo, then gates its file.
		wf, err := scaffold.PromptfooWorkflow(scaffold.PromptfooOptions{From: filepath.ToSlash(from), PromptfooConfig: pfCfgRel,
			PromptfooVersion: importer.PromptfooNewest, Results: rel, ConfigFile: filepath.ToSlash(relOrSelf(o.Dir, cfgPath))})
		if err != nil {
			return c.fail(fmt.Errorf("init: %w", err))
		}
		files = append(files, wf)
	}
	for _, f := range files {
		p := filepath.Join(o.Dir, filepath.FromSlash(f.Path))
		if o.DryRun {
			fmt.Fprintf(c.Stdout, "would write %s:\n%s\n", p, f.Content)
			continue
		}
		if _, err := os.Lstat(p); err == nil && !o.Force {
			return c.fail(fmt.Errorf("init: %s already exists; nothing was written. Use --force to overwrite it, or --dir to write elsewhere", p))
		} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return c.fail(fmt.Errorf("init: %w", err))
		}
	}
	if o.DryRun {
		return ExitPass
	}
	for _, f := range files {
		p := filepath.Join(o.Dir, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return c.fail(fmt.Errorf("init: %w", err))
		}
		if err := writeScaffoldFile(p, f); err != nil {
			return c.fail(fmt.Errorf("init: %w", err))
		}
		fmt.Fprintf(c.Stdout, "wrote %s\n", p)
	}
	fmt.Fprintf(c.Stdout, "%d recorded dimension(s) from %s's %s\n\nNext:\n", len(dims), tool, from)
	if flags != "" {
		flags = " " + flags
	}
	if pfConfig {
		fmt.Fprintf(c.Stdout, "  promptfoo eval -c %s -o %s --repeat 3   # run the eval first: each repeat is a run\n", from, results)
	}
	fmt.Fprintf(c.Stdout, "  evalgate check --config %s%s          # score the file and gate it\n"+
		"  evalgate baseline --config %s%s       # on a release: write baselines/%s.jsonl\n",
		cfgPath, flags, cfgPath, flags, o.Scaffold.Name)
	if tool == "promptfoo" {
		fmt.Fprintf(c.Stdout, "then commit %s, %s and the baseline: the workflow runs promptfoo on every pull request and gates its results.\n", cfgPath, filepath.Join(o.Dir, scaffold.PRWorkflowFile))
	}
	return ExitPass
}

// relOrSelf is path relative to dir, or path as it is when it cannot be.
func relOrSelf(dir, path string) string {
	if r, err := filepath.Rel(dir, path); err == nil {
		return r
	}
	return path
}

func isYAML(path string) bool {
	return strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")
}

// initDims reads the dimensions a file's scores give, and the results file to gate.
func initDims(from string, opts importer.Options) ([]initDim, string, string, map[string]string, error) {
	base := filepath.Base(from)
	switch {
	case isYAML(base):
		dims, err := promptfooConfigDims(from)
		return dims, filepath.Join(filepath.Dir(from), "results.json"), "promptfoo", nil, err
	case regexp.MustCompile(`^results_.+\.json$`).MatchString(base):
		dims, samples, meta, err := lmResultsDims(from)
		return dims, samples, "lm-eval", meta, err
	}
	// Every record of every run (promptfoo --repeat, Inspect epochs) counts: a score a
	// record lacks (an errored call has none) is n/a there, not a config check refuses.
	records := 0
	meta, err := importer.ReadRestarting(from, opts, func() { records = 0 }, func(r importer.Record) error {
		records++
		return nil
	})
	if err != nil {
		return nil, "", "", nil, err
	}
	var dims []initDim
	for _, d := range meta.Dimensions {
		dims = append(dims, dimFromImport(d, records, meta.Format))
	}
	if len(dims) == 0 {
		return nil, "", "", nil, eval.Errorf(from, 0, "", "the file carries no scores to mirror; write the dimensions yourself (README: \"Dimensions\")")
	}
	if !slices.ContainsFunc(dims, func(d initDim) bool { return d.weighted }) {
		for i := range dims {
			dims[i].weighted = dims[i].key == "score" // promptfoo without named metrics: its test score
		}
	}
	if meta.Format == importer.LMEval {
		meta.Metadata["task"] = lmTaskOf(from)
	}
	return dims, from, string(meta.Format), meta.Metadata, nil
}

// lmTaskOf is the task of an lm-eval samples_<task>_<date>.jsonl file ("" when the
// name says none).
func lmTaskOf(path string) string {
	task, ok := strings.CutPrefix(filepath.Base(path), "samples_")
	if !ok {
		return ""
	}
	task = strings.TrimSuffix(task, ".jsonl")
	if i := strings.LastIndex(task, "_"); i > 0 {
		return task[:i]
	}
	return ""
}

func dimFromImport(d importer.Dimension, records int, f importer.Format) initDim {
	dim := initDim{name: d.Key, key: d.Key, scale: d.Scale, weighted: true, optional: d.Count < records}
	switch {
	case f == importer.Promptfoo && d.Key == "success":
		dim.weighted, dim.note = false, "promptfoo's own pass verdict, kept beside evalgate's pass rule"
	case f == importer.Promptfoo && d.Key == "score":
		// the assertions' own dimensions carry the weight; the test score would count them twice
		dim.name, dim.note, dim.weighted = "pf_score", "promptfoo's weighted test score", false
	default:
		dim.name = initDimName(f, d.Key)
	}
	if dim.scale == "" {
		switch {
		case d.Min >= 1 && d.Max <= 5:
			dim.scale = "1-5"
		case d.Min >= 1 && d.Max <= 10:
			dim.scale = "1-10"
		default:
			dim.note = fmt.Sprintf("values from %g to %g: no scale holds them, so it starts unweighted; choose a scale", d.Min, d.Max)
			dim.scale, dim.weighted = "unit", false
		}
	}
	return dim
}

// promptfooConfigDims mirrors a promptfoo config's assertions: a dimension per metric
// name, one per unnamed assertion type, plus promptfoo's score and success.
func promptfooConfigDims(path string) ([]initDim, error) {
	data, err := safeio.ReadFile(path, "promptfoo config", safeio.MaxSmallFileBytes)
	if err != nil {
		return nil, err
	}
	return promptfooConfigDimsOf(path, data)
}

// promptfooConfigDimsOf is promptfooConfigDims of the config's bytes, read from path.
func promptfooConfigDimsOf(path string, data []byte) ([]initDim, error) {
	var cfg struct {
		DefaultTest struct {
			Assert []map[string]any `yaml:"assert"`
		} `yaml:"defaultTest"`
		Tests any `yaml:"tests"`
	}
	// Through safeio: bounded depth and aliases, and a decoder panic is bad input.
	if err := safeio.UnmarshalYAML(path, data, &cfg); err != nil {
		return nil, err
	}
	tests, _ := cfg.Tests.([]any)
	if cfg.Tests != nil && tests == nil {
		return nil, eval.Errorf(path, 0, "", "\"tests\" is not a list (tests loaded from a file are not read here: run promptfoo and use `init --from results.json`)")
	}
	seen := map[string]int{} // dimension → tests that have it
	var order []string
	add := func(asserts []any, per map[string]bool) {
		counts := map[string]int{}
		for _, a := range asserts {
			m, ok := a.(map[string]any)
			if !ok {
				continue
			}
			key := ""
			if metric, _ := m["metric"].(string); metric != "" {
				key = importer.Ident(metric)
			} else if typ, _ := m["type"].(string); typ != "" {
				key = importer.Ident(typ)
				counts[key]++
				if counts[key] > 1 {
					key = fmt.Sprintf("%s_%d", key, counts[key])
				}
			}
			if key == "" || key == "score" || key == "success" {
				continue
			}
			per[key] = true
		}
	}
	var defaults []any
	for _, a := range cfg.DefaultTest.Assert {
		defaults = append(defaults, a)
	}
	if len(tests) == 0 {
		tests = []any{map[string]any{}}
	}
	for _, t := range tests {
		tm, _ := t.(map[string]any)
		own, _ := tm["assert"].([]any)
		per := map[string]bool{}
		add(append(append([]any{}, defaults...), own...), per)
		keys := make([]string, 0, len(per))
		for k := range per {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if seen[k] == 0 {
				order = append(order, k)
			}
			seen[k]++
		}
	}
	var dims []initDim
	for _, k := range order {
		// optional everywhere: a call that errors carries no assertion's score
		dims = append(dims, initDim{name: initDimName(importer.Promptfoo, k), key: k, scale: "unit", weighted: true, optional: true,
			absent: "n/a where a call errored (it carries no assertion's score)"})
	}
	dims = append(dims, initDim{name: "pf_score", key: "score", scale: "unit", weighted: len(dims) == 0, note: "promptfoo's weighted test score"},
		initDim{name: "success", key: "success", scale: "pass_fail", note: "promptfoo's own pass verdict, kept beside evalgate's pass rule"})
	return dims, nil
}

// lmResultsDims mirrors an lm-eval results_<date>.json: a dimension per per-sample
// metric (and filter), gating the samples file written beside it.
func lmResultsDims(path string) ([]initDim, string, map[string]string, error) {
	data, err := safeio.ReadFile(path, "lm-eval results", maxLMResultsBytes)
	if err != nil {
		return nil, "", nil, err
	}
	return lmResultsDimsOf(path, data)
}

// maxLMResultsBytes bounds an lm-eval results_<date>.json: its metrics and its run's
// config, never its samples (those are the samples files beside it).
const maxLMResultsBytes = 4 * safeio.MaxSmallFileBytes

// lmResultsDimsOf is lmResultsDims of the results file's bytes, read from path.
func lmResultsDimsOf(path string, data []byte) ([]initDim, string, map[string]string, error) {
	if err := safeio.CheckJSONDepth(path, data, 1); err != nil {
		return nil, "", nil, err
	}
	var doc struct {
		Results map[string]map[string]any `json:"results"`
		Config  struct {
			ModelArgs any `json:"model_args"`
		} `json:"config"`
	}
	if err := json.Unmarshal(data, &doc); err != nil || doc.Results == nil {
		return nil, "", nil, eval.Errorf(path, 0, "", "not an lm-eval results_<date>.json (no \"results\" object of tasks)")
	}
	tasks := make([]string, 0, len(doc.Results))
	for t := range doc.Results {
		tasks = append(tasks, t)
	}
	sort.Strings(tasks)
	if len(tasks) != 1 {
		return nil, "", nil, eval.Errorf(path, 0, "", "the results hold %d tasks (%s); evalgate gates one task's samples per config: use `init --from samples_<task>_<date>.jsonl`", len(tasks), strings.Join(tasks, ", "))
	}
	task := tasks[0]
	date := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(path), "results_"), ".json")
	samples := filepath.Join(filepath.Dir(path), "samples_"+task+"_"+date+".jsonl")
	filters := map[string]bool{}
	var metrics []string
	for k := range doc.Results[task] {
		metric, filter, ok := strings.Cut(k, ",")
		if !ok || strings.HasSuffix(metric, "_stderr") {
			continue
		}
		filters[filter] = true
		metrics = append(metrics, k)
	}
	sort.Strings(metrics)
	var dims []initDim
	for _, k := range metrics {
		metric, filter, _ := strings.Cut(k, ",")
		if map[string]bool{"perplexity": true, "word_perplexity": true, "byte_perplexity": true, "bits_per_byte": true, "bleu": true, "chrf": true, "ter": true}[metric] {
			continue // corpus-level: nothing per sample
		}
		key := importer.Ident(metric)
		if len(filters) > 1 {
			key = importer.Ident(metric + "_" + filter)
		}
		if slices.ContainsFunc(dims, func(d initDim) bool { return d.key == key }) {
			continue // two metric names the importer reads as one key: one value, one dimension
		}
		dims = append(dims, initDim{name: initDimName(importer.LMEval, key), key: key, scale: "unit", weighted: true})
	}
	if len(dims) == 0 {
		return nil, "", nil, eval.Errorf(path, 0, "", "task %q has no per-sample metric to mirror", task)
	}
	// The run's metadata the rerun: template fills in, as a samples file's import reads
	// it from the results beside it.
	meta := map[string]string{"task": task}
	if s, ok := doc.Config.ModelArgs.(string); ok && s != "" {
		meta["model_args"] = s
	}
	return dims, samples, meta, nil
}

// initWeights shares 1 among the weighted dimensions, to 3 decimals, the rest to the last.
func initWeights(dims []initDim) {
	var w []int
	for i, d := range dims {
		if d.weighted {
			w = append(w, i)
		}
	}
	if len(w) == 0 && len(dims) > 0 {
		dims[0].weighted = true
		w = []int{0}
	}
	each := math.Floor(1000/float64(len(w))) / 1000
	for j, i := range w {
		dims[i].weight = each
		if j == len(w)-1 {
			dims[i].weight = math.Round((1-each*float64(len(w)-1))*1000) / 1000
		}
	}
}

func initConfig(name, tool, from, results, flags, rerun string, dims []initDim) string {
	initWeights(dims)
	var b strings.Builder
	fmt.Fprintf(&b, "# evalgate configuration, written by `evalgate init --from %s`. Paths are relative\n", yamlString(from))
	fmt.Fprintf(&b, "# to this file. The dimensions mirror %s's own scores, read as `recorded` values.\n", tool)
	b.WriteString("# Reference: https://github.com/evalgate/evalgate#results-from-promptfoo-lm-eval-and-inspect-ai\n")
	fmt.Fprintf(&b, "name: %s # labels the reports, the pull-request comment and the baseline\n", name)
	fmt.Fprintf(&b, "results: [%s] # read as %s wrote it (each repeat or epoch is a run); the items come with it\n", yamlString(results), tool)
	if flags != "" {
		fmt.Fprintf(&b, "# read with: %s (pass the same flags to check and baseline)\n", flags)
	}
	fmt.Fprintf(&b, "baseline: baselines/%s.jsonl # written by `evalgate baseline`; pull requests are compared with it\n", name)
	b.WriteString(rerun)
	b.WriteString("\n")
	b.WriteString("# The scoring system. Bump the version when dimensions, weights or scorers change.\n")
	b.WriteString("scoring:\n  version: scoringSystem/1.0.0\n  dimensions: # weights sum to 1.0\n")
	for _, d := range dims {
		fmt.Fprintf(&b, "    - {name: %s, ", d.name)
		if d.key != d.name {
			fmt.Fprintf(&b, "key: %s, ", d.key)
		}
		fmt.Fprintf(&b, "weight: %s, scorer: recorded, scale: %s", trimFloat(d.weight), d.scale)
		if d.optional {
			b.WriteString(", default: n/a")
		}
		b.WriteString("}")
		notes := []string{}
		if d.note != "" {
			notes = append(notes, d.note)
		}
		switch {
		case d.optional && d.absent != "":
			notes = append(notes, d.absent)
		case d.optional:
			notes = append(notes, "not every item has it: n/a where absent")
		}
		if len(notes) > 0 {
			b.WriteString(" # " + strings.Join(notes, "; "))
		}
		b.WriteString("\n")
	}
	b.WriteString("  pass: {min_score: 0.8} # an item passes at a score of 0.8 or more\n\n")
	b.WriteString("# The grading system: what blocks a pull request and what only warns.\n")
	b.WriteString("grading:\n  version: gradingSystem/1.0.0\n  gates:\n")
	b.WriteString("    - {name: quality floor, metric: mean_score, min: 0.7, level: hard} # block below 0.7: set it from your baseline\n")
	b.WriteString("    - {name: no errors, metric: errors, max: 0, level: soft} # warn when the system failed on an item\n")
	b.WriteString("  regression: {max_drop: 0.02, mode: absolute} # block when the mean score drops more than 2 points below the baseline\n")
	return b.String()
}

// initDimName is the dimension name of the tool's score key: the key itself, or, when
// a report item has a key of that name (score, pass, ...), the key after the tool's
// name, so the config parses.
func initDimName(f importer.Format, key string) string {
	if slices.Contains(rubric.ReportItemKeys, key) {
		return string(f) + "_" + key
	}
	return key
}

func trimFloat(f float64) string {
	s := fmt.Sprintf("%.3f", f)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "" {
		return "0"
	}
	return s
}

func yamlString(s string) string {
	if regexp.MustCompile(`^[A-Za-z0-9_./-]+$`).MatchString(s) {
		return s
	}
	b, _ := json.Marshal(s)
	return string(b)
}

// rerunTemplate is the config's `rerun:` line: the command that re-runs some items with
// the tool that made the results, for check --settle. {ids} are the items (promptfoo
// test descriptions, Inspect sample ids, lm-eval doc ids), {out} the results file to
// write; evalgate runs it directly, never through a shell. What the tool's file names
// (the task, the model) is filled in; meta is the file's run metadata.
func rerunTemplate(tool, pfConfig string, meta map[string]string) string {
	var args []string
	note := ""
	switch tool {
	case "promptfoo":
		// --no-cache: a re-run must call the provider again, or it repeats one draw.
		args = []string{"npx", "--yes", "promptfoo@" + importer.PromptfooNewest, "eval", "-c", pfConfig, "--filter-pattern", settle.PlaceholderIDs,
			"--repeat", "1", "--no-cache", "--no-progress-bar", "-o", settle.PlaceholderOut}
	case "inspect":
		args = []string{"inspect", "eval", orDefault(meta["prompt_template_id"], "TASK")}
		if m := meta["model_id"]; m != "" {
			args = append(args, "--model", m)
		}
		args = append(args, "--sample-id", settle.PlaceholderIDs, "--epochs", "1", "--log-format", "json", "--log-dir", settle.PlaceholderOut)
		note = "the task as the log names it: a task in a file is file.py@task"
	case "lm-eval":
		args = []string{"lm_eval", "--model", "hf"}
		if m := meta["model_args"]; m != "" {
			args = append(args, "--model_args", m)
		}
		args = append(args, "--tasks", orDefault(meta["task"], "TASK"), "--samples", settle.PlaceholderIDs, "--log_samples", "--output_path", settle.PlaceholderOut)
		note = "--model hf: the backend the results were made with, if not Hugging Face's"
	default:
		return ""
	}
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = a
		if !bareYAMLWord.MatchString(a) || a == "true" || a == "false" || a == "null" { // a number or {…} would not read back as this string
			b, _ := json.Marshal(a)
			q[i] = string(b)
		}
	}
	out := "# rerun: re-runs the items that decide an inconclusive verdict, for `evalgate check --settle`\n" +
		"# ({ids}: the items in the tool's terms, {out}: the results file it writes; no shell).\n"
	if note != "" {
		out += "# Check " + note + ".\n"
	}
	return out + "rerun: [" + strings.Join(q, ", ") + "]\n"
}

// bareYAMLWord is a list entry YAML reads as the same string without quotes.
var bareYAMLWord = regexp.MustCompile(`^[A-Za-z-][A-Za-z0-9_./@=-]*$`)

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
