package importer

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/evalgate/evalgate/internal/eval"
)

// Inspect AI writes an EvalLog as `.json` — {"version", "status", "eval", "plan",
// "results", "stats", "error", "samples": [EvalSample...], "reductions"} — or as a `.eval`
// zip archive: _journal/start.json (version, eval, plan) when the run starts,
// samples/<id>_epoch_<n>.json as samples finish (a requeued sample's fresh record is
// appended under the same name: the last entry wins), _journal/summaries/<n>.json, and at
// the end summaries.json, reductions.json and header.json (the EvalLog without samples).
// An EvalSample has id, epoch, input (a string or chat messages), target, choices,
// output (completion, choices[].message.content, usage), scores ({scorer: {value,
// answer, explanation, metadata}}), model_usage, total_time, working_time, error and
// limit, plus a transcript (messages, events) evalgate does not need.

// inspectKeep are the sample keys evalgate reads; the transcript is skipped token by token.
var inspectKeep = map[string]bool{
	"id": true, "epoch": true, "input": true, "target": true, "choices": true, "output": true,
	"scores": true, "score": true, "model_usage": true, "total_time": true, "working_time": true,
	"error": true, "limit": true, "metadata": true,
}

// inspectSpec is the part of the log's `eval` spec the report shows.
type inspectSpec struct {
	Task        string         `json:"task"`
	TaskVersion any            `json:"task_version"`
	Model       string         `json:"model"`
	RunID       string         `json:"run_id"`
	Created     string         `json:"created"`
	Packages    map[string]any `json:"packages"`
	Config      struct {       // read leniently: only a warning comes of it
		Epochs        any `json:"epochs"`
		EpochsReducer any `json:"epochs_reducer"`
	} `json:"config"`
}

// reducerNote is the warning for a log whose epochs Inspect reduces otherwise than by
// their mean (max, mode, pass_at_k, ...): its metrics then differ from the mean over
// runs evalgate computes, and nothing else would say why. "" when there is none.
func (h *inspectHeader) reducerNote(p string) string {
	if h.Eval == nil {
		return ""
	}
	n, _ := h.Eval.Config.Epochs.(float64)
	list, _ := h.Eval.Config.EpochsReducer.([]any)
	var r []string
	for _, x := range list {
		if s, ok := x.(string); ok {
			r = append(r, s)
		}
	}
	if n < 2 || len(r) == 0 || len(r) == 1 && r[0] == "mean" {
		return ""
	}
	return fmt.Sprintf("%s: Inspect reduces each sample's %v epochs with %s before its metrics; evalgate reads each epoch as a run and takes each item's mean over its epochs, so the log's own figures for other reducers differ", p, n, strings.Join(r, ", "))
}

type inspectHeader struct {
	Status  string       `json:"status"`
	Eval    *inspectSpec `json:"eval"`
	Results any          `json:"results"` // read leniently: only legacyScorer comes of it
}

// legacyScorer is the name a sample's lone `score` (logs written before Inspect scored
// with several scorers) is read under: as Inspect reads it, the log's first scorer
// (results.scores[0], or the older results.scorer), else "score".
func legacyScorer(results any) string {
	r, _ := results.(map[string]any)
	first, _ := r["scorer"].(map[string]any)
	if list, _ := r["scores"].([]any); len(list) > 0 {
		first, _ = list[0].(map[string]any)
	}
	if name, _ := first["name"].(string); name != "" {
		return name
	}
	return "score"
}

func (h *inspectHeader) meta(m *Meta) {
	if h.Eval == nil {
		return
	}
	set := func(k, v string) {
		if v != "" {
			m.Metadata[k] = v
		}
	}
	set("model_id", h.Eval.Model)
	set("prompt_template_id", h.Eval.Task) // the task defines the prompt
	if h.Eval.TaskVersion != nil {
		set("prompt_template_version_or_hash", fmt.Sprint(h.Eval.TaskVersion))
	}
	set("inspect_run_id", h.Eval.RunID)
	if v, ok := h.Eval.Packages["inspect_ai"].(string); ok {
		set("inspect_version", v)
	}
}

