package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/evalgate/evalgate/internal/eval"
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

// threeRuns writes three runs of recs into dir (run1..run3.jsonl) and returns their
// paths: all of them in order, all of them shuffled (7 is coprime with the sizes used),
// and a run missing every fifth item.
func threeRuns(t *testing.T, dir string, recs []map[string]any) []string {
	t.Helper()
	var shuffled, partial []map[string]any
	for i := range recs {
		shuffled = append(shuffled, recs[(i*7)%len(recs)])
		if i%5 != 0 {
			partial = append(partial, recs[i])
		}
	}
	var files []string
	for i, rs := range [][]map[string]any{recs, shuffled, partial} {
		p := filepath.Join(dir, fmt.Sprintf("run%d.jsonl", i+1))
		writeJSONL(t, p, rs)
		files = append(files, p)
	}
	return files
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

func checkWith(t *testing.T, cfg string, results []string, held bool) *report.Report {
	t.Helper()
	r := checkHeld(t, CheckOptions{
		CheckPlan: CheckPlan{
			Config:      cfg,
			Results:     results,
			NoBaseline:  true,
			CodeVersion: "abc",
		},
		CheckEnv: CheckEnv{
			Now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		},
	}, held)
	t.Cleanup(func() { r.Close() })
	return r
}

// checkHeld is Check with the results read into memory first when held (as standard
// input and other tools' files are), else read from their files as a stream.
func checkHeld(t *testing.T, opts CheckOptions, held bool) *report.Report {
	t.Helper()
	l, err := Load(opts)
	if err != nil {
		t.Fatal(err)
	}
	if held {
		if err := l.LoadRuns(); err != nil {
			t.Fatal(err)
		}
	}
	r, err := l.Check(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestStreamedCheckMatchesInMemory: a check that reads its results from their files as
// a stream (parallel decoding and scoring) gives the very report of one whose records
// are held in memory first (as standard input's and other tools' are), in every
// format, from plain, gzip and zstd results.
func TestStreamedCheckMatchesInMemory(t *testing.T) {
	t.Parallel()
	dir := benchDir(t)
	cfg := filepath.Join(dir, "evalgate.yaml")
	recs := benchRecords(3000)
	plain := filepath.Join(dir, "items.jsonl")
	writeJSONL(t, plain, recs)
	mem := checkWith(t, cfg, []string{plain}, true)
	if diff := cmp.Diff(renderAll(t, mem), renderAll(t, checkWith(t, cfg, []string{plain}, false))); diff != "" {
		t.Errorf("streamed differs from in memory (-memory +streamed):\n%s", diff)
	}
	want := jsonAs(t, mem, plain, plain)
	for _, name := range []string{"items.jsonl.gz", "items.jsonl.zst"} {
		p := filepath.Join(dir, name)
		writeJSONL(t, p, recs)
		if diff := cmp.Diff(want, jsonAs(t, checkWith(t, cfg, []string{p}, false), p, plain)); diff != "" {
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
	files := threeRuns(t, dir, strip(recs))
	want := renderAll(t, checkWith(t, cfg, files, true))
	got := renderAll(t, checkWith(t, cfg, files, false))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("streamed differs from in memory (-memory +streamed):\n%s", diff)
	}
}

// withoutRunFields drops what may differ between a sharded and an unsharded report:
// the run id, the timestamp, the list of input files, and the merged report's state.
func withoutRunFields(t *testing.T, r *report.Report) string {
	t.Helper()
	var b bytes.Buffer
	if err := r.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	if i := strings.Index(s, ",\n  \"shard_state\": {"); i >= 0 {
		s = s[:i] + "\n}\n"
	}
	var keep []string
	skip := false
	for _, l := range strings.Split(s, "\n") {
		switch {
		case strings.Contains(l, `"run_id"`), strings.Contains(l, `"timestamp_utc"`):
			continue
		case strings.Contains(l, `"results_files": [`):
			skip = true
			continue
		case skip:
			skip = !strings.HasPrefix(strings.TrimSpace(l), "]")
			continue
		}
		keep = append(keep, l)
	}
	return strings.Join(keep, "\n")
}

// TestShardsMergedEqualUnsharded: four shards scored apart (score --shard k/4) and
// merged give, byte for byte, the report of the unsharded run (apart from the run id,
// the timestamp and the list of input files): every sum runs in suite order. Shown for
// a suite carried by the results and for a suite file with three runs (one shuffled,
// one with items missing); then merge's refusals.
func TestShardsMergedEqualUnsharded(t *testing.T) {
	t.Parallel()
	dir := benchDir(t)
	recs := benchRecords(2000)
	one := filepath.Join(dir, "items.jsonl")
	writeJSONL(t, one, recs)

	var suite []map[string]any
	for _, r := range recs {
		suite = append(suite, map[string]any{"id": r["id"], "prompt": r["prompt"], "expected_contains": r["expected_contains"]})
	}
	writeJSONL(t, filepath.Join(dir, "suite.jsonl"), suite)
	cfgText, err := os.ReadFile(filepath.Join(dir, "evalgate.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	withSuite := filepath.Join(dir, "with-suite.yaml")
	if err := os.WriteFile(withSuite, append([]byte("suite: suite.jsonl\n"), cfgText...), 0o644); err != nil {
		t.Fatal(err)
	}
	three := threeRuns(t, dir, recs)

	for _, tc := range []struct {
		name, cfg string
		results   []string
	}{
		{"suite from results", filepath.Join(dir, "evalgate.yaml"), []string{one}},
		{"suite file, three runs", withSuite, three},
	} {
		whole, _ := mergedEqualsUnsharded(t, tc.name, tc.cfg, tc.results)
		whole.Close()
	}
}

// mergedEqualsUnsharded checks that the results scored in four shards and merged give
// the unsharded report, and so does check --report on the merged one; it returns the
// unsharded report and the shards' partial reports.
func mergedEqualsUnsharded(t *testing.T, name, cfg string, results []string) (*report.Report, []string) {
	t.Helper()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	opts := CheckOptions{CheckPlan: CheckPlan{Config: cfg, Results: results, NoBaseline: true, CodeVersion: "abc"}, CheckEnv: CheckEnv{Now: now}}
	whole, err := Check(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	var parts []string
	for k := 1; k <= 4; k++ {
		o := opts
		o.Shard = eval.Shard{Index: k, Count: 4}
		r, err := Check(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(t.TempDir(), fmt.Sprintf("shard%d.json", k))
		var buf bytes.Buffer
		if err := r.WriteJSON(&buf); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		r.Close()
		parts = append(parts, p)
	}
	merged, err := checkReports(context.Background(), CheckOptions{CheckPlan: CheckPlan{Config: cfg, NoBaseline: true, CodeVersion: "abc"}, CheckEnv: CheckEnv{Now: now}}, parts)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	defer merged.Close()
	if diff := cmp.Diff(withoutRunFields(t, whole), withoutRunFields(t, merged)); diff != "" {
		t.Errorf("%s: merged shards differ from the unsharded run (-unsharded +merged):\n%s", name, diff)
	}
	// The merged report gates again (check --report) to the same report.
	var buf bytes.Buffer
	if err := merged.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	mp := filepath.Join(t.TempDir(), "merged.json")
	if err := os.WriteFile(mp, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	again, err := checkReports(context.Background(), CheckOptions{CheckPlan: CheckPlan{Config: cfg, NoBaseline: true, CodeVersion: "abc"}, CheckEnv: CheckEnv{Now: now}}, []string{mp})
	if err != nil {
		t.Fatalf("%s: check --report: %v", name, err)
	}
	defer again.Close()
	if diff := cmp.Diff(withoutRunFields(t, whole), withoutRunFields(t, again)); diff != "" {
		t.Errorf("%s: check --report merged.json differs (-unsharded +again):\n%s", name, diff)
	}
	return whole, parts
}
