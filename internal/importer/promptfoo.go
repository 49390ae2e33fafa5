package importer

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/jsonenc"
)

// promptfoo writes `-o results.json` as one document, {"evalId", "results": {"version",
// "prompts", "results": [EvaluateResult...], "stats"}, "config", ...}, and `-o
// results.jsonl` as one EvaluateResult a line. An EvaluateResult holds testCase (vars,
// description, metadata), prompt, provider, response (output, tokenUsage), latencyMs,
// cost, success, score, namedScores, gradingResult (componentResults) and error with
// failureReason (1: an assertion failed, 2: the provider or a grader errored).

// promptfoo's ResultFailureReason.ERROR: the test could not run or be graded.
const pfFailureError = 2

// pfRecords calls fn with every EvaluateResult in the file, in file order, whichever of
// the two shapes the file has, and with what prep (nil: none) made of it on the decoding
// cores (see ahead).
func pfRecords(path string, keep keys, prep func(line int, where string, rec map[string]any) any, fn func(line int, where string, rec map[string]any, prepped any) error) error {
	doc, err := pfIsDocument(path)
	if err != nil {
		return err
	}
	f, err := openInput(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if !doc {
		return jsonLinesPrep(path, f, keep, prep, func(line int, rec map[string]any, p any) error {
			return fn(line, "", rec, p)
		})
	}
	d := newDocDecoder(path, f)
	found := false
	err = d.object("", func(key string) error {
		if key != "results" {
			return d.skip(key)
		}
		return d.object("results", func(key string) error {
			switch key {
			case "version":
				var v any
				if err := d.decode("results.version", &v); err != nil {
					return err
				}
				if n, ok := v.(float64); ok && n < pfOldestFormat {
					return eval.Errorf(path, 0, "", "is a promptfoo export in results format version %v, written by a promptfoo older than %s; evalgate reads format version %d and later (promptfoo %s to %s are tested): run the eval again with a newer promptfoo (npx promptfoo@latest eval -o results.json)", v, PromptfooOldest, pfOldestFormat, PromptfooOldest, PromptfooNewest)
				}
				return nil
			case "results":
			default:
				return d.skip("results." + key)
			}
			found = true
			a := newAhead(path, keep, prep, func(_ int, where string, rec map[string]any, p any) error {
				if rec == nil {
					return errAt(path, 0, where, "", "want an object (an EvaluateResult)")
				}
				return fn(0, where, rec, p)
			})
			return a.close(d.array("results.results", func(i int) error {
				where := fmt.Sprintf("results.results[%d]", i)
				raw, at, err := d.raw()
				if err != nil {
					return d.err(where, err)
				}
				return a.add(0, where, at, raw)
			}))
		})
	})
	if err != nil {
		return err
	}
	if !found {
		return eval.Errorf(path, 0, "", "no \"results.results\" list; is this a promptfoo `-o results.json` export (promptfoo %s or later)?", PromptfooOldest)
	}
	return nil
}

// The promptfoo versions the importer is tested on (promptfoo_real_test.go runs them),
// and the oldest results format it reads: promptfoo before 0.100 wrote version 2
// summaries (a "table" beside the results) in some exports.
const (
	PromptfooOldest = "0.100.6"
	PromptfooNewest = "0.123.1"
	pfOldestFormat  = 3
)

// pfIsDocument says whether the file is one JSON document rather than JSONL: its first
// line is not a complete object, or is an object with "evalId" or "results".
func pfIsDocument(path string) (bool, error) {
	head, err := readHead(path, 1<<20)
	if err != nil {
		return false, err
	}
	head = bytes.TrimLeft(head, " \t\r\n")
	line := head
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		line = head[:i]
	}
	var probe map[string]json.RawMessage
	if json.Unmarshal(line, &probe) != nil {
		return true, nil
	}
	_, a := probe["evalId"]
	_, b := probe["results"]
	return a || b, nil
}

// pfTest is what the first pass learns about one distinct test.
type pfTest struct {
	key         pfKey // description and vars: repeats of a test share it
	description string
	varsHash    string
	idValue     string // the --id-field value
	where       string
	// By the index's rule (pfIndex.prepare): the test's id, its hash, and its index in
	// the document's results list.
	ready bool
	id    string
	idKey pfKey
	index int32
}

// pfCombo is one prompt × provider pair.
type pfCombo struct {
	key      string
	index    string
	provider string
	label    string
	prompt   string
	count    int
}

