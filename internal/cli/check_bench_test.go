package cli

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// checkBenchRecord is a record shaped as bench/gen.py writes them (suite fields, the
// output and the generator's meta on one line, ~490 bytes), in four variants: correct,
// wrong English, not JSON, too long.
func checkBenchRecord(i int) string {
	outs := []string{
		`{\"english\": \"Found.\", \"spanish\": \"encontró\", \"explanation\": \"Past simple of 'find' (3sg); Spanish encontrar. Ref #%d.\"}`,
		`{\"english\": \"Finds.\", \"spanish\": \"encontró\", \"explanation\": \"Past simple of 'find' (3sg); Spanish encontrar. Ref #%d.\"}`,
		`english: Found, spanish: encontró (ref %d)`,
		`{\"english\": \"Found.\", \"spanish\": \"encontró\", \"explanation\": \"Past simple of 'find' (3sg); Spanish encontrar, a long explanation that goes on and on past the budget of thirty words for no reason at all except to be long enough. Ref #%d.\"}`,
	}
	out := fmt.Sprintf(outs[i%len(outs)], i)
	return fmt.Sprintf(`{"id": "conj-%07d", "prompt": "Conjugate 'find' — past simple, 3rd singular.", "expected_contains": {"english": ["found"], "spanish": ["encontró"]}, "output": "%s", "meta": {"verb": "find", "tense": "past simple", "variant": "v%d", "checks": {"english": 1, "spanish": 1, "json": 1, "schema": 1, "words": 1}, "score": 1.0, "pass": true}}`, i, out, i%4)
}

// BenchmarkCheck100k is `evalgate check --config bench/evalgate.yaml --results DATA
// --format json --out REPORT` on 100,000 records, through the command line: reading,
// scoring, the gates and the JSON report written. It reports items per second and
// allocations per item.
func BenchmarkCheck100k(b *testing.B) {
	const n = 100_000
	dir := b.TempDir()
	for _, f := range []string{"evalgate.yaml", "schema.json"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "bench", f))
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	data := filepath.Join(dir, "items.jsonl")
	f, err := os.Create(data)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for i := 1; i <= n; i++ {
		fmt.Fprintln(w, checkBenchRecord(i))
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	args := []string{"evalgate", "check", "--config", filepath.Join(dir, "evalgate.yaml"), "--results", data,
		"--format", "json", "--out", filepath.Join(dir, "report.json")}
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	b.ResetTimer()
	for b.Loop() {
		c := &CLI{Stdin: os.Stdin, Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) string { return "" }, Now: time.Now}
		if code := c.Main(args); code > 1 {
			b.Fatalf("exit code %d", code)
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&ms1)
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "items/s")
	b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/float64(n)/float64(b.N), "allocs/item")
	b.ReportMetric(float64(ms1.TotalAlloc-ms0.TotalAlloc)/float64(n)/float64(b.N), "B/item")
}
