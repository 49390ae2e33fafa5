package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/evalgate/evalgate/internal/report"
)

// benchRecords writes n records in the peer benchmark's shape (suite fields and an
// output on each): correct answers, wrong ones, invalid JSON, too long, refusals, with
// latencies and tokens on some, so every column of the streamed scoring is exercised.
func benchRecords(n int) []map[string]any {
	verbs := [][2]string{{"ate", "comió"}, {"went", "fue"}, {"saw", "vio"}, {"wrote", "escribió"}}
	var out []map[string]any
	for i := 1; i <= n; i++ {
		v := verbs[i%len(verbs)]
		en, es := v[0], v[1]
		doc := fmt.Sprintf(`{"english": "%s.", "spanish": "%s", "explanation": "Ref #%d <b>&</b>."}`, strings.ToUpper(en[:1])+en[1:], es, i)
		switch i % 11 {
		case 1:
			doc = `{"english": "Eats.", "spanish": "` + es + `", "explanation": "wrong tense"}`
		case 2:
			doc = doc[:len(doc)-1] // not JSON
		case 3:
			doc = `I'm sorry, I can't help with that request.`
		case 4:
			doc = strings.Replace(doc, "Ref", strings.Repeat("filler word ", 30)+"Ref", 1)
		case 5:
			doc = `{"english": "` + en + `", "spanish": ["` + es + `"]}`
		}
		rec := map[string]any{"id": fmt.Sprintf("conj-%06d", i), "output": doc}
		rec["prompt"] = fmt.Sprintf("Conjugate #%d — past simple \u2028 tab\t.", i)
		rec["expected_contains"] = map[string]any{"english": []any{en}, "spanish": []any{es}}
		if i%3 == 0 {
			rec["latency_e2e_ms"] = float64(100 + (i*37)%900)
			rec["input_tokens"] = float64(20 + i%7)
			rec["output_tokens"] = float64(5 + i%13)
		}
		if i%97 == 0 {
			rec["error"] = "upstream 503"
		}
		out = append(out, rec)
	}
	return out
}

func writeJSONL(t *testing.T, path string, recs []map[string]any) {
	t.Helper()
	var b bytes.Buffer
	for _, r := range recs {
		line, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	data := b.Bytes()
	switch filepath.Ext(path) {
	case ".gz":
		var z bytes.Buffer
		w := gzip.NewWriter(&z)
		w.Write(data)
		w.Close()
		data = z.Bytes()
	case ".zst":
		w, _ := zstd.NewWriter(nil)
		data = w.EncodeAll(data, nil)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// benchDir is a temporary copy of bench/'s config and schema.
func benchDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"evalgate.yaml", "schema.json"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "bench", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// renderAll is the report in every format.
func renderAll(t *testing.T, r *report.Report) string {
	t.Helper()
	var b bytes.Buffer
	for _, f := range report.Formats {
		if err := report.Render(&b, r, f); err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}

// jsonAs is the report's JSON with the results file's name replaced by want's and
// the run id (a hash over the names) dropped.
func jsonAs(t *testing.T, r *report.Report, file, as string) string {
	t.Helper()
	var b bytes.Buffer
	if err := r.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(b.String(), "\n") {
		if !strings.Contains(l, `"run_id"`) {
			lines = append(lines, strings.ReplaceAll(l, file, as))
		}
	}
	return strings.Join(lines, "\n")
}

func checkWith(t *testing.T, cfg string, results []string, streamAbove int64) *report.Report {
	t.Helper()
	r, err := Check(context.Background(), CheckOptions{Config: cfg, Results: results, NoBaseline: true,
		Now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), CodeVersion: "abc", StreamAbove: streamAbove})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// TestStreamedCheckMatchesInMemory: a check that streams its results (compact
// per-item numbers, outputs and items in temporary files, parallel decoding and
// scoring) gives the very report of one that holds every record in memory, in every
// format, from plain, gzip and zstd results.
func TestStreamedCheckMatchesInMemory(t *testing.T) {
	t.Parallel()
	dir := benchDir(t)
	cfg := filepath.Join(dir, "evalgate.yaml")
	recs := benchRecords(3000)
	plain := filepath.Join(dir, "items.jsonl")
	writeJSONL(t, plain, recs)
	mem := checkWith(t, cfg, []string{plain}, math.MaxInt64)
	if diff := cmp.Diff(renderAll(t, mem), renderAll(t, checkWith(t, cfg, []string{plain}, -1))); diff != "" {
		t.Errorf("streamed differs from in memory (-memory +streamed):\n%s", diff)
	}
	want := jsonAs(t, mem, plain, plain)
	for _, name := range []string{"items.jsonl.gz", "items.jsonl.zst"} {
		p := filepath.Join(dir, name)
		writeJSONL(t, p, recs)
		if diff := cmp.Diff(want, jsonAs(t, checkWith(t, cfg, []string{p}, -1), p, plain)); diff != "" {
			t.Errorf("%s streamed differs from in memory (-memory +streamed):\n%s", name, diff)
		}
	}
}

// TestStreamedCheckMatchesInMemoryRunsAndSuite: with a suite file and three runs (one
// shuffled, one with items missing), streaming changes nothing either.
func TestStreamedCheckMatchesInMemoryRunsAndSuite(t *testing.T) {
	t.Parallel()
	dir := benchDir(t)
	recs := benchRecords(1500)
	var suite []map[string]any
	for _, r := range recs {
		suite = append(suite, map[string]any{"id": r["id"], "prompt": r["prompt"], "expected_contains": r["expected_contains"]})
	}
	writeJSONL(t, filepath.Join(dir, "suite.jsonl"), suite)
	cfgText, err := os.ReadFile(filepath.Join(dir, "evalgate.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "with-suite.yaml")
	if err := os.WriteFile(cfg, append([]byte("suite: suite.jsonl\n"), cfgText...), 0o644); err != nil {
		t.Fatal(err)
	}
	strip := func(rs []map[string]any) []map[string]any {
		var out []map[string]any
		for _, r := range rs {
			c := map[string]any{}
			for k, v := range r {
				if k != "prompt" && k != "expected_contains" {
					c[k] = v
				}
			}
			out = append(out, c)
		}
		return out
	}
	a := strip(recs)
	var b, c []map[string]any
	for i := range a {
		b = append(b, a[(i*7)%len(a)]) // 7 and 1500 are coprime: a permutation
		if i%5 != 0 {
			c = append(c, a[i])
		}
	}
	var files []string
	for i, rs := range [][]map[string]any{a, b, c} {
		p := filepath.Join(dir, fmt.Sprintf("run%d.jsonl", i+1))
		writeJSONL(t, p, rs)
		files = append(files, p)
	}
	want := renderAll(t, checkWith(t, cfg, files, math.MaxInt64))
	got := renderAll(t, checkWith(t, cfg, files, -1))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("streamed differs from in memory (-memory +streamed):\n%s", diff)
	}
}
