package runner

import (
	"strings"
	"testing"
)

// A record the results loader reads (up to 64 MiB a line) is also one a resumed run
// counts as done. Completed bounded a line at 16 MiB, so a run with one 20 MiB output
// (escaped JSON can be larger than the output it holds) could not be resumed.
func TestCompletedReadsRecordsAsLargeAsTheLoaderDoes(t *testing.T) {
	big := `{"id":"big","output":"` + strings.Repeat("x", 20<<20) + `"}`
	done, err := Completed(strings.NewReader(`{"id":"a","output":"ok"}` + "\n" + big + "\n" + `{"id":"b","output":"ok"}` + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(done) != 3 || !done["a"] || !done["big"] || !done["b"] {
		t.Errorf("done %v; want a, big and b", done)
	}
}