func (c *pfCombo) String() string {
	provider := fmt.Sprintf("%q", c.provider)
	if c.label != "" && c.label != c.provider {
		provider += fmt.Sprintf(" (label %q)", c.label)
	}
	return fmt.Sprintf("%s: provider %s, prompt %q (%d results)", c.index, provider, clip(c.prompt, 60), c.count)
}

func pfComboOf(rec map[string]any) *pfCombo {
	c := &pfCombo{}
	if p, ok := rec["provider"].(map[string]any); ok {
		c.provider, _ = p["id"].(string)
		c.label, _ = p["label"].(string)
	} else if s, ok := rec["provider"].(string); ok {
		c.provider = s
	}
	if p, ok := rec["prompt"].(map[string]any); ok {
		c.prompt, _ = p["label"].(string)
		if c.prompt == "" {
			c.prompt, _ = p["raw"].(string)
		}
	}
	if i, ok := rec["promptIdx"].(float64); ok {
		c.index = strconv.Itoa(int(i))
	} else {
		c.index = c.provider + " " + c.prompt
	}
	c.key = c.index
	return c
}

func (c *pfCombo) matches(sel string) bool {
	return sel == c.index || sel == c.provider || (c.label != "" && sel == c.label) || sel == c.prompt
}

// pfTestOf identifies the test a result answers.
func pfTestOf(path string, line int, where string, rec map[string]any, idField string) (*pfTest, error) {
	tc, ok := rec["testCase"].(map[string]any)
	if !ok {
		if _, has := rec["testCase"]; has {
			return nil, errAt(path, line, where, "", "%s", fieldErr("testCase", rec["testCase"], "an object"))
		}
		return nil, errAt(path, line, where, "", "record has no \"testCase\"; is this a promptfoo results file?")
	}
	t := &pfTest{where: where}
	if d, ok := tc["description"]; ok && d != nil {
		s, ok := d.(string)
		if !ok {
			return nil, errAt(path, line, where, "", "%s", fieldErr("testCase.description", d, "a string"))
		}
		t.description = s
	}
	vars := tc["vars"]
	if vars == nil {
		vars = rec["vars"]
	}
	if vars != nil {
		if _, ok := vars.(map[string]any); !ok {
			return nil, errAt(path, line, where, "", "%s", fieldErr("testCase.vars", vars, "an object"))
		}
	}
	b, ok := jsonenc.Append(nil, vars, true) // as json.Marshal writes it: sorted keys
	if !ok {
		b, _ = json.Marshal(vars)
	}
	sum := sha256.Sum256(b)
	t.varsHash = hex.EncodeToString(sum[:])
	t.key = pfHash(t.description, t.varsHash)
	if idField != "" {
		var v any
		var found bool
		if k, ok := strings.CutPrefix(idField, "metadata."); ok {
			md, _ := tc["metadata"].(map[string]any)
			v, found = eval.Lookup(md, k)
		} else {
			vm, _ := vars.(map[string]any)
			v, found = eval.Lookup(vm, idField)
		}
		if !found {
			return nil, errAt(path, line, where, "", "--id-field %q: the test has no such variable (testCase.vars.%s)", idField, idField)
		}
		switch x := v.(type) {
		case string:
			if strings.TrimSpace(x) == "" {
				return nil, errAt(path, line, where, "", "--id-field %q is empty for this test", idField)
			}
			t.idValue = x
		case float64:
			t.idValue = strconv.FormatFloat(x, 'f', -1, 64)
		default:
			return nil, errAt(path, line, where, "", "--id-field %q is %s; want a string or a number", idField, eval.Describe(v))
		}
	}
	return t, nil
}

