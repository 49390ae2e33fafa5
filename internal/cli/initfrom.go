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

	"github.com/goccy/go-yaml"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/importer"
	"github.com/evalgate/evalgate/internal/rubric"
	"github.com/evalgate/evalgate/internal/safeio"
	"github.com/evalgate/evalgate/internal/scaffold"
)

// initDim is one recorded dimension of a starter config made from another tool's file.
type initDim struct {
	name, key, scale, note string
	weighted, optional     bool // weighted: shares the weight; optional: not every record has it
	weight                 float64
}

// initFrom writes a starter evalgate.yaml whose dimensions mirror the tool's own
// assertions or scorers as recorded values, with weights that sum to 1.
func (c *CLI) initFrom(o InitOptions, from string) int {
	if o.Scaffold.Name == "" {
		abs, err := filepath.Abs(o.Dir)
		if err != nil {
			return c.fail(err)
		}
		o.Scaffold.Name = scaffold.SuiteName(filepath.Base(abs))
	}
	dims, results, tool, err := initDims(from)
	if err != nil {
		return c.fail(err)
	}
	cfgPath := filepath.Join(o.Dir, scaffold.ConfigFile)
	rel := results
	if r, err := filepath.Rel(o.Dir, results); err == nil {
		rel = filepath.ToSlash(r)
	}
	text := initConfig(o.Scaffold.Name, tool, from, rel, dims)
	if o.DryRun {
		fmt.Fprintf(c.Stdout, "would write %s:\n%s", cfgPath, text)
		return ExitPass
	}
	if _, err := os.Lstat(cfgPath); err == nil && !o.Force {
		return c.fail(fmt.Errorf("init: %s already exists; nothing was written. Use --force to overwrite it, or --dir to write elsewhere", cfgPath))
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return c.fail(fmt.Errorf("init: %w", err))
	}
	if err := writeScaffoldFile(cfgPath, scaffold.File{Path: scaffold.ConfigFile, Content: []byte(text)}); err != nil {
		return c.fail(fmt.Errorf("init: %w", err))
	}
	fmt.Fprintf(c.Stdout, "wrote %s: %d recorded dimension(s) from %s's %s\n\nNext:\n"+
		"  evalgate check --config %s          # score the file and gate it\n"+
		"  evalgate baseline --config %s       # on a release: write baselines/%s.json\n",
		cfgPath, len(dims), tool, from, cfgPath, cfgPath, o.Scaffold.Name)
	return ExitPass
}

// initDims reads the dimensions a file's scores give, and the results file to gate.
func initDims(from string) ([]initDim, string, string, error) {
	base := filepath.Base(from)
	switch {
	case strings.HasSuffix(base, ".yaml") || strings.HasSuffix(base, ".yml"):
		dims, err := promptfooConfigDims(from)
		return dims, filepath.Join(filepath.Dir(from), "results.json"), "promptfoo", err
	case regexp.MustCompile(`^results_.+\.json$`).MatchString(base):
		return lmResultsDims(from)
	}
	counts := 0
	perRun := map[int]int{}
	meta, err := importer.Read(from, importer.Options{}, func(r importer.Record) error {
		perRun[r.Run]++
		return nil
	})
	if err != nil {
		return nil, "", "", err
	}
	counts = perRun[0]
	var dims []initDim
	for _, d := range meta.Dimensions {
		dims = append(dims, dimFromImport(d, counts, meta.Format))
	}
	if len(dims) == 0 {
		return nil, "", "", eval.Errorf(from, 0, "", "the file carries no scores to mirror; write the dimensions yourself (README: \"Dimensions\")")
	}
	if !slices.ContainsFunc(dims, func(d initDim) bool { return d.weighted }) {
		for i := range dims {
			dims[i].weighted = dims[i].key == "score" // promptfoo without named metrics: its test score
		}
	}
	return dims, from, string(meta.Format), nil
}

