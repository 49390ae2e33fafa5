package importer

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/evalgate/evalgate/internal/eval"
)

// lm-evaluation-harness with --log_samples writes samples_<task>_<date>.jsonl beside
// results_<date>.json. Each line is one document under one filter: doc_id, doc, target,
// arguments ({"gen_args_0": {"arg_0": context, "arg_1": continuation or gen_kwargs}},
// or the older list of argument lists), resps and filtered_resps (strings for
// generate_until; [loglikelihood, is_greedy] pairs, as strings, for multiple choice),
// filter, metrics (the metric names, in newer versions), doc_hash, prompt_hash,
// target_hash, and one key per metric (exact_match, acc, acc_norm, ...).

var (
	lmSamplesName = regexp.MustCompile(`^samples_(.+?)_(\d{4}-\d{2}-\d{2}T[0-9.\-]+)\.jsonl$`)
	// lmBookkeeping are a sample's keys that are not metrics.
	lmBookkeeping = map[string]bool{
		"doc_id": true, "doc": true, "target": true, "arguments": true, "resps": true,
		"filtered_resps": true, "filter": true, "metrics": true, "doc_hash": true,
		"prompt_hash": true, "target_hash": true, "task_name": true,
	}
	// lmCorpusLevel are metrics whose per-sample value means nothing alone: the harness
	// aggregates them over the corpus (perplexity is exp of the mean loglikelihood, bleu,
	// chrf and ter are computed over all pairs).
	lmCorpusLevel = map[string]bool{
		"perplexity": true, "word_perplexity": true, "byte_perplexity": true,
		"bits_per_byte": true, "bleu": true, "chrf": true, "ter": true,
	}
)

// lmTask is the task name from the file name, or the base name without extension.
func lmTask(path string) (task, date string) {
	base := trimCompressed(filepath.Base(path))
	if m := lmSamplesName.FindStringSubmatch(base); m != nil {
		return m[1], m[2]
	}
	name := strings.TrimSuffix(base, filepath.Ext(base))
	return strings.TrimPrefix(name, "samples_"), ""
}

type lmDoc struct {
	line   int
	fields map[string]any
	scores map[string]any
}

