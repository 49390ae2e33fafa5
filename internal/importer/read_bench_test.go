package importer_test

import (
	"os"
	"testing"

	"github.com/evalgate/evalgate/internal/importer"
)

// BenchmarkRead reads the tool's file $EVALGATE_BENCH_FILE (skipped when unset), e.g. a
// bench/gen-tools.py inspect.eval: profile it with -cpuprofile.
func BenchmarkRead(b *testing.B) {
	path := os.Getenv("EVALGATE_BENCH_FILE")
	if path == "" {
		b.Skip("EVALGATE_BENCH_FILE names no file to read")
	}
	for b.Loop() {
		n := 0
		if _, err := importer.Read(path, importer.Options{}, func(importer.Record) error { n++; return nil }); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(n), "records")
	}
}
