package cli

import (
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// DefaultMaxMemory is the memory check and score may use unless --max-memory says
// otherwise: a streamed million-item suite needs about a third of it.
const DefaultMaxMemory = 1 << 30

// memoryFlag is --max-memory: a size such as 512MiB, 2GiB or 1500000000 (bytes).
type memoryFlag struct{ bytes int64 }

func (m *memoryFlag) String() string {
	if m.bytes == 0 {
		return "1GiB"
	}
	return formatBytes(m.bytes)
}

// Set parses a size with an optional KiB, MiB, GiB (or KB, MB, GB, K, M, G) suffix.
func (m *memoryFlag) Set(v string) error {
	n, err := parseBytes(v)
	if err != nil {
		return err
	}
	m.bytes = n
	return nil
}

func parseBytes(v string) (int64, error) {
	s := strings.TrimSpace(v)
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1000}, {"MB", 1e6}, {"GB", 1e9}, {"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}} {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.mult
			break
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || !(f > 0) || f*float64(mult) > 1<<50 { // !(f > 0): NaN too, which no comparison holds for
		return 0, fmt.Errorf("invalid size %q; want a number of bytes or e.g. 512MiB, 2GiB", v)
	}
	if n := int64(f * float64(mult)); n >= 64<<20 {
		return n, nil
	}
	return 0, fmt.Errorf("size %q is under 64MiB, too little to score anything", v)
}

func formatBytes(n int64) string {
	switch {
	case n%(1<<30) == 0:
		return fmt.Sprintf("%dGiB", n>>30)
	case n%(1<<20) == 0:
		return fmt.Sprintf("%dMiB", n>>20)
	}
	return strconv.FormatInt(n, 10)
}

// limitMemory sets the Go runtime's soft memory limit to the budget, unless GOMEMLIMIT
// says otherwise, and returns the budget. The collector keeps its default pace (GOGC
// 100) until tuneGC sees large results.
func limitMemory(m memoryFlag) int64 {
	limit := m.bytes
	if limit == 0 {
		limit = DefaultMaxMemory
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(limit * 9 / 10)
	}
	return limit
}

// largeResults is the size of the results (bytes read, all files) from which tuneGC
// lets the heap grow further between collections.
const largeResults = 16 << 20

// tuneGC lets the heap grow to three times the live heap between collections (GOGC
// 200, still under the soft limit) when the results are large. The live state is
// compact and pointer-free, so a collection costs little; what a larger heap costs is
// fresh pages. On a million items, GOGC 400 took the same user CPU, 1.4 s more system
// CPU and 300 MB more peak RSS than 200; 100 took 1.4 s more user CPU. Small results keep
// the default pace, so a small suite's heap is not inflated for nothing. GOGC set by
// the user wins.
func tuneGC(resultsBytes int64) {
	if os.Getenv("GOGC") == "" && resultsBytes >= largeResults {
		debug.SetGCPercent(200)
	}
}