// readLMEval reads lm-eval samples. A file with one filter (or read for one, with
// --lm-eval-filter) gives a record per line; with several, each doc's lines are merged
// into one record (a dimension per metric and filter), so they wait in memory until the
// end. Which one only the whole file tells: a reader that can start again
// (Options.onePass) takes the file for a one-filter file until a second filter shows up,
// then stops with errRereadMerged and is asked again knowing (Options.lmMerged); any
// other reader first reads the filters.
func readLMEval(path string, opts *Options, emit func(Record) error) (*Meta, error) {
	task, date := lmTask(path)
	var filters []string
	seenFilter := map[string]bool{}
	see := func(line int, rec map[string]any) (string, error) {
		f, err := lmFilter(path, line, rec)
		if err != nil {
			return "", err
		}
		if !seenFilter[f] {
			seenFilter[f] = true
			filters = append(filters, f)
		}
		return f, nil
	}
	if !opts.onePass && !opts.lmMerged && opts.Filter == "" {
		if err := lmLines(path, lmFilterKey, func(line int, rec map[string]any) error {
			_, err := see(line, rec)
			return err
		}); err != nil {
			return nil, err
		}
		opts.lmMerged = len(filters) > 1
	}
	merged := opts.lmMerged && opts.Filter == ""
	meta := &Meta{Format: LMEval, SuiteFields: true, Metadata: map[string]string{"prompt_template_id": task}}
	model, err := lmResultsMeta(path, date, task, opts, meta)
	if err != nil {
		return nil, err
	}
	var dims dimTracker
	warned := map[string]bool{}
	docs := map[float64]*lmDoc{}
	var order []float64
	pairs := map[string]bool{} // doc_id and filter already read
	err = lmLines(path, lmReadKeys, func(line int, rec map[string]any) error {
		filter, err := see(line, rec)
		if err != nil {
			return err
		}
		if opts.Filter != "" && filter != opts.Filter {
			return nil
		}
		if !merged && opts.Filter == "" && len(filters) > 1 {
			return errRereadMerged
		}
		docID, err := lmDocID(path, line, rec)
		if err != nil {
			return err
		}
		id := task + ":" + strconv.FormatFloat(docID, 'f', -1, 64)
		scores, err := lmScores(path, line, id, rec, func(metric, why string) {
			if !warned[metric] {
				warned[metric] = true
				opts.warn("%s: metric %q is %s: skipped (gate on the harness's results_*.json figure instead)", path, metric, why)
			}
		})
		if err != nil {
			return err
		}
		if !merged {
			fields, err := lmFields(path, line, id, rec, model)
			if err != nil {
				return err
			}
			if len(scores) > 0 {
				fields["scores"] = scores
			}
			dims.see(scores)
			return emit(Record{Line: line, Fields: fields})
		}
		d, ok := docs[docID]
		if !ok {
			fields, err := lmFields(path, line, id, rec, model)
			if err != nil {
				return err
			}
			d = &lmDoc{line: line, fields: fields, scores: map[string]any{}}
			docs[docID] = d
			order = append(order, docID)
		}
		pair := id + "\x00" + filter
		if pairs[pair] {
			return eval.Errorf(path, line, id, "doc_id %v appears twice under filter %q", docID, filter)
		}
		pairs[pair] = true
		if ans, ok := lmAnswer(rec); ok {
			d.fields["answer_"+Ident(filter)] = ans
		}
		for k, v := range scores {
			d.scores[lmSuffixKey(k, filter)] = v
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if opts.Filter != "" && !seenFilter[opts.Filter] {
		return nil, eval.Errorf(path, 0, "", "--lm-eval-filter %q: the samples have no such filter; they have %s", opts.Filter, strings.Join(quoteAll(filters), ", "))
	}
	if merged {
		opts.warn("%s: %d filters (%s): each metric becomes one dimension per filter, e.g. METRIC_%s; choose one with --lm-eval-filter", path, len(filters), strings.Join(filters, ", "), Ident(filters[0]))
	}
	for _, id := range order {
		d := docs[id]
		if len(d.scores) > 0 {
			d.fields["scores"] = d.scores
		}
		dims.see(d.scores)
		if err := emit(Record{Line: d.line, Fields: d.fields}); err != nil {
			return nil, err
		}
	}
	meta.Dimensions = dims.list()
	return meta, nil
}

// trimCompressed drops a compressed file's .gz or .zst from its name.
func trimCompressed(name string) string {
	return strings.TrimSuffix(strings.TrimSuffix(name, ".gz"), ".zst")
}

func lmSuffixKey(metric, filter string) string { return Ident(metric + "_" + filter) }

func quoteAll(s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = strconv.Quote(x)
	}
	return out
}

// The keys of a sample each pass reads: the first only its filter; the second all but
// the hashes (a sample's metrics are keys named by its "metrics" list).
var (
	lmFilterKey = keySet("filter")
	lmReadKeys  = keys{top: func(k string) bool { return k != "doc_hash" && k != "prompt_hash" && k != "target_hash" }}
)

func lmLines(path string, keep keys, fn func(line int, rec map[string]any) error) error {
	f, err := openInput(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return jsonLines(path, f, keep, fn)
}

func lmFilter(path string, line int, rec map[string]any) (string, error) {
	v, ok := rec["filter"]
	if !ok || v == nil {
		return "none", nil
	}
	s, ok := v.(string)
	if !ok || s == "" {
		return "", eval.Errorf(path, line, "", "%s", fieldErr("filter", v, "a filter name"))
	}
	return s, nil
}

func lmDocID(path string, line int, rec map[string]any) (float64, error) {
	v, ok := rec["doc_id"]
	if !ok {
		return 0, eval.Errorf(path, line, "", "record has no \"doc_id\"; is this an lm-eval samples_<task>_<date>.jsonl file?")
	}
	n, ok := v.(float64)
	if !ok || n < 0 || n != float64(int64(n)) {
		return 0, eval.Errorf(path, line, "", "%s", fieldErr("doc_id", v, "a whole number ≥ 0"))
	}
	return n, nil
}

// lmScores collects the per-sample metrics as recorded values; corpus-level ones are
// reported through skip and left out.
func lmScores(path string, line int, id string, rec map[string]any, skip func(metric, why string)) (map[string]any, error) {
	var names []string
	if list, ok := rec["metrics"].([]any); ok {
		for _, m := range list {
			if s, ok := m.(string); ok {
				names = append(names, s)
			}
		}
	} else {
		for _, k := range sortedKeys(rec) {
			if !lmBookkeeping[k] {
				names = append(names, k)
			}
		}
	}
	scores := map[string]any{}
	for _, name := range names {
		v, ok := rec[name]
		if !ok {
			return nil, eval.Errorf(path, line, id, "metric %q is listed in \"metrics\" but the record has no such field", name)
		}
		if lmCorpusLevel[name] {
			skip(name, "corpus-level")
			continue
		}
		switch x := v.(type) {
		case float64:
			scores[Ident(name)] = x
		case bool:
			scores[Ident(name)] = map[bool]float64{true: 1, false: 0}[x]
		case nil:
			scores[Ident(name)] = nil
		case []any, map[string]any:
			skip(name, "not a number per sample (the harness aggregates it over the corpus)")
		default:
			return nil, eval.Errorf(path, line, id, "metric %q is %s; want a number", name, eval.Describe(v))
		}
	}
	return scores, nil
}

// lmFields maps the sample's own fields: output, prompt, expected, the document.
func lmFields(path string, line int, id string, rec map[string]any, model string) (map[string]any, error) {
	out := map[string]any{"id": id}
	args := lmArguments(rec["arguments"])
	resps, hasResps := rec["resps"]
	filtered, hasFiltered := rec["filtered_resps"]
	if !hasResps && !hasFiltered {
		return nil, eval.Errorf(path, line, id, "record has no \"resps\" or \"filtered_resps\"; want the model's responses")
	}
	if choice, ok := lmChoice(filtered); ok {
		// multiple choice: the answer is the continuation with the highest loglikelihood
		out["output"] = strconv.Itoa(choice)
		if choice < len(args) && len(args[choice]) > 1 {
			if s, ok := args[choice][1].(string); ok {
				out["output"] = strings.TrimSpace(s)
			}
		}
		out["choice"] = float64(choice)
	} else if s, ok := firstString(resps); ok {
		out["output"] = s
	} else if s, ok := firstString(filtered); ok {
		out["output"] = s
	} else {
		return nil, eval.Errorf(path, line, id, "field \"resps\" holds no response text or [loglikelihood, is_greedy] pairs")
	}
	if ans, ok := lmAnswer(rec); ok {
		out["answer"] = ans
	}
	if len(args) > 0 && len(args[0]) > 0 {
		if s, ok := args[0][0].(string); ok {
			out["prompt"] = s
		}
	}
	if t, ok := rec["target"]; ok && t != nil {
		switch x := t.(type) {
		case string:
			out["expected"] = x
		case float64:
			out["expected"] = strconv.FormatFloat(x, 'f', -1, 64)
		case []any:
			out["expected"] = x
		default:
			b, _ := json.Marshal(x)
			out["expected"] = string(b)
		}
	}
	if d, ok := rec["doc"]; ok {
		out["doc"] = d
	}
	if model != "" {
		out["model"] = model
	}
	return out, nil
}

// lmAnswer is the filtered answer of a generate_until sample.
func lmAnswer(rec map[string]any) (string, bool) {
	if _, mc := lmChoice(rec["filtered_resps"]); mc {
		return "", false
	}
	return firstString(rec["filtered_resps"])
}

// lmArguments normalizes both shapes of `arguments` to a list of argument lists.
func lmArguments(v any) [][]any {
	switch x := v.(type) {
	case []any:
		var out [][]any
		for _, a := range x {
			if l, ok := a.([]any); ok {
				out = append(out, l)
			}
		}
		return out
	case map[string]any:
		var out [][]any
		for i := 0; ; i++ {
			g, ok := x[fmt.Sprintf("gen_args_%d", i)].(map[string]any)
			if !ok {
				return out
			}
			var l []any
			for j := 0; ; j++ {
				a, ok := g[fmt.Sprintf("arg_%d", j)]
				if !ok {
					break
				}
				l = append(l, a)
			}
			out = append(out, l)
		}
	}
	return nil
}

// lmChoice reads multiple-choice responses, [[ll, is_greedy], ...] (numbers or, as the
// harness writes them, strings), and returns the index of the highest loglikelihood.
func lmChoice(v any) (int, bool) {
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		return 0, false
	}
	best, bestLL := -1, 0.0
	for i, e := range list {
		pair, ok := e.([]any)
		for ok && len(pair) == 1 { // resps nest one level deeper: [[[ll, greedy]]]
			pair, ok = pair[0].([]any)
		}
		if !ok || len(pair) != 2 {
			return 0, false
		}
		ll, ok := toNumber(pair[0])
		if !ok {
			return 0, false
		}
		if best < 0 || ll > bestLL {
			best, bestLL = i, ll
		}
	}
	return best, true
}

func toNumber(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case string:
		f, err := strconv.ParseFloat(x, 64)
		return f, err == nil
	}
	return 0, false
}

// firstString unwraps nested lists to the first string: resps are [[text]], filtered
// responses [text].
func firstString(v any) (string, bool) {
	for {
		switch x := v.(type) {
		case string:
			return x, true
		case []any:
			if len(x) == 0 {
				return "", false
			}
			v = x[0]
		default:
			return "", false
		}
	}
}

// lmResultsMeta reads the task's results_<date>.json (the one given, or the one beside
// the samples file) for the model and version metadata; it returns the model name.
func lmResultsMeta(path, date, task string, opts *Options, meta *Meta) (string, error) {
	rpath := opts.LMEvalResults
	if rpath == "" {
		if date == "" {
			return "", nil
		}
		rpath = ""
		for _, ext := range []string{".json", ".json.gz", ".json.zst"} {
			p := filepath.Join(filepath.Dir(path), "results_"+date+ext)
			if _, err := os.Stat(p); err == nil {
				rpath = p
				break
			}
		}
		if rpath == "" {
			return "", nil
		}
	}
	f, err := openInput(rpath)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var doc struct {
		ModelName     string         `json:"model_name"`
		LMEvalVersion string         `json:"lm_eval_version"`
		GitHash       string         `json:"git_hash"`
		Date          any            `json:"date"`
		Versions      map[string]any `json:"versions"`
		NShot         map[string]any `json:"n-shot"`
		Config        map[string]any `json:"config"`
		Results       map[string]any `json:"results"`
	}
	d := newDocDecoder(rpath, f)
	if err := d.decode("", &doc); err != nil {
		return "", err
	}
	if doc.Results == nil {
		return "", eval.Errorf(rpath, 0, "", "no \"results\" object; want lm-eval's results_<date>.json")
	}
	model := doc.ModelName
	if model == "" && doc.Config != nil {
		if s, ok := doc.Config["model_args"].(string); ok {
			model = s
		}
	}
	set := func(k, v string) {
		if v != "" {
			meta.Metadata[k] = v
		}
	}
	set("model_id", model)
	set("lm_eval_version", doc.LMEvalVersion)
	set("lm_eval_git_hash", doc.GitHash)
	if v, ok := doc.Versions[task]; ok && v != nil {
		set("prompt_template_version_or_hash", fmt.Sprint(v)) // the task's version: its prompt
	}
	if v, ok := doc.NShot[task]; ok && v != nil {
		set("n_shot", fmt.Sprint(v))
	}
	if doc.Config != nil {
		if s, ok := doc.Config["model_args"].(string); ok {
			set("model_args", s)
			for _, kv := range strings.Split(s, ",") {
				if rev, ok := strings.CutPrefix(kv, "revision="); ok {
					set("model_version", rev)
				}
			}
		}
	}
	return model, nil
}