// The EvaluateResult keys each pass reads: the first names tests and prompt/provider
// pairs, the second converts. Of the keys' values only the parts the importer reads are
// built (the rest is checked): pfTestOf, pfComboOf, pfConvert, pfTokens, pfScores and
// pfSuiteFields read no other.
var (
	pfNameKeys = keys{paths: eval.Paths{
		"testCase":  {"description": nil, "vars": nil, "metadata": nil},
		"vars":      nil,
		"provider":  {"id": nil, "label": nil},
		"prompt":    {"raw": nil, "label": nil},
		"promptIdx": nil,
	}}
	pfReadKeys = keys{paths: eval.Paths{
		"testCase":  {"description": nil, "vars": nil, "metadata": nil, "assert": {"metric": nil, "type": nil, "value": nil}},
		"vars":      nil,
		"provider":  pfNameKeys.paths["provider"],
		"prompt":    pfNameKeys.paths["prompt"],
		"promptIdx": nil,
		"response": {"output": nil, "error": nil, "tokenUsage": {"prompt": nil, "completion": nil,
			"completionDetails": {"cacheReadInputTokens": nil}}},
		"error":         nil,
		"failureReason": nil,
		"latencyMs":     nil,
		"cost":          nil,
		"success":       nil,
		"score":         nil,
		"namedScores":   nil,
		"gradingResult": {"namedScores": nil, "reason": nil, "componentResults": {"assertion": {"metric": nil, "type": nil}, "score": nil, "pass": nil, "reason": nil}},
	}}
)

// readPromptfoo reads a promptfoo export in one pass, converting each result as it is
// read; what it keeps is a few bytes per distinct test (its key, its place, how many
// times it was seen: repeats are runs), so a million tests fit in tens of megabytes.
//
// A test's id is its description while every test has a unique one, else a hash of its
// vars: only the whole file tells. A reader that can start again (Options.onePass: the
// check's direct source) names tests by description until a test without one or a
// second test with the same one shows up, then stops with errReread and is asked again
// with ids by vars (Options.idsByVars); any other reader first reads the tests' names
// (a pass over the keys that name them, stopped at the first such test).
func readPromptfoo(path string, opts *Options, emit func(Record) error) (*Meta, error) {
	if opts.IDField == "" && !opts.onePass && !opts.idsByVars {
		byVars, err := pfNeedsVarsIDs(path)
		if err != nil {
			return nil, err
		}
		opts.idsByVars = byVars
	}
	rule := pfByDescription
	switch {
	case opts.IDField != "":
		rule = pfByField
	case opts.idsByVars:
		rule = pfByVars
	}
	ix := newPfIndex(rule, opts.IDField)
	combos := map[string]*pfCombo{}
	var comboOrder []*pfCombo
	var chosen *pfCombo
	ambiguous := false // several pairs where one must be chosen: said at the end, with all of them
	meta := &Meta{Format: Promptfoo, SuiteFields: true, Metadata: map[string]string{}}
	var dims dimTracker
	var seen []int32 // occurrences of a test: its repeats are runs
	unmatched, firstUnmatched := 0, ""
	prep := func(line int, where string, rec map[string]any) any {
		return pfPrepare(path, line, where, rec, ix, opts.IDField)
	}
	err := pfRecords(path, pfReadKeys, prep, func(line int, where string, rec map[string]any, prepped any) error {
		p := prepped.(*pfPrepared)
		if p.err != nil {
			return p.err
		}
		t := p.test
		n := ix.add(t, line, where)
		if err := ix.clashErr(path); err != nil {
			return err
		}
		if rule == pfByDescription && ix.descFails() {
			return errReread
		}
		c := p.combo
		if prev, ok := combos[c.key]; ok {
			prev.count++
			c = prev
		} else {
			c.count = 1
			combos[c.key] = c
			comboOrder = append(comboOrder, c)
		}
		if ambiguous || (opts.Prompt != "" && !c.matches(opts.Prompt)) {
			return nil
		}
		if chosen == nil {
			chosen = c
			if c.provider != "" {
				meta.Metadata["model_id"] = c.provider
			}
		} else if c != chosen {
			ambiguous = true
			return nil
		}
		for int(n) >= len(seen) {
			seen = append(seen, 0)
		}
		run := int(seen[n])
		seen[n]++
		if p.convErr != nil {
			return p.convErr
		}
		for _, i := range p.unmatched {
			if unmatched == 0 {
				firstUnmatched = fmt.Sprintf("%s componentResults[%d] (test %q)", pfPlace(line, where), i, t.id)
			}
			unmatched++
		}
		if s, ok := p.fields["scores"].(map[string]any); ok {
			dims.see(s)
		}
		return emit(Record{Run: run, Line: line, Where: where, Fields: p.fields})
	})
	if err != nil {
		return nil, err
	}
	if len(ix.places) == 0 {
		return nil, eval.Errorf(path, 0, "", "the promptfoo file holds no results")
	}
	if ambiguous || chosen == nil {
		_, err := pfChoose(path, comboOrder, opts.Prompt)
		return nil, err
	}
	if unmatched > 0 {
		opts.warn("%s: %d assertion result(s) name no assertion and do not line up with their test's assert list, so their scores are left out (the first: %s); give those assertions a `metric:` name to import them as named scores", path, unmatched, firstUnmatched)
	}
	meta.Dimensions = dims.list()
	return meta, nil
}

