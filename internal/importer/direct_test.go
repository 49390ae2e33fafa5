package importer_test

import (
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/importer"
)

// directRuns reads path as the check does (importer.Direct: the first run handed on as
// it is decoded, the later ones read back from their files), starting again on
// ErrReread; it returns each run's results and how many times the read started again.
func directRuns(t *testing.T, path string, keep func(string) bool) ([][]*eval.Result, int) {
	t.Helper()
	d := importer.NewDirect(path, importer.Options{}, t.TempDir())
	defer d.Remove()
	var first []*eval.Result
	rereads := 0
	for {
		first = nil
		err := d.First(keep, func(r *eval.Result) any { return r.ID }, func(r *eval.Result, prepped any) error {
			if prepped != r.ID {
				t.Errorf("%s: prep saw %v for %s", path, prepped, r.ID)
			}
			first = append(first, r)
			return nil
		})
		if errors.Is(err, importer.ErrReread) && rereads < 3 {
			rereads++
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		break
	}
	runs := [][]*eval.Result{first}
	if later := d.Later(); later != nil {
		for i, run := range later.Runs {
			var got []*eval.Result
			each := func(prep func(*eval.Result) any, fn func(*eval.Result, any) error) error {
				return eval.ScanRun(run, eval.ScanOptions{Prep: prep}, fn)
			}
			err := later.Each(i, each)(func(r *eval.Result) any { return nil }, func(r *eval.Result, _ any) error {
				got = append(got, r)
				return nil
			})
			if err != nil {
				t.Fatalf("%s run %d: %v", path, i+2, err)
			}
			runs = append(runs, got)
		}
	}
	return runs, rereads
}

// clashFile is a promptfoo JSONL export of two tests with one description.
func clashFile(t *testing.T) string {
	t.Helper()
	same := pfLine(t, "same", "echo", map[string]any{})
	var rec map[string]any
	if err := json.Unmarshal([]byte(same), &rec); err != nil {
		t.Fatal(err)
	}
	rec["testCase"].(map[string]any)["vars"] = map[string]any{"other": "value"}
	other, _ := json.Marshal(rec)
	clash := writeLines(t, "clash.jsonl", same, string(other))
	return clash
}

// A file read directly gives the runs LoadRuns gives, record for record (id, output,
// error, line), and the items built from them hash alike though the direct read keeps
// only the fields asked for. It starts again once when the file turns out to hold
// several runs (Inspect epochs, promptfoo --repeat), when its promptfoo tests cannot be
// named by their descriptions, or when its lm-eval samples hold several filters; never
// otherwise.
func TestDirectMatchesLoadRuns(t *testing.T) {
	clash := clashFile(t)
	keepPrompt := func(k string) bool { return k == "prompt" }
	for _, c := range []struct {
		path    string
		rereads int
	}{
		{inspectFile("epochs.json"), 1},
		{inspectFile("epochs.eval"), 1},
		{lmFile("arc_easy"), 0},
		{lmFile("gsm8k"), 1}, // two filters: each doc's lines merged into one record
		{pfFile("results-0.123.1.json"), 0},
		{pfFile("repeat-0.123.1.jsonl"), 1},
		{clash, 1},
	} {
		want, _, err := importer.LoadRuns(c.path, importer.Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, rereads := directRuns(t, c.path, keepPrompt)
		if rereads != c.rereads {
			t.Errorf("%s: read again %d times; want %d", c.path, rereads, c.rereads)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d runs; LoadRuns gives %d", c.path, len(got), len(want))
		}
		for i := range want {
			if len(got[i]) != len(want[i].Results) {
				t.Fatalf("%s run %d: %d results; want %d", c.path, i+1, len(got[i]), len(want[i].Results))
			}
			for k, w := range want[i].Results {
				g := got[i][k]
				if g.ID != w.ID || g.Output != w.Output || g.Error != w.Error || g.Line != w.Line {
					t.Errorf("%s run %d: %s %q %q line %d; want %s %q %q line %d", c.path, i+1, g.ID, g.Output, g.Error, g.Line, w.ID, w.Output, w.Error, w.Line)
				}
				if i > 0 {
					continue
				}
				for key := range g.Fields {
					if key != "prompt" {
						t.Errorf("%s: field %q kept; only prompt was asked for", c.path, key)
					}
				}
				gi, err1 := eval.ItemFromResult(c.path, g)
				wi, err2 := eval.ItemFromResult(c.path, w)
				if err1 != nil || err2 != nil || gi.Hash != wi.Hash {
					t.Errorf("%s: item %s hashes %s, want %s (%v, %v)", c.path, g.ID, gi.Hash, wi.Hash, err1, err2)
				}
			}
		}
		if c.path == clash && (got[0][0].ID == "same" || got[0][0].ID == got[0][1].ID) {
			t.Errorf("clashing descriptions: ids %s, %s; want the vars' hashes", got[0][0].ID, got[0][1].ID)
		}
	}
}

// A bad record read directly is refused with the tool's file, the record's place and
// the item, and no later run's file is left behind.
func TestDirectBadRecordNamesPlace(t *testing.T) {
	dir := t.TempDir()
	bad := writeLines(t, "results.jsonl", pfLine(t, "first", "echo", map[string]any{}), `{"testCase": 3}`)
	d := importer.NewDirect(bad, importer.Options{}, dir)
	err := d.First(nil, func(r *eval.Result) any { return nil }, func(*eval.Result, any) error { return nil })
	if err == nil || err.Error() != bad+`:2: field "testCase" is a number; want an object` {
		t.Errorf("error %v", err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}

// LoadRuns and Convert read a file in one pass where Read first reads how to read it
// (promptfoo's test names, lm-eval's filters): the pass takes the common case and starts
// again only when a record says otherwise. The records and warnings are Read's.
func TestReadRestartingMatchesRead(t *testing.T) {
	clash := clashFile(t)
	for _, c := range []struct {
		path   string
		passes int
	}{
		{lmFile("arc_easy"), 1},
		{lmFile("gsm8k"), 2}, // two filters: the second starts the read again
		{pfFile("results-0.123.1.json"), 1},
		{pfFile("repeat-0.123.1.jsonl"), 1},
		{clash, 2}, // two tests with one description: named by their vars
		{inspectFile("epochs.json"), 1},
	} {
		var want, got []importer.Record
		var wantWarn, gotWarn []string
		if _, err := importer.Read(c.path, importer.Options{Warn: func(m string) { wantWarn = append(wantWarn, m) }}, func(r importer.Record) error {
			want = append(want, r)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		passes := 0
		begin := func() { passes, got = passes+1, nil }
		if _, err := importer.ReadRestarting(c.path, importer.Options{Warn: func(m string) { gotWarn = append(gotWarn, m) }}, begin, func(r importer.Record) error {
			got = append(got, r)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if passes != c.passes {
			t.Errorf("%s: %d passes; want %d", c.path, passes, c.passes)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %d records differ from Read's %d", c.path, len(got), len(want))
		}
		if !reflect.DeepEqual(gotWarn, wantWarn) {
			t.Errorf("%s: warnings %q; Read gives %q", c.path, gotWarn, wantWarn)
		}
	}
}

// A direct read that starts again gives its warnings once, those of the read that went
// to the end: the ones Read gives (here lm-eval samples whose second filter comes after
// a line with a corpus-level metric, warned about in both passes).
func TestDirectWarnsOnce(t *testing.T) {
	src, err := os.ReadFile(lmFile("wmt16_de_en"))
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(src), "\n")
	second := strings.Replace(first, `"filter": "none"`, `"filter": "other"`, 1)
	path := writeLines(t, "samples_wmt16_de_en_"+lmDate+".jsonl", first, second)
	_, _, want := readAll(t, path, importer.Options{})
	var got []string
	d := importer.NewDirect(path, importer.Options{Warn: func(m string) { got = append(got, m) }}, t.TempDir())
	defer d.Remove()
	rereads := 0
	for {
		err := d.First(nil, func(*eval.Result) any { return nil }, func(*eval.Result, any) error { return nil })
		if errors.Is(err, importer.ErrReread) && rereads < 3 {
			rereads++
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		break
	}
	if rereads != 1 || len(want) < 2 || !reflect.DeepEqual(got, want) {
		t.Errorf("%d reread(s), warnings %q; want 1 and Read's %q", rereads, got, want)
	}
}
