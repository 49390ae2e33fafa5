package eval_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/eval"
)

// Each loader, given any bytes, returns a value or an *eval.InputError naming the file:
// never a panic, never another kind of error. Seeds are the shipped examples, the
// bad-input catalog (internal/cli/testdata/bad) and the byte-level cases a text file
// cannot hold; crashers found by fuzzing live in testdata/fuzz/<Target>/.
//
//	go test -run x -fuzz FuzzParseRun -fuzztime 30s ./internal/eval

// seedFiles adds every file matching the globs (relative to this package) to f.
func seedFiles(f *testing.F, globs ...string) {
	f.Helper()
	n := 0
	for _, g := range globs {
		paths, err := filepath.Glob(g)
		if err != nil {
			f.Fatal(err)
		}
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
			n++
		}
	}
	if n == 0 {
		f.Fatalf("no seed files match %v", globs)
	}
}

// byteSeeds are inputs a checked-in text file would not keep intact.
var byteSeeds = []string{
	"",
	"\n\n",
	"\uFEFF{\"id\": \"a\", \"output\": \"x\"}\n",
	"{\"id\": \"a\", \"output\": \"x\"}\r\n{\"id\": \"b\", \"output\": \"y\"}\r\n",
	"{\"id\": \"a\", \"output\": \"\xff\"}\n",
	"{\"id\": \"a\", \"output\": \"x\x00\"}\n",
	"{\"id\": \"a\", \"output\": \"x\", \"latency_e2e_ms\": NaN}\n",
	"{\"id\": \"a\", \"output\": \"x\", \"latency_e2e_ms\": 1e999}\n",
	"{\"id\": \"a\", \"output\": \"x\", \"output\": \"y\"}\n",
	"{\"id\": \"a\", \"output\": {\"english\": \"Ate.\"}, \"scores\": {\"accuracy\": 2}}\n",
	"{\"id\": \"a\", \"error\": \"timeout\", \"timed_out\": true}\n",
	"{\"id\": \"a\"}{\"id\": \"b\"}\n",
	"[1, 2]\n",
	"{\"id\": \"a\", \"output\": \"x\"}\n{\"id\": \"a\", \"output\": \"x\"}\n",
	"- id: a\n  expected: x\n",
	"name: s\nitems:\n  - id: a\n    expected: .nan\n",
	"name: s\nitems: []\n",
	"items:\n  - id: a\n  - id: a\n",
	"items: {a: 1}\n",
	"--- \n- id: a\n---\n- id: b\n",
	"- &x {id: a}\n- *x\n",
	"- id: a\n  tags: [1, 2]\n",
	"- id: 1\n",
	"- {id: a, expected: !!binary aGVsbG8=}\n",
	"- {id: a, n: 0x1p-2}\n",
	// Alias expansion and nesting limits (safeio): a chain past 10,000 nodes, a chain
	// within it, a flow list and a block mapping past 1,000 levels.
	"- id: a\n  b: &b0 [x]\n  c: &b1 [*b0, *b0, *b0, *b0, *b0, *b0, *b0, *b0, *b0, *b0]\n  d: &b2 [*b1, *b1, *b1, *b1, *b1, *b1, *b1, *b1, *b1, *b1]\n  e: &b3 [*b2, *b2, *b2, *b2, *b2, *b2, *b2, *b2, *b2, *b2]\n  f: &b4 [*b3, *b3, *b3, *b3, *b3, *b3, *b3, *b3, *b3, *b3]\n  g: [*b4, *b4]\n",
	"- id: a\n  b: &b0 [x]\n  c: [*b0, *b0]\n",
	"- id: a\n  b: " + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + "\n",
	"- id: a\n  b:\n" + deepBlock(1001),
	"{\"id\": \"a\", \"output\": \"x\", \"b\": " + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + "}\n",
}

// deepBlock is a block mapping nested n levels, indented under a key.
func deepBlock(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(strings.Repeat(" ", i+4) + "k:\n")
	}
	return b.String()
}

