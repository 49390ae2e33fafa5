package runner

import (
	"bytes"
	"testing"
)

// FuzzCompleted: a results file read back to resume a run (a file the run wrote, cut
// anywhere by a kill, or edited by hand) gives the ids of whole result lines and never
// panics; every id it gives is one the file holds.
func FuzzCompleted(f *testing.F) {
	f.Add([]byte("{\"id\":\"a\",\"output\":\"x\"}\n{\"id\":\"b\",\"outp"))
	f.Add([]byte("{\"id\":\"\"}\nnot json\n{\"id\":\"c\\u0000\"}\n"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, data []byte) {
		done, err := Completed(bytes.NewReader(data))
		if err != nil {
			return
		}
		for id := range done {
			if id == "" {
				t.Fatal("an empty id counted as done")
			}
		}
		if len(done) > bytes.Count(data, []byte("\n"))+1 {
			t.Fatalf("%d ids from %d lines", len(done), bytes.Count(data, []byte("\n"))+1)
		}
	})
}