func readInspect(p string, opts *Options, emit func(Record) error) (*Meta, error) {
	head, err := readHead(p, len(zipMagic))
	if err != nil {
		return nil, err
	}
	if isZip(head) {
		return readInspectZip(p, opts, emit)
	}
	return readInspectJSON(p, opts, emit)
}

// inspectState converts samples and tracks what the whole log needs.
type inspectState struct {
	file   string
	model  string
	scorer string // a legacy sample's `score` is this scorer's (legacyScorer)
	notes  usageNotes
	dims   dimTracker
	emit   func(Record) error
	n      int
	ahead  *ahead // decodes the samples' kept fields on every core (start, finish)
	kept   []byte
}

// start begins a run of samples: converted on the decoding cores as they are decoded
// (inspectConverted), and handed on in order until finish.
func (s *inspectState) start() {
	prep := func(_ int, where string, raw map[string]any) any {
		c := &inspectConverted{}
		c.fields, c.run, c.err = inspectConvert(s.file, where, raw, s.model, s.scorer, &c.notes)
		return c
	}
	s.ahead = newAhead(s.file, keys{}, prep, func(_ int, where string, _ map[string]any, p any) error {
		c := p.(*inspectConverted)
		if c.err != nil {
			return c.err
		}
		s.notes.merge(&c.notes)
		if sc, ok := c.fields["scores"].(map[string]any); ok {
			s.dims.see(sc)
		}
		s.n++
		return s.emit(Record{Run: c.run, Where: where, Fields: c.fields})
	})
}

// inspectConverted is a sample converted on a decoding core, with what the whole log's
// notes need of it.
type inspectConverted struct {
	fields map[string]any
	run    int
	err    error
	notes  usageNotes
}

// finish waits for the samples read to be converted; err is the reader's.
func (s *inspectState) finish(err error) error { return s.ahead.close(err) }

// sample finds the sample's fields evalgate reads (the transcript is skipped as it is
// read) and hands them to be decoded and converted.
func (s *inspectState) sample(d *docDecoder, where string) error {
	var err error
	s.kept, err = inspectKept(d, where, s.kept[:0])
	if err != nil {
		return err
	}
	return s.ahead.add(0, where, aheadFields, s.kept)
}

