package importer_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/importer"
)

// compress writes src gzip- or zstd-compressed under dir with the given name.
func compress(t *testing.T, src, dir, name string) string {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if strings.HasSuffix(name, ".zst") {
		zw, err := zstd.NewWriter(&buf)
		if err != nil {
			t.Fatal(err)
		}
		zw.Write(data)
		zw.Close()
	} else {
		zw := gzip.NewWriter(&buf)
		zw.Write(data)
		zw.Close()
	}
	out := filepath.Join(dir, name)
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// runsOf is what a file's runs hold, for comparing two readings of it.
func runsOf(t *testing.T, path string, opts importer.Options) [][]map[string]any {
	t.Helper()
	runs, _, err := importer.LoadRuns(path, opts)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out [][]map[string]any
	for _, r := range runs {
		var recs []map[string]any
		for _, res := range r.Results {
			recs = append(recs, res.Record)
		}
		out = append(out, recs)
	}
	return out
}

// A tool's file compressed with gzip or zstd is detected and read as the plain file is,
// whatever its name, for every format (an Inspect .eval archive too).
func TestCompressedToolFiles(t *testing.T) {
	dir := t.TempDir()
	lmDir := filepath.Join(dir, "lm")
	os.Mkdir(lmDir, 0o755)
	compress(t, filepath.Join("testdata", "lmeval", "results_2024-06-01T12-00-00.000001.json"), lmDir, "results_2024-06-01T12-00-00.000001.json.gz")
	for _, tc := range []struct {
		src    string
		format importer.Format
		outDir string
	}{
		{pfFile("results-0.123.1.json"), importer.Promptfoo, dir},
		{pfFile("repeat-0.123.1.jsonl"), importer.Promptfoo, dir},
		{inspectFile("epochs.json"), importer.Inspect, dir},
		{inspectFile("epochs.eval"), importer.Inspect, dir},
		{filepath.Join("testdata", "lmeval", "samples_arc_easy_2024-06-01T12-00-00.000001.jsonl"), importer.LMEval, lmDir},
	} {
		want := runsOf(t, tc.src, importer.Options{})
		for _, ext := range []string{".gz", ".zst"} {
			name := filepath.Base(tc.src) + ext
			t.Run(name, func(t *testing.T) {
				path := compress(t, tc.src, tc.outDir, name)
				if f, err := importer.Detect(path); err != nil || f != tc.format {
					t.Fatalf("Detect = %q, %v; want %s", f, err, tc.format)
				}
				if diff := cmp.Diff(want, runsOf(t, path, importer.Options{})); diff != "" {
					t.Errorf("runs differ from the plain file's (-plain +compressed):\n%s", diff)
				}
			})
		}
	}
}

// A Git LFS pointer (the file was never fetched) is refused as such, with the fix, by
// detection and by every importer.
func TestLFSPointerRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.json")
	os.WriteFile(path, []byte("version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n"), 0o644)
	for _, f := range []importer.Format{"", importer.Promptfoo, importer.Inspect, importer.LMEval} {
		_, _, err := importer.LoadRuns(path, importer.Options{Format: f})
		if err == nil || !strings.Contains(err.Error(), "is a Git LFS pointer") || !strings.Contains(err.Error(), "git lfs pull") {
			t.Errorf("format %q: error %v; want the LFS pointer named and `git lfs pull`", f, err)
		}
	}
}

// A promptfoo export older than the oldest supported version says its version and the
// supported range.
func TestPromptfooOldFormatRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.json")
	os.WriteFile(path, []byte(`{"evalId": "eval-1", "results": {"version": 2, "timestamp": "2024-08-01T00:00:00Z", "results": [{"vars": {"q": "1"}, "response": {"output": "1"}, "success": true, "score": 1}], "table": {}}}`), 0o644)
	_, _, err := importer.LoadRuns(path, importer.Options{})
	var ie *eval.InputError
	if err == nil || !strings.Contains(err.Error(), "results format version 2") ||
		!strings.Contains(err.Error(), importer.PromptfooOldest+" to "+importer.PromptfooNewest) {
		t.Fatalf("error %v; want the file's version and the supported range", err)
	}
	if !errorsAs(err, &ie) {
		t.Errorf("error %T; want an input error (exit 2)", err)
	}
}

// mid-2025 promptfoo exports leave `assertion` out of javascript assertions' results:
// they are matched to testCase.assert by position; one that cannot be matched is
// named in a warning, never dropped in silence.
func TestPromptfooAssertionsByPosition(t *testing.T) {
	dir := t.TempDir()
	rec := func(desc string, asserts, comps string) string {
		return `{"testCase":{"description":"` + desc + `","vars":{"q":"` + desc + `"},"assert":` + asserts + `},"promptIdx":0,"provider":{"id":"echo"},"prompt":{"raw":"x"},"response":{"output":"x"},"success":true,"score":0.9,` +
			`"gradingResult":{"pass":true,"score":0.9,"componentResults":` + comps + `}}`
	}
	lines := []string{
		// defaultTest's javascript first, then the test's own: results without `assertion`.
		rec("a", `[{"type":"javascript","value":"1"},{"type":"contains","value":"x"},{"type":"javascript","value":"0.8"}]`,
			`[{"pass":true,"score":1},{"pass":true,"score":1,"assertion":{"type":"contains","value":"x"}},{"pass":true,"score":0.8}]`),
		// 2 results for 1 assertion: no position to trust.
		rec("b", `[{"type":"javascript","value":"1"}]`, `[{"pass":true,"score":0.7},{"pass":true,"score":0.6}]`),
	}
	path := filepath.Join(dir, "results.jsonl")
	os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	var warnings []string
	runs, _, err := importer.LoadRuns(path, importer.Options{Warn: func(s string) { warnings = append(warnings, s) }})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := runs[0].Result("a")
	want := map[string]any{"success": true, "score": 0.9, "javascript": 1.0, "contains": 1.0, "javascript_2": 0.8}
	if diff := cmp.Diff(want, a.Scores); diff != "" {
		t.Errorf("a: scores (-want +got):\n%s", diff)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "2 assertion result(s) name no assertion") ||
		!strings.Contains(warnings[0], `line 2 componentResults[0] (test "b")`) {
		t.Errorf("warnings %q; want one naming the 2 results of b", warnings)
	}
}

// A compressed tool file cut short (an interrupted upload or download) is refused as
// corrupt compressed data, whatever its format: detection reads through the damage, so
// it cannot fall back to evalgate's JSONL and report the first promptfoo record as one
// with no "id" or no "output".
func TestTruncatedCompressedToolFile(t *testing.T) {
	dir := t.TempDir()
	for _, src := range []string{pfFile("repeat-0.123.1.jsonl"), pfFile("results-0.123.1.json"), inspectFile("epochs.json")} {
		for _, ext := range []string{".gz", ".zst"} {
			name := filepath.Base(src) + ext
			t.Run(name, func(t *testing.T) {
				path := compress(t, src, dir, name)
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				// Eight bytes short: a gzip file loses its CRC and size trailer, a zstd
				// file the end of its last block; every record before the cut decompresses.
				os.WriteFile(path, data[:len(data)-8], 0o644)
				_, _, err = importer.LoadRuns(path, importer.Options{})
				var ie *eval.InputError
				if err == nil || !errorsAs(err, &ie) || !strings.Contains(err.Error(), "corrupt compressed data") {
					t.Fatalf("error %v; want an input error saying the compressed data is corrupt", err)
				}
			})
		}
	}
}
