package history

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func rec(commit, scoring string, mean float64) Record {
	return Record{Release: "v-" + commit, Date: "2026-01-02T03:04:05Z", Commit: commit, Mean: mean, Runs: 3, PassRate: 1,
		Dimensions: map[string]float64{"correctness": mean}, ScoringSystem: scoring, GradingSystem: "gradingSystem/1.0.0", RubricHash: scoring}
}

func TestAppendIsIdempotentPerCommitAndMarksScoringChanges(t *testing.T) {
	dir := t.TempDir()
	path := PathFor(filepath.Join(dir, "tutor.json"))
	if filepath.Base(path) != "tutor.history.jsonl" {
		t.Fatalf("PathFor = %s", path)
	}
	steps := []struct {
		r     Record
		wrote bool
	}{
		{rec("a", "scoringSystem/1.0.0", 0.9), true},
		{rec("b", "scoringSystem/1.0.0", 0.8), true},
		{rec("b", "scoringSystem/1.0.0", 0.7), false}, // same commit: not appended
		{rec("c", "scoringSystem/2.0.0", 0.95), true},
	}
	for i, s := range steps {
		wrote, err := Append(path, s.r)
		if err != nil || wrote != s.wrote {
			t.Fatalf("step %d: Append = %v, %v; want %v", i, wrote, err, s.wrote)
		}
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[1].Mean != 0.8 {
		t.Fatalf("records %+v", got)
	}
	if got[0].ScoringChanged || got[1].ScoringChanged || !got[2].ScoringChanged {
		t.Errorf("scoring_changed marks %v %v %v; want false false true", got[0].ScoringChanged, got[1].ScoringChanged, got[2].ScoringChanged)
	}
	ga, _ := os.ReadFile(filepath.Join(dir, ".gitattributes"))
	if strings.Count(string(ga), GitAttributesLine) != 1 {
		t.Errorf(".gitattributes = %q; want the union line once", ga)
	}
}

func TestAppendNeverRewrites(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.history.jsonl")
	// A line written by hand (other key order) must survive byte for byte.
	first := `{"commit":"x","release":"","date":"2026-01-01T00:00:00Z","mean":0.5,"std":0,"runs":1,"pass_rate":0.5,"dimensions":{},"scoringSystem":"scoringSystem/1.0.0","gradingSystem":"gradingSystem/1.0.0","rubric_hash":"h"}` + "\n"
	if err := os.WriteFile(path, []byte(first), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Append(path, rec("y", "scoringSystem/1.0.0", 0.6)); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(data), first) {
		t.Errorf("first line rewritten: %q", data)
	}
}

func TestLoadRejectsBadRecords(t *testing.T) {
	cases := map[string]string{
		"unknown field": `{"release":"","date":"2026-01-01T00:00:00Z","commit":"","mean":0.5,"std":0,"runs":1,"pass_rate":1,"dimensions":{},"scoringSystem":"scoringSystem/1.0.0","gradingSystem":"gradingSystem/1.0.0","rubric_hash":"","extra":1}`,
		"bad date":      `{"date":"yesterday","mean":0.5,"runs":1,"scoringSystem":"scoringSystem/1.0.0","gradingSystem":"gradingSystem/1.0.0"}`,
		"bad version":   `{"date":"2026-01-01T00:00:00Z","mean":0.5,"runs":1,"scoringSystem":"v1","gradingSystem":"gradingSystem/1.0.0"}`,
		"zero runs":     `{"date":"2026-01-01T00:00:00Z","mean":0.5,"runs":0,"scoringSystem":"scoringSystem/1.0.0","gradingSystem":"gradingSystem/1.0.0"}`,
		"dim off scale": `{"date":"2026-01-01T00:00:00Z","mean":0.5,"runs":1,"dimensions":{"a":2},"scoringSystem":"scoringSystem/1.0.0","gradingSystem":"gradingSystem/1.0.0"}`,
		"two objects":   `{"date":"2026-01-01T00:00:00Z","mean":0.5,"runs":1,"scoringSystem":"scoringSystem/1.0.0","gradingSystem":"gradingSystem/1.0.0"} {}`,
		"not json":      `mean=0.5`,
	}
	for name, line := range cases {
		_, err := Read("h.jsonl", strings.NewReader("\n"+line+"\n"))
		if err == nil || !strings.HasPrefix(err.Error(), "h.jsonl:2: ") {
			t.Errorf("%s: err = %v; want one naming h.jsonl:2", name, err)
		}
	}
}

func TestLoadMissingFileIsEmpty(t *testing.T) {
	recs, err := Load(filepath.Join(t.TempDir(), "none.history.jsonl"))
	if err != nil || recs != nil {
		t.Errorf("Load = %v, %v; want nil, nil", recs, err)
	}
}

func FuzzRead(f *testing.F) {
	f.Add([]byte(`{"release":"v1","date":"2026-01-01T00:00:00Z","commit":"a","mean":0.9,"std":0,"runs":1,"pass_rate":1,"dimensions":{"c":1},"scoringSystem":"scoringSystem/1.0.0","gradingSystem":"gradingSystem/1.0.0","rubric_hash":"x"}` + "\n"))
	f.Add([]byte("{}\n\n{\"mean\": NaN}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, err := Read("f", strings.NewReader(string(data)))
		if err != nil {
			return
		}
		for _, r := range recs {
			if r.validate() != nil {
				t.Fatalf("accepted an invalid record %+v", r)
			}
		}
	})
}