func readInspectJSON(p string, opts *Options, emit func(Record) error) (*Meta, error) {
	f, err := openInput(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	d := newDocDecoder(p, f)
	meta := &Meta{Format: Inspect, SuiteFields: true, Metadata: map[string]string{}}
	var h inspectHeader
	st := &inspectState{file: p, emit: emit, scorer: legacyScorer(nil)}
	hasSamples := false
	err = d.object("", func(key string) error {
		switch key {
		case "status":
			return d.decode(key, &h.Status)
		case "eval":
			h.Eval = &inspectSpec{}
			if err := d.decode(key, h.Eval); err != nil {
				return err
			}
			st.model = h.Eval.Model
			return nil
		case "results": // before the samples, in the order Inspect writes a log
			if c, ok := d.ws(); !ok || c != '{' {
				return d.skip(key)
			}
			r := map[string]any{} // its scorers alone: older logs keep every sample's reductions here too
			err := d.object(key, func(k string) error {
				if k != "scorer" && k != "scores" {
					return d.skip(key + "." + k)
				}
				var v any
				if err := d.decode(key+"."+k, &v); err != nil {
					return err
				}
				r[k] = v
				return nil
			})
			st.scorer = legacyScorer(r)
			return err
		case "samples":
			hasSamples = true
			st.start()
			return st.finish(d.array("samples", func(i int) error {
				return st.sample(d, fmt.Sprintf("samples[%d]", i))
			}))
		}
		return d.skip(key)
	})
	if err != nil {
		return nil, err
	}
	if !hasSamples || st.n == 0 {
		return nil, eval.Errorf(p, 0, "", "the log holds no samples (was it written with --no-log-samples?)")
	}
	inspectFinish(p, opts, &h, meta, st)
	return meta, nil
}

func inspectFinish(p string, opts *Options, h *inspectHeader, meta *Meta, st *inspectState) {
	h.meta(meta)
	switch {
	case h.Eval == nil:
		meta.Incomplete = true
		opts.warn("%s: the log has no header (still being written, or interrupted): read %d sample(s) as they are; the results may be incomplete", p, st.n)
	case h.Status != "" && h.Status != "success":
		meta.Incomplete = h.Status == "started"
		opts.warn("%s: the log's status is %q: read %d sample(s); the results may be incomplete", p, h.Status, st.n)
	}
	if note := h.reducerNote(p); note != "" {
		opts.warn("%s", note)
	}
	meta.Dimensions = st.dims.list()
	st.notes.warn(opts, p, st.model)
}

// inspectConvert maps one EvalSample to an evalgate results record and its run (epoch − 1).
//
// The record's tokens are the evaluated model's (model, the log's eval.model): the
// sample's model_usage entry for it, else its only entry; the names of other models whose
// usage is left out (a grader's) go into notes. Its model is that entry's name.
func inspectConvert(file, where string, s map[string]any, model, scorer string, notes *usageNotes) (map[string]any, int, error) {
	rawID, ok := s["id"]
	if !ok {
		return nil, 0, errAt(file, 0, where, "", "sample has no \"id\"")
	}
	var id string
	switch x := rawID.(type) {
	case string:
		id = x
	case float64:
		id = strconv.FormatFloat(x, 'f', -1, 64)
	}
	if strings.TrimSpace(id) == "" {
		return nil, 0, errAt(file, 0, where, "", "%s", fieldErr("id", rawID, "a string or a number"))
	}
	bad := func(field string, v any, want string) error {
		return errAt(file, 0, where, id, "%s", fieldErr(field, v, want))
	}
	evalModel := model
	run := 0
	if e, ok := s["epoch"]; ok && e != nil {
		n, ok := e.(float64)
		if !ok || n < 1 || n != float64(int(n)) || n > 1e6 {
			return nil, 0, bad("epoch", e, "a whole number ≥ 1")
		}
		run = int(n) - 1
	}
	out := make(map[string]any, 16) // room for every field a sample gives without growing
	out["id"] = id
	if e, ok := s["error"]; ok && e != nil {
		switch x := e.(type) {
		case string:
			out["error"] = x
		case map[string]any:
			msg, _ := x["message"].(string)
			if msg == "" {
				msg = "error"
			}
			out["error"] = msg
		default:
			return nil, 0, bad("error", e, "an object with \"message\"")
		}
	}
	rawScores := s["scores"]
	if old, ok := s["score"]; ok && old != nil && rawScores == nil {
		rawScores = map[string]any{scorer: old} // a legacy log's one result
	}
	scores, scoreNotes, err := inspectScores(rawScores)
	if err != nil {
		return nil, 0, errAt(file, 0, where, id, "%v", err)
	}
	// A sample limit is not an error to Inspect: the sample stops early and is still
	// scored, and its metrics count the score. Only a sample the limit left unscored fails.
	if l, ok := s["limit"].(map[string]any); ok && len(scores) == 0 {
		typ, _ := l["type"].(string)
		if typ == "time" || typ == "working" {
			out["timed_out"] = true
		} else if out["error"] == nil {
			out["error"] = "limit reached: " + typ
		}
	}
	o, hasOut := s["output"]
	if hasOut && o != nil {
		om, ok := o.(map[string]any)
		if !ok {
			return nil, 0, bad("output", o, "an object (ModelOutput)")
		}
		text, err := inspectCompletion(om)
		if err != nil {
			return nil, 0, errAt(file, 0, where, id, "output: %v", err)
		}
		out["output"] = text
		if m, ok := om["model"].(string); ok && m != "" {
			model = m
		}
		if u, ok := om["usage"].(map[string]any); ok {
			if err := inspectTokens(u, out); err != nil {
				return nil, 0, errAt(file, 0, where, id, "output.usage: %v", err)
			}
		}
	} else if out["error"] == nil && out["timed_out"] == nil {
		return nil, 0, errAt(file, 0, where, id, "sample has no \"output\" and no \"error\"")
	}
	if mu, ok := s["model_usage"].(map[string]any); ok && len(mu) > 0 {
		name, err := inspectModelUsage(mu, evalModel, out, notes)
		if err != nil {
			return nil, 0, errAt(file, 0, where, id, "%v", err)
		}
		model = name
	}
	for src, dst := range map[string]string{"total_time": "latency_e2e_ms", "working_time": "latency_model_ms"} {
		if v, ok := s[src]; ok && v != nil {
			n, ok := v.(float64)
			if !ok || n < 0 {
				return nil, 0, bad(src, v, "a number of seconds ≥ 0")
			}
			out[dst] = n * 1000
		}
	}
	if model != "" {
		out["model"] = model
	}
	if len(scores) > 0 {
		out["scores"] = scores
	}
	if len(scoreNotes) > 0 {
		out["score_notes"] = scoreNotes
	}
	if in, ok := s["input"]; ok {
		text, err := inspectInput(in)
		if err != nil {
			return nil, 0, errAt(file, 0, where, id, "input: %v", err)
		}
		out["prompt"] = text
	}
	if t, ok := s["target"]; ok && t != nil {
		switch t.(type) {
		case string, []any:
			out["expected"] = t
		default:
			return nil, 0, bad("target", t, "a string or a list of strings")
		}
	}
	for _, k := range []string{"choices", "metadata"} {
		if v, ok := s[k]; ok && v != nil {
			out[k] = v
		}
	}
	for k, v := range out { // a `.eval` sample's strings are its whole member's: keep none of it
		if k != "scores" && k != "score_notes" { // built here, its strings copied
			out[k] = unpin(v)
		}
	}
	return out, run, nil
}

// inspectTokens reads one ModelUsage into out's input_tokens, output_tokens and
// cached_input_tokens. Inspect records what the provider reports: OpenAI's input_tokens
// include the cache reads (input_tokens_cache_read is a part of them, total_tokens =
// input + output), Anthropic's leave the cache reads and writes out (total_tokens =
// input + cache writes + cache reads + output). evalgate's input_tokens hold every input
// token, cached_input_tokens the cache reads among them; a cache write is counted as an
// ordinary input token.
func inspectTokens(u map[string]any, out map[string]any) error {
	t, err := readTokens(u)
	if err != nil {
		return err
	}
	t.put(out)
	return nil
}

// tokens are one ModelUsage's counts as evalgate records them (inspectTokens).
type tokens struct {
	in, out, cached    float64
	hasIn, hasOut, any bool
}

// put sets out's input_tokens, output_tokens and cached_input_tokens from t.
func (t tokens) put(out map[string]any) {
	if t.hasOut {
		out["output_tokens"] = t.out
	}
	if t.hasIn {
		out["input_tokens"] = t.in
		if t.cached > 0 {
			out["cached_input_tokens"] = t.cached
		}
	}
}

// usageKeys are the ModelUsage fields readTokens reads, in the order of its array.
var usageKeys = [...]string{"input_tokens", "output_tokens", "total_tokens", "input_tokens_cache_read", "input_tokens_cache_write"}

func readTokens(u map[string]any) (tokens, error) {
	var n [len(usageKeys)]float64
	var has [len(usageKeys)]bool
	for i, k := range usageKeys {
		v, ok := u[k]
		if !ok || v == nil {
			continue
		}
		x, ok := v.(float64)
		if !ok || x < 0 || x != float64(int64(x)) {
			return tokens{}, fmt.Errorf("field %q is %v; want a whole number ≥ 0", k, v)
		}
		n[i], has[i] = x, true
	}
	t := tokens{hasOut: has[1], out: n[1], hasIn: has[0]}
	if !t.hasIn {
		return t, nil
	}
	input, total, read, write := n[0], n[2], n[3], n[4]
	apart := read+write > 0 && total == input+n[1]+read+write
	if read > input && total == 0 {
		apart = true // no total to tell by: cache reads above the input cannot be a part of it
	}
	if apart {
		input += read + write
	}
	if read > input {
		return tokens{}, fmt.Errorf("field \"input_tokens_cache_read\" is %v, more than the %v input tokens", read, input)
	}
	t.in, t.cached = input, read
	return t, nil
}

// usageNotes collect what a log's model_usage left out or summed, for one warning each.
type usageNotes struct {
	leftOut map[string]bool // models other than the evaluated one (a grader's)
	summed  map[string]bool // models summed where the evaluated one had no entry
}

func (n *usageNotes) add(set *map[string]bool, name string) {
	if *set == nil {
		*set = map[string]bool{}
	}
	(*set)[name] = true
}

// merge adds o's notes to n's.
func (n *usageNotes) merge(o *usageNotes) {
	for k := range o.leftOut {
		n.add(&n.leftOut, k)
	}
	for k := range o.summed {
		n.add(&n.summed, k)
	}
}

// warn reports what the notes collected.
func (n *usageNotes) warn(opts *Options, file, model string) {
	if len(n.leftOut) > 0 {
		opts.warn("%s: the tokens (and cost) of %s in model_usage are left out; the results count the evaluated model %s", file, strings.Join(sortedKeys(n.leftOut), ", "), model)
	}
	if len(n.summed) > 0 && model == "" {
		opts.warn("%s: the log names no evaluated model; each sample's tokens are summed over the models in its model_usage (%s)", file, strings.Join(sortedKeys(n.summed), ", "))
	} else if len(n.summed) > 0 {
		opts.warn("%s: some samples' model_usage has no entry for the evaluated model %q; their tokens are summed over %s", file, model, strings.Join(sortedKeys(n.summed), ", "))
	}
}

// inspectModelUsage sets out's tokens from a sample's model_usage: the entry of the
// evaluated model, else the only entry, else the sum of all; it returns the model the
// tokens are priced at.
func inspectModelUsage(mu map[string]any, model string, out map[string]any, notes *usageNotes) (string, error) {
	names := []string{model}
	if _, ok := mu[model]; !ok {
		names = sortedKeys(mu)
	}
	var sum tokens
	for _, name := range names {
		u, ok := mu[name].(map[string]any)
		if !ok {
			return "", fmt.Errorf("%s", fieldErr("model_usage."+name, mu[name], "an object"))
		}
		t, err := readTokens(u)
		if err != nil {
			return "", fmt.Errorf("model_usage.%s: %v", name, err)
		}
		sum.in, sum.out, sum.cached = sum.in+t.in, sum.out+t.out, sum.cached+t.cached
		sum.hasIn, sum.hasOut = sum.hasIn || t.hasIn, sum.hasOut || t.hasOut
	}
	for _, k := range []string{"input_tokens", "output_tokens", "cached_input_tokens"} {
		delete(out, k) // the sample's whole usage replaces its last call's
	}
	sum.put(out)
	switch {
	case len(names) == 1 && names[0] == model:
		for k := range mu {
			if k != model {
				notes.add(&notes.leftOut, strings.Clone(k))
			}
		}
	case len(names) == 1:
		return names[0], nil
	default:
		for _, k := range names {
			notes.add(&notes.summed, strings.Clone(k))
		}
	}
	return model, nil
}

// inspectCompletion is output.completion, or the text of the first choice's message.
func inspectCompletion(o map[string]any) (string, error) {
	if c, ok := o["completion"].(string); ok && c != "" {
		return c, nil
	}
	choices, _ := o["choices"].([]any)
	if len(choices) == 0 {
		return "", nil
	}
	ch, _ := choices[0].(map[string]any)
	msg, _ := ch["message"].(map[string]any)
	if msg == nil {
		return "", fmt.Errorf("choices[0] has no \"message\"")
	}
	return contentText(msg["content"])
}

// contentText is a message's text: a string, or the text parts of a content list.
func contentText(c any) (string, error) {
	switch x := c.(type) {
	case string:
		return x, nil
	case nil:
		return "", nil
	case []any:
		var parts []string
		for _, p := range x {
			pm, ok := p.(map[string]any)
			if !ok {
				continue
			}
			if t, ok := pm["text"].(string); ok {
				parts = append(parts, t)
			}
		}
		return strings.Join(parts, "\n"), nil
	}
	return "", fmt.Errorf("content is %s; want a string or a list of content parts", eval.Describe(c))
}

// inspectInput is the sample's input as text: the string, or each message as "role: text".
func inspectInput(in any) (string, error) {
	switch x := in.(type) {
	case string:
		return x, nil
	case []any:
		var b strings.Builder
		for i, m := range x {
			mm, ok := m.(map[string]any)
			if !ok {
				return "", fmt.Errorf("message %d is %s; want an object", i, eval.Describe(m))
			}
			text, err := contentText(mm["content"])
			if err != nil {
				return "", fmt.Errorf("message %d: %v", i, err)
			}
			if b.Len() > 0 {
				b.WriteString("\n\n")
			}
			if role, _ := mm["role"].(string); role != "" && len(x) > 1 {
				b.WriteString(role + ": ")
			}
			b.WriteString(text)
		}
		return b.String(), nil
	}
	return "", fmt.Errorf("is %s; want a string or a list of chat messages", eval.Describe(in))
}

// inspectScores maps each scorer's value to recorded numbers; a dict value gives one
// dimension per key ("<scorer>_<key>"), a list one per position.
//
// notes are the scorer's explanation (score_notes) for each of its values below 1
// (Inspect's I and P, a failing 0–1 score, a NaN recorded as null): a full score's
// explanation says nothing the reviewer needs and is not kept.
func inspectScores(v any) (out, notes map[string]any, err error) {
	if v == nil {
		return nil, nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, nil, fmt.Errorf("%s", fieldErr("scores", v, "an object of scorer results"))
	}
	out, notes = map[string]any{}, map[string]any{}
	for _, name := range sortedKeys(m) {
		sc, ok := m[name].(map[string]any)
		if !ok {
			return nil, nil, fmt.Errorf("scores.%s is %s; want an object with \"value\"", name, eval.Describe(m[name]))
		}
		val, ok := sc["value"]
		if !ok {
			return nil, nil, fmt.Errorf("scores.%s has no \"value\"", name)
		}
		why, _ := sc["explanation"].(string)
		put := func(key string, f any) {
			out[key] = f
			if n, ok := f.(float64); why != "" && (!ok || n < 1) {
				notes[key] = strings.Clone(eval.ClipNote(why))
			}
		}
		key := strings.Clone(Ident(name))
		switch x := val.(type) {
		case map[string]any:
			for _, k := range sortedKeys(x) {
				f, err := inspectValue(x[k])
				if err != nil {
					return nil, nil, fmt.Errorf("scores.%s.value.%s %v", name, k, err)
				}
				put(strings.Clone(Ident(key+"_"+k)), f)
			}
		case []any:
			for i, e := range x {
				f, err := inspectValue(e)
				if err != nil {
					return nil, nil, fmt.Errorf("scores.%s.value[%d] %v", name, i, err)
				}
				put(fmt.Sprintf("%s_%d", key, i), f)
			}
		default:
			f, err := inspectValue(val)
			if err != nil {
				return nil, nil, fmt.Errorf("scores.%s.value %v", name, err)
			}
			put(key, f)
		}
	}
	return out, notes, nil
}
