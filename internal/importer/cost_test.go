package importer_test

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/importer"
	"github.com/evalgate/evalgate/internal/pricing"
)

// cost prices a result the way the scoring does: its model through the built-in table,
// its input, cached input and output tokens.
func cost(t *testing.T, r *eval.Result) float64 {
	t.Helper()
	p := &pricing.Pricer{Table: pricing.Builtin()}
	or0 := func(n *float64) float64 {
		if n == nil {
			return 0
		}
		return *n
	}
	u := pricing.Usage{Input: or0(r.InputTokens), CachedInput: or0(r.CachedInputTokens), Output: or0(r.OutputTokens)}
	usd, ok := p.Cost(p.Model(r.Model), u)
	if !ok {
		t.Fatalf("%s: model %q has no price", r.ID, r.Model)
	}
	return usd
}

func nearUSD(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

// pfLine is a record promptfoo 0.123.1 wrote, with its provider and tokenUsage replaced.
func pfLine(t *testing.T, desc, provider string, usage map[string]any) string {
	t.Helper()
	f, err := os.Open(pfFile("results-0.123.1.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	sc.Scan()
	var rec map[string]any
	if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
		t.Fatal(err)
	}
	rec["provider"] = map[string]any{"id": provider, "label": ""}
	rec["response"].(map[string]any)["tokenUsage"] = usage
	rec["testCase"].(map[string]any)["description"] = desc
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeLines(t *testing.T, name string, lines ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// promptfoo: the provider id is the model; prompt and completion are the tokens, the
// provider's cache reads (completionDetails.cacheReadInputTokens) the cached input; a
// response promptfoo served from its own cache (tokenUsage.cached) carries no tokens.
func TestPromptfooTokensAndModelPriced(t *testing.T) {
	path := writeLines(t, "results.jsonl",
		pfLine(t, "openai", "openai:gpt-4o-mini", map[string]any{"prompt": 1000, "completion": 200, "total": 1200,
			"completionDetails": map[string]any{"cacheReadInputTokens": 400}}),
		// Anthropic through promptfoo: prompt = 300 uncached + 1500 cache reads + 200 cache writes.
		pfLine(t, "anthropic", "anthropic:messages:claude-3-5-haiku-20241022", map[string]any{"prompt": 2000, "completion": 100, "total": 2100,
			"completionDetails": map[string]any{"cacheReadInputTokens": 1500, "cacheCreationInputTokens": 200}}),
		pfLine(t, "promptfoo cache hit", "openai:gpt-4o-mini", map[string]any{"cached": 1200, "total": 1200}),
	)
	runs, _, err := importer.LoadRuns(path, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	get := func(id string) *eval.Result {
		r, ok := runs[0].Result(id)
		if !ok {
			t.Fatalf("no result %q", id)
		}
		return r
	}
	oa := get("openai")
	if oa.Model != "openai:gpt-4o-mini" || *oa.InputTokens != 1000 || *oa.CachedInputTokens != 400 || *oa.OutputTokens != 200 {
		t.Errorf("openai record: model %q tokens %v/%v/%v", oa.Model, *oa.InputTokens, *oa.CachedInputTokens, *oa.OutputTokens)
	}
	// gpt-4o-mini: $0.15 in, $0.075 cached in, $0.60 out per million tokens:
	// (600 × 0.15 + 400 × 0.075 + 200 × 0.60) / 1e6 = (90 + 30 + 120) / 1e6 = $0.00024
	if got := cost(t, oa); !nearUSD(got, 0.00024) {
		t.Errorf("openai record costs $%v; want $0.00024", got)
	}
	an := get("anthropic")
	// claude-3-5-haiku: $0.80 in, $0.08 cached in, $4.00 out; the cache write is an input
	// token: (500 × 0.80 + 1500 × 0.08 + 100 × 4.00) / 1e6 = (400 + 120 + 400) / 1e6 = $0.00092
	if got := cost(t, an); !nearUSD(got, 0.00092) || *an.CachedInputTokens != 1500 {
		t.Errorf("anthropic record costs $%v (cached %v); want $0.00092", got, *an.CachedInputTokens)
	}
	hit := get("promptfoo cache hit")
	if hit.InputTokens != nil || hit.CachedInputTokens != nil || hit.OutputTokens != nil || cost(t, hit) != 0 {
		t.Errorf("cache hit: tokens %v/%v/%v; want none (promptfoo's cache costs nothing)", hit.InputTokens, hit.CachedInputTokens, hit.OutputTokens)
	}

	bad := writeLines(t, "bad.jsonl", pfLine(t, "x", "openai:gpt-4o-mini", map[string]any{"prompt": 100, "completion": 1,
		"completionDetails": map[string]any{"cacheReadInputTokens": 500}}))
	_, _, err = importer.LoadRuns(bad, importer.Options{})
	if err == nil || !strings.Contains(err.Error(), "bad.jsonl:1") || !strings.Contains(err.Error(), `item "x"`) ||
		!strings.Contains(err.Error(), "cacheReadInputTokens\" is 500, more than the 100 prompt tokens") {
		t.Errorf("cache reads above the prompt: %v", err)
	}
}

func inspectLog(t *testing.T, model, usage string) string {
	t.Helper()
	return writeLines(t, "log.json", `{"version": 2, "status": "success", "eval": {"task": "t", "model": "`+model+`"}, "samples": [`+
		`{"id": "a", "epoch": 1, "input": "q", "target": "t", "output": {"model": "m", "completion": "x", "usage": {"input_tokens": 1, "output_tokens": 1}},`+
		` "scores": {"match": {"value": "C"}}, "model_usage": `+usage+`}]}`)
}

// Inspect: the sample's model_usage entry for the evaluated model gives the tokens and
// the model; OpenAI counts cache reads inside input_tokens, Anthropic apart from them
// (total_tokens tells which); a grader's usage is left out with a warning.
func TestInspectTokensAndModelPriced(t *testing.T) {
	for _, tt := range []struct {
		name, model, usage string
		in, cached, out    float64
		usd                float64
		warn               string
	}{
		// gpt-4o-mini: (600 × 0.15 + 400 × 0.075 + 200 × 0.60) / 1e6 = $0.00024
		{"openai", "openai/gpt-4o-mini",
			`{"openai/gpt-4o-mini": {"input_tokens": 1000, "output_tokens": 200, "total_tokens": 1200, "input_tokens_cache_read": 400}}`,
			1000, 400, 200, 0.00024, ""},
		// 300 uncached + 200 written + 1500 read = 2000 in, 1500 cached:
		// (500 × 0.80 + 1500 × 0.08 + 100 × 4.00) / 1e6 = $0.00092; the grader's 9000 are left out.
		{"anthropic", "anthropic/claude-3-5-haiku-20241022",
			`{"anthropic/claude-3-5-haiku-20241022": {"input_tokens": 300, "output_tokens": 100, "total_tokens": 2100, "input_tokens_cache_read": 1500, "input_tokens_cache_write": 200},` +
				` "openai/gpt-4o": {"input_tokens": 9000, "output_tokens": 10, "total_tokens": 9010}}`,
			2000, 1500, 100, 0.00092, "the tokens (and cost) of openai/gpt-4o in model_usage are left out"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var warns []string
			runs, _, err := importer.LoadRuns(inspectLog(t, tt.model, tt.usage), importer.Options{Warn: func(s string) { warns = append(warns, s) }})
			if err != nil {
				t.Fatal(err)
			}
			r := runs[0].Results[0]
			if r.Model != tt.model || *r.InputTokens != tt.in || *r.CachedInputTokens != tt.cached || *r.OutputTokens != tt.out {
				t.Errorf("model %q tokens %v/%v/%v; want %q %v/%v/%v", r.Model, *r.InputTokens, *r.CachedInputTokens, *r.OutputTokens, tt.model, tt.in, tt.cached, tt.out)
			}
			if got := cost(t, r); !nearUSD(got, tt.usd) {
				t.Errorf("costs $%v; want $%v", got, tt.usd)
			}
			if (tt.warn == "") != (len(warns) == 0) || (tt.warn != "" && !strings.Contains(warns[0], tt.warn)) {
				t.Errorf("warnings %q; want %q", warns, tt.warn)
			}
		})
	}
}

// Two tests named alike are refused, naming both places: by the hash of the vars when a
// test has no description (both tests ask the same vars).
func TestPromptfooIDClash(t *testing.T) {
	a := pfLine(t, "first", "echo", map[string]any{})
	b := strings.Replace(pfLine(t, "", "echo", map[string]any{}), `"description":"",`, "", 1)
	path := writeLines(t, "results.jsonl", a, b)
	_, _, err := importer.LoadRuns(path, importer.Options{})
	if err == nil || !strings.Contains(err.Error(), "results.jsonl:2: item \"vars-") ||
		!strings.Contains(err.Error(), "two different tests get the same id by hash of the vars (the first at line 1)") {
		t.Errorf("error %v", err)
	}
}

// Convert writes each run as evalgate JSONL; read back through Each, every result
// carries its place in the tool's file (0 inside a document) and the records equal
// LoadRuns's.
func TestConvertReadsBackAsLoadRuns(t *testing.T) {
	for _, path := range []string{inspectFile("epochs.json"), lmFile("arc_easy")} {
		c, err := importer.Convert(path, importer.Options{}, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		runs, _, err := importer.LoadRuns(path, importer.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Runs) != len(runs) {
			t.Fatalf("%s: %d converted runs, %d loaded", path, len(c.Runs), len(runs))
		}
		for i, run := range c.Runs {
			each := func(prep func(*eval.Result) any, fn func(*eval.Result, any) error) error {
				return eval.ScanRun(run, eval.ScanOptions{Prep: prep}, fn)
			}
			k := 0
			err := c.Each(i, each)(func(r *eval.Result) any { return r.Line }, func(r *eval.Result, prepped any) error {
				want := runs[i].Results[k]
				k++
				if r.ID != want.ID || r.Output != want.Output || r.Line != want.Line || prepped != want.Line {
					t.Errorf("%s run %d: %s line %d (prep saw %v); want %s line %d", path, i+1, r.ID, r.Line, prepped, want.ID, want.Line)
				}
				return nil
			})
			if err != nil || k != len(runs[i].Results) {
				t.Errorf("%s run %d: %d records, %v", path, i+1, k, err)
			}
		}
		c.Remove()
		if _, err := os.Stat(c.Runs[0]); err == nil {
			t.Errorf("%s: converted files left behind", path)
		}
	}
}
