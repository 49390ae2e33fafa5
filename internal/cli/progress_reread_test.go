package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/progress"
)

// A promptfoo export read directly is read again when a late test shares an earlier
// one's description (its tests are then named by their vars: importer.ErrReread); the
// meter counts each record once, not the ones the stopped read had scored too.
func TestProgressCountsARereadOnce(t *testing.T) {
	dir := t.TempDir()
	const n = 100
	var results []string
	for i := range n {
		desc := fmt.Sprintf("test %d", i)
		if i == n-1 {
			desc = "test 0" // the clash, after more than a batch of records was scored
		}
		results = append(results, fmt.Sprintf(`{"testCase": {"description": %q, "vars": {"q": "%d"}}, "vars": {"q": "%d"}, "promptIdx": 0, "provider": {"id": "p"}, "prompt": {"raw": "q %d"}, "response": {"output": "a"}, "success": true, "score": 1}`, desc, i, i, i))
	}
	pf, cfg := filepath.Join(dir, "results.json"), filepath.Join(dir, "pf.yaml")
	doc := `{"evalId": "e", "results": {"version": 3, "results": [` + strings.Join(results, ",\n") + `]}}`
	if err := os.WriteFile(pf, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte("name: pf\nscoring:\n  version: scoringSystem/1.0.0\n  dimensions:\n    - {name: s, key: score, weight: 1, scorer: recorded, scale: unit}\ngrading:\n  version: gradingSystem/1.0.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := progress.New(io.Discard, "scoring", "records", progress.Options{})
	r, err := Check(context.Background(), CheckOptions{CheckPlan: CheckPlan{Config: cfg, Results: []string{pf}}, CheckEnv: CheckEnv{Progress: m}})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Items) != n {
		t.Fatalf("%d items; want %d", len(r.Items), n)
	}
	// The stopped read scored its first batch (64 records) before the clash at the
	// 100th: without the restart's reset the meter says 164.
	if got := m.Count(); got != n {
		t.Errorf("meter counted %d records; want the export's %d", got, n)
	}
}