// pfPrepared is what a result gives by itself, made on the decoding cores: its test
// (named by the index's rule), its prompt/provider pair and its converted record. A
// conversion error waits in convErr: only a result of the chosen pair is converted.
type pfPrepared struct {
	test      *pfTest
	combo     *pfCombo
	err       error // the test could not be named
	fields    map[string]any
	convErr   error
	unmatched []int // componentResults that name no assertion and match none by position
}

// pfPrepare identifies and converts one result; x is only read (its rule).
func pfPrepare(path string, line int, where string, rec map[string]any, x *pfIndex, idField string) *pfPrepared {
	t, err := pfTestOf(path, line, where, rec, idField)
	if err != nil {
		return &pfPrepared{err: err}
	}
	x.prepare(t, where)
	p := &pfPrepared{test: t, combo: pfComboOf(rec)}
	p.fields, p.convErr = pfConvert(path, line, where, t.id, rec, func(i int) { p.unmatched = append(p.unmatched, i) })
	return p
}

// errReread stops a one-pass promptfoo read whose tests turn out not to be named by
// their descriptions: the reader starts again with ids by vars (Direct).
var errReread = errors.New("importer: the promptfoo tests are named by their vars; read the file again")

// pfNeedsVarsIDs reads the tests' names only (the keys that name a test), up to the first
// test without a description or with another test's: then ids are hashes of the vars.
func pfNeedsVarsIDs(path string) (bool, error) {
	ix := newPfIndex(pfByDescription, "")
	err := pfRecords(path, pfNameKeys, nil, func(line int, where string, rec map[string]any, _ any) error {
		t, err := pfTestOf(path, line, where, rec, "")
		if err != nil {
			return err
		}
		ix.add(t, line, where)
		if ix.descFails() {
			return errReread
		}
		return nil
	})
	if err == errReread {
		return true, nil
	}
	return false, err
}

// pfPlace names a record in messages: its line in JSONL, its place in a document.
func pfPlace(line int, where string) string {
	if where != "" {
		return where
	}
	return fmt.Sprintf("line %d", line)
}

// pfChoose picks the one prompt/provider pair to import.
func pfChoose(path string, combos []*pfCombo, sel string) (*pfCombo, error) {
	if sel != "" {
		var hit []*pfCombo
		for _, c := range combos {
			if c.matches(sel) {
				hit = append(hit, c)
			}
		}
		if len(hit) == 1 {
			return hit[0], nil
		}
		what := "matches none"
		if len(hit) > 1 {
			what = fmt.Sprintf("matches %d", len(hit))
		}
		return nil, eval.Errorf(path, 0, "", "--promptfoo-prompt %q %s of the prompt/provider pairs; choose one by its index:\n%s", sel, what, pfList(combos))
	}
	if len(combos) > 1 {
		return nil, eval.Errorf(path, 0, "", "the file holds %d prompt/provider pairs and evalgate gates one system at a time; choose one with --promptfoo-prompt INDEX (or its provider id or prompt label):\n%s", len(combos), pfList(combos))
	}
	return combos[0], nil
}

func pfList(combos []*pfCombo) string {
	var b strings.Builder
	for _, c := range combos {
		fmt.Fprintf(&b, "  %s\n", c)
	}
	return strings.TrimRight(b.String(), "\n")
}

// pfKey identifies a test (its description and vars) or an id in the first pass's
// maps: a hash, so a million tests take a few bytes each.
type pfKey [16]byte

func pfHash(parts ...string) pfKey {
	var buf [256]byte
	b := buf[:0]
	for _, p := range parts {
		b = append(append(b, p...), 0)
	}
	sum := sha256.Sum256(b)
	var k pfKey
	copy(k[:], sum[:])
	return k
}

// pfPlaceOf is where a test was first seen: its line (JSONL) or its index in the
// document's results list.
type pfPlaceOf struct{ line, index int32 }

func (p pfPlaceOf) String() string {
	if p.line > 0 {
		return fmt.Sprintf("line %d", p.line)
	}
	return fmt.Sprintf("results.results[%d]", p.index)
}

// pfIDRule is how tests are named: by description, by a hash of the vars, or by the
// --id-field value.
type pfIDRule int