func addByteSeeds(f *testing.F) {
	for _, s := range byteSeeds {
		f.Add([]byte(s))
	}
}

// checkErr fails unless err is an *eval.InputError that names the file.
func checkErr(t *testing.T, path string, err error) {
	t.Helper()
	var ie *eval.InputError
	if !errors.As(err, &ie) {
		t.Fatalf("error is %T, not *eval.InputError: %v", err, err)
	}
	if ie.File != path {
		t.Fatalf("error names file %q; want %q: %v", ie.File, path, err)
	}
	if ie.Line < 0 || ie.Col < 0 {
		t.Fatalf("negative position: %v", err)
	}
	if strings.TrimSpace(ie.Msg) == "" {
		t.Fatalf("empty message: %#v", ie)
	}
}

func checkSuite(t *testing.T, s *eval.Suite) {
	t.Helper()
	if s.Len() == 0 {
		t.Fatal("suite without items accepted")
	}
	seen := map[string]bool{}
	for _, it := range s.All() {
		if strings.TrimSpace(it.ID) == "" {
			t.Fatal("item with an empty id accepted")
		}
		if seen[it.ID] {
			t.Fatalf("duplicate id %q accepted", it.ID)
		}
		seen[it.ID] = true
		if got, ok := s.Item(it.ID); !ok || got != it {
			t.Fatalf("Item(%q) does not find the item", it.ID)
		}
		if it.Line <= 0 {
			t.Fatalf("item %q has line %d", it.ID, it.Line)
		}
	}
}

func FuzzParseSuiteYAML(f *testing.F) {
	seedFiles(f, "../../examples/*/suite.yaml", "../../examples/*/*.yaml", "../cli/testdata/bad/*/suite.yaml")
	addByteSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		const path = "suite.yaml"
		s, err := eval.ParseSuite(path, data)
		if err != nil {
			checkErr(t, path, err)
			return
		}
		checkSuite(t, s)
	})
}

func FuzzParseSuiteJSONL(f *testing.F) {
	seedFiles(f, "../../examples/*/results/*.jsonl", "../cli/testdata/bad/*/suite.jsonl", "../cli/testdata/bad/*/results.jsonl")
	addByteSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		const path = "suite.jsonl"
		s, err := eval.ParseSuite(path, data)
		if err != nil {
			checkErr(t, path, err)
			return
		}
		checkSuite(t, s)
	})
}

func FuzzParseRun(f *testing.F) {
	seedFiles(f, "../../examples/*/results/*.jsonl", "../../examples/*/release/*.jsonl", "../cli/testdata/bad/*/results.jsonl")
	addByteSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		const path = "run.jsonl"
		run, err := eval.ReadRun(path, bytes.NewReader(data))
		if err != nil {
			checkErr(t, path, err)
			return
		}
		seen := map[string]bool{}
		for _, r := range run.Results {
			if seen[r.ID] {
				t.Fatalf("duplicate result %q accepted", r.ID)
			}
			seen[r.ID] = true
			if got, ok := run.Result(r.ID); !ok || got != r {
				t.Fatalf("Result(%q) does not find the record", r.ID)
			}
			for _, p := range []*float64{r.LatencyE2EMs, r.LatencyModelMs, r.InputTokens, r.OutputTokens} {
				if p != nil && (*p < 0 || *p != *p) {
					t.Fatalf("item %q: negative or NaN number accepted: %v", r.ID, *p)
				}
			}
			if _, hasOut := r.Record["output"]; !hasOut && !r.Failed() {
				t.Fatalf("item %q: record without output accepted", r.ID)
			}
		}
		// The same records read as a suite (results that carry suite fields), and the
		// run checked against that suite, must hold too.
		s, err := eval.SuiteFromRun(run)
		if err != nil {
			checkErr(t, path, err)
			return
		}
		if err := run.CheckAgainst(s); err != nil {
			t.Fatalf("a run does not match the suite built from it: %v", err)
		}
		if m := run.Missing(s); len(m) != 0 {
			t.Fatalf("items missing from the run they were built from: %v", m)
		}
	})
}
