package baseline_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/eval"
)

// TestOpenRefusesNewerVersion: a baseline a later evalgate wrote is refused for its
// version, naming the file and saying to upgrade, in either layout (a JSON Lines header,
// or one indented object), however its fields differ from the ones this evalgate knows.
func TestOpenRefusesNewerVersion(t *testing.T) {
	cases := map[string]string{
		// A header with a field this evalgate does not know, and "items" of another type.
		"header.jsonl": `{"schema_version":3,"suite":"s","scoringSystem":"x","source":{},"items":{"count":1},"item_encoding":"columns"}` + "\n" +
			`{"ids":["e-01"]}` + "\n",
		// One object over several lines, its first line no header.
		"object.json": "{\n  \"schema_version\": 9,\n  \"suite\": \"s\",\n  \"items\": 2\n}\n",
	}
	for name, content := range cases {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), name)
			if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := baseline.Open(path)
			var in *eval.InputError
			if !errors.As(err, &in) {
				t.Fatalf("Open: %v; want an input error", err)
			}
			for _, want := range []string{path + ":1: ", "written by a newer evalgate", fmt.Sprintf("reads versions up to %d", baseline.SchemaVersion), "upgrade evalgate"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q; want it to contain %q", err, want)
				}
			}
		})
	}
}