const (
	pfByDescription pfIDRule = iota
	pfByVars
	pfByField
)

// pfIndex is what the pass learns about the distinct tests: their numbers and places,
// and whether the way they are named gives unique ids (the first clash).
type pfIndex struct {
	rule    pfIDRule
	idField string
	tests   map[pfKey]int32 // test key → its number, in first-seen order
	places  []pfPlaceOf
	byID    map[pfKey]int32 // an id's hash → the first test with it
	noDesc  bool            // a test has no description
	clash   clash
}

type clash struct {
	first, second int32
	id            string
	found         bool
}

func newPfIndex(rule pfIDRule, idField string) *pfIndex {
	return &pfIndex{rule: rule, idField: idField, tests: map[pfKey]int32{}, byID: map[pfKey]int32{}}
}

// prepare names t by the index's rule and finds its place in the results list (where);
// it only reads x, so it runs on any goroutine.
func (x *pfIndex) prepare(t *pfTest, where string) {
	t.id = x.pick(t)
	t.idKey = pfHash(t.id)
	if i, ok := strings.CutPrefix(where, "results.results["); ok {
		if n, err := strconv.ParseInt(strings.TrimSuffix(i, "]"), 10, 32); err == nil {
			t.index = int32(n)
		}
	}
	t.ready = true
}

// add notes a result's test and returns the test's number.
func (x *pfIndex) add(t *pfTest, line int, where string) int32 {
	if n, ok := x.tests[t.key]; ok {
		return n
	}
	if !t.ready {
		x.prepare(t, where)
	}
	n := int32(len(x.places))
	x.tests[t.key] = n
	x.places = append(x.places, pfPlaceOf{line: int32(min(line, math.MaxInt32)), index: t.index})
	if x.rule == pfByDescription && t.description == "" {
		x.noDesc = true
		return n
	}
	if prev, ok := x.byID[t.idKey]; ok {
		if !x.clash.found {
			x.clash = clash{first: prev, second: n, id: t.id, found: true}
		}
		return n
	}
	x.byID[t.idKey] = n
	return n
}

// descFails says the tests cannot be named by their descriptions.
func (x *pfIndex) descFails() bool { return x.rule == pfByDescription && (x.noDesc || x.clash.found) }

// pick is a test's id by the index's rule.
func (x *pfIndex) pick(t *pfTest) string {
	switch x.rule {
	case pfByField:
		return t.idValue
	case pfByVars:
		return pfVarsID(t)
	}
	return t.description
}

func pfVarsID(t *pfTest) string { return "vars-" + t.varsHash[:12] }

// clashErr refuses two tests named alike by --id-field or by the hash of their vars
// (two descriptions alike make the tests named by vars instead).
func (x *pfIndex) clashErr(path string) error {
	if !x.clash.found || x.rule == pfByDescription {
		return nil
	}
	how := "hash of the vars"
	if x.rule == pfByField {
		how = fmt.Sprintf("--id-field %q", x.idField)
	}
	c := x.clash
	p := x.places[c.second]
	where := ""
	if p.line == 0 {
		where = p.String()
	}
	return errAt(path, int(p.line), where, c.id, "two different tests get the same id by %s (the first at %s); name each test with a unique description, or pass --id-field VAR naming a variable that is unique per test", how, x.places[c.first])
}