func dimFromImport(d importer.Dimension, records int, f importer.Format) initDim {
	dim := initDim{name: d.Key, key: d.Key, scale: d.Scale, weighted: true, optional: d.Count < records}
	switch {
	case f == importer.Promptfoo && d.Key == "success":
		dim.weighted, dim.note = false, "promptfoo's own pass verdict, kept beside evalgate's pass rule"
	case f == importer.Promptfoo && d.Key == "score":
		// the assertions' own dimensions carry the weight; the test score would count them twice
		dim.name, dim.note, dim.weighted = "pf_score", "promptfoo's weighted test score", false
	case slices.Contains(rubric.ReportItemKeys, d.Key):
		dim.name = string(f) + "_" + d.Key // a report item's own keys are no dimension names
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
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, eval.Errorf(path, 0, "", "cannot read: %v", err)
	}
	var cfg struct {
		DefaultTest struct {
			Assert []map[string]any `yaml:"assert"`
		} `yaml:"defaultTest"`
		Tests any `yaml:"tests"`
	}
	if err := yaml.Unmarshal(data, &cfg); err != nil {
		return nil, safeio.YAMLError(path, err)
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
		dims = append(dims, initDim{name: k, key: k, scale: "unit", weighted: true, optional: seen[k] < len(tests)})
	}
	dims = append(dims, initDim{name: "pf_score", key: "score", scale: "unit", weighted: len(dims) == 0, note: "promptfoo's weighted test score"},
		initDim{name: "success", key: "success", scale: "pass_fail", note: "promptfoo's own pass verdict, kept beside evalgate's pass rule"})
	return dims, nil
}

// lmResultsDims mirrors an lm-eval results_<date>.json: a dimension per per-sample
// metric (and filter), gating the samples file written beside it.
func lmResultsDims(path string) ([]initDim, string, string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, "", "", eval.Errorf(path, 0, "", "cannot read: %v", err)
	}
	var doc struct {
		Results map[string]map[string]any `json:"results"`
	}
	if err := json.Unmarshal(data, &doc); err != nil || doc.Results == nil {
		return nil, "", "", eval.Errorf(path, 0, "", "not an lm-eval results_<date>.json (no \"results\" object of tasks)")
	}
	tasks := make([]string, 0, len(doc.Results))
	for t := range doc.Results {
		tasks = append(tasks, t)
	}
	sort.Strings(tasks)
	if len(tasks) != 1 {
		return nil, "", "", eval.Errorf(path, 0, "", "the results hold %d tasks (%s); evalgate gates one task's samples per config: use `init --from samples_<task>_<date>.jsonl`", len(tasks), strings.Join(tasks, ", "))
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
		name := importer.Ident(metric)
		if len(filters) > 1 {
			name = importer.Ident(metric + "_" + filter)
		}
		dims = append(dims, initDim{name: name, key: name, scale: "unit", weighted: true})
	}
	if len(dims) == 0 {
		return nil, "", "", eval.Errorf(path, 0, "", "task %q has no per-sample metric to mirror", task)
	}
	return dims, samples, "lm-eval", nil
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

func initConfig(name, tool, from, results string, dims []initDim) string {
	initWeights(dims)
	var b strings.Builder
	fmt.Fprintf(&b, "# evalgate configuration, written by `evalgate init --from %s`. Paths are relative\n", from)
	fmt.Fprintf(&b, "# to this file. The dimensions mirror %s's own scores, read as `recorded` values.\n", tool)
	b.WriteString("# Reference: https://github.com/evalgate/evalgate#results-from-promptfoo-lm-eval-and-inspect-ai\n")
	fmt.Fprintf(&b, "name: %s # labels the reports, the pull-request comment and the baseline\n", name)
	fmt.Fprintf(&b, "results: [%s] # read as %s wrote it (each repeat or epoch is a run); the items come with it\n", yamlString(results), tool)
	fmt.Fprintf(&b, "baseline: baselines/%s.json # written by `evalgate baseline`; pull requests are compared with it\n\n", name)
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
		if d.optional {
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