// pfConvert maps one EvaluateResult to an evalgate results record.
func pfConvert(path string, line int, where, id string, rec map[string]any, unmatched func(i int)) (map[string]any, error) {
	bad := func(field string, v any, want string) error {
		return errAt(path, line, where, id, "%s", fieldErr(field, v, want))
	}
	out := make(map[string]any, 14) // room for every field a result gives without growing
	out["id"] = id
	resp, _ := rec["response"].(map[string]any)
	if r, ok := rec["response"]; ok && r != nil && resp == nil {
		return nil, bad("response", r, "an object")
	}
	var errText string
	if e, ok := rec["error"]; ok && e != nil {
		s, ok := e.(string)
		if !ok {
			return nil, bad("error", e, "a string")
		}
		errText = s
	}
	reason, _ := rec["failureReason"].(float64)
	if resp != nil {
		if e, ok := resp["error"].(string); ok && e != "" {
			errText, reason = e, pfFailureError
		}
		if o, ok := resp["output"]; ok && o != nil {
			out["output"] = o
		}
		if u, ok := resp["tokenUsage"].(map[string]any); ok {
			if err := pfTokens(u, out); err != nil {
				return nil, errAt(path, line, where, id, "response.tokenUsage: %v", err)
			}
		}
	}
	_, hasOutput := out["output"]
	// An assertion's failure text sits in `error` too (failureReason 1); only a result
	// that could not run or be graded is an evalgate error.
	if errText != "" && (reason == pfFailureError || !hasOutput) {
		out["error"] = errText
	}
	if !hasOutput && out["error"] == nil {
		if resp == nil {
			return nil, errAt(path, line, where, id, "record has no \"response\" and no \"error\"; want the provider's response")
		}
		return nil, errAt(path, line, where, id, "record has no \"response.output\" and no \"error\"")
	}
	if l, ok := rec["latencyMs"]; ok && l != nil {
		n, ok := l.(float64)
		if !ok || n < 0 {
			return nil, bad("latencyMs", l, "a number ≥ 0")
		}
		out["latency_e2e_ms"] = n
	}
	if c, ok := rec["cost"].(float64); ok {
		out["cost"] = c
	}
	if p, ok := rec["provider"].(map[string]any); ok {
		if s, ok := p["id"].(string); ok && s != "" {
			out["model"] = s
		}
	}
	scores, notes, err := pfScores(rec, unmatched)
	if err != nil {
		return nil, errAt(path, line, where, id, "%v", err)
	}
	if len(scores) > 0 {
		out["scores"] = scores
	}
	if len(notes) > 0 {
		out["score_notes"] = notes
	}
	pfSuiteFields(rec, out)
	if _, ok := out["expected"]; !ok {
		if e := pfExpectedAssertion(rec); e != "" {
			out["expected_assertion"] = e
		}
	}
	return out, nil
}

// pfTokens reads promptfoo's tokenUsage: prompt and completion are the provider's
// input and output tokens (the prompt counts every input token, cache reads and writes
// included), completionDetails.cacheReadInputTokens (0.123.1 records it, 0.100.6 not)
// the provider's prompt-cache reads among them. tokenUsage.cached is something else: the
// tokens of a response promptfoo served from its own cache, which cost nothing, so it is
// not read.
func pfTokens(u map[string]any, out map[string]any) error {
	for _, k := range [...][2]string{{"prompt", "input_tokens"}, {"completion", "output_tokens"}} {
		src, dst := k[0], k[1]
		v, ok := u[src]
		if !ok || v == nil {
			continue
		}
		n, ok := v.(float64)
		if !ok || n < 0 || n != float64(int64(n)) {
			return fmt.Errorf("field %q is %v; want a whole number ≥ 0", src, v)
		}
		out[dst] = n
	}
	d, _ := u["completionDetails"].(map[string]any)
	v, ok := d["cacheReadInputTokens"]
	if !ok || v == nil {
		return nil
	}
	n, ok := v.(float64)
	if !ok || n < 0 || n != float64(int64(n)) {
		return fmt.Errorf("field \"completionDetails.cacheReadInputTokens\" is %v; want a whole number ≥ 0", v)
	}
	in, hasIn := out["input_tokens"].(float64)
	if !hasIn || n > in {
		return fmt.Errorf("field \"completionDetails.cacheReadInputTokens\" is %v, more than the %v prompt tokens; the cache reads are a part of them", n, out["input_tokens"])
	}
	if n > 0 {
		out["cached_input_tokens"] = n
	}
	return nil
}

// pfScores collects promptfoo's scores: `success` (its pass verdict), `score`,
// each named score under its name made into an identifier, and each assertion without a
// metric name under its type (a second one of a type gets "_2").
//
// An assertion result that names no assertion and cannot be matched by position is
// reported to unmatched (its index in componentResults), never dropped in silence.
//
// notes are promptfoo's reasons for the scores that failed (score_notes): a failed
// assertion's reason under its score's key (the reasons of a metric's failed
// assertions joined), and a failed test's reason under success and score. A passing
// one ("Assertion passed") says nothing and is not kept.
func pfScores(rec map[string]any, unmatched func(i int)) (scores, notes map[string]any, err error) {
	scores = map[string]any{}
	notes = map[string]any{}
	if v, ok := rec["success"]; ok && v != nil {
		b, ok := v.(bool)
		if !ok {
			return nil, nil, fmt.Errorf("%s", fieldErr("success", v, "true or false"))
		}
		scores["success"] = b
	}
	if v, ok := rec["score"]; ok && v != nil {
		n, ok := v.(float64)
		if !ok {
			return nil, nil, fmt.Errorf("%s", fieldErr("score", v, "a number"))
		}
		scores["score"] = n
	}
	named, _ := rec["namedScores"].(map[string]any)
	gr, _ := rec["gradingResult"].(map[string]any)
	if named == nil && gr != nil {
		named, _ = gr["namedScores"].(map[string]any)
	}
	for _, name := range sortedKeys(named) {
		n, ok := named[name].(float64)
		if !ok {
			return nil, nil, fmt.Errorf("named score %q is %s; want a number", name, eval.Describe(named[name]))
		}
		scores[pfScoreKey(name, scores)] = n
	}
	if b, _ := scores["success"].(bool); !b && scores["success"] != nil && gr != nil {
		if r, _ := gr["reason"].(string); r != "" {
			notes["success"] = eval.ClipNote(r)
			if _, ok := scores["score"]; ok {
				notes["score"] = notes["success"]
			}
		}
	}
	if gr != nil {
		comps, _ := gr["componentResults"].([]any)
		// promptfoo writes each assertion beside its result; some versions (mid-2025,
		// javascript assertions) leave it out: it is then the test's assertion at the
		// same position (testCase.assert holds defaultTest's assertions first, as
		// componentResults does), when the two lists have the same length.
		var asserts []any
		if tc, ok := rec["testCase"].(map[string]any); ok {
			asserts, _ = tc["assert"].([]any)
		}
		count := map[string]int{}
		for i, c := range comps {
			cr, ok := c.(map[string]any)
			if !ok {
				continue
			}
			a, _ := cr["assertion"].(map[string]any)
			if a == nil && len(asserts) == len(comps) {
				a, _ = asserts[i].(map[string]any)
			}
			if a == nil {
				unmatched(i)
				continue
			}
			if m, _ := a["metric"].(string); m != "" {
				pfNote(notes, pfScoreKey(m, scores), cr) // the score is a named score
				continue
			}
			typ, _ := a["type"].(string)
			if typ == "" {
				continue
			}
			s, ok := cr["score"].(float64)
			if !ok {
				return nil, nil, fmt.Errorf("gradingResult.componentResults[%d].score is %s; want a number", i, eval.Describe(cr["score"]))
			}
			key := Ident(typ)
			count[key]++
			if count[key] > 1 {
				key = fmt.Sprintf("%s_%d", key, count[key])
			}
			key = pfScoreKey(key, scores)
			scores[key] = s
			pfNote(notes, key, cr)
		}
	}
	return scores, notes, nil
}

// pfNote keeps a failed assertion's reason as the note of its score's key, after the
// reasons of the key's earlier failed assertions.
func pfNote(notes map[string]any, key string, cr map[string]any) {
	if pass, ok := cr["pass"].(bool); !ok || pass {
		return
	}
	r, _ := cr["reason"].(string)
	if r == "" {
		return
	}
	if prev, ok := notes[key].(string); ok {
		r = prev + "; " + r
	}
	notes[key] = eval.ClipNote(r)
}

// pfScoreKey makes a name into a score key that does not clash with success and score.
func pfScoreKey(name string, taken map[string]any) string {
	k := Ident(name)
	if k == "success" || k == "score" {
		k = "metric_" + k
	}
	return k
}

// pfSuiteFields carries the test's suite fields: the rendered prompt, the description,
// the vars, an `expected` var as the reference answer, and metadata tags.
func pfSuiteFields(rec map[string]any, out map[string]any) {
	if p, ok := rec["prompt"].(map[string]any); ok {
		if raw, ok := p["raw"].(string); ok {
			out["prompt"] = raw
		}
	}
	tc, _ := rec["testCase"].(map[string]any)
	if tc == nil {
		return
	}
	if d, ok := tc["description"].(string); ok && d != "" {
		out["description"] = d
	}
	if vars, ok := tc["vars"].(map[string]any); ok && len(vars) > 0 {
		out["vars"] = vars
		if e, ok := vars["expected"]; ok {
			out["expected"] = e
		}
	}
	if md, ok := tc["metadata"].(map[string]any); ok {
		if tags, ok := md["tags"].([]any); ok {
			var list []any
			for _, t := range tags {
				if s, ok := t.(string); ok {
					list = append(list, s)
				}
			}
			if len(list) > 0 {
				out["tags"] = list
			}
		}
	}
}
