package config_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/evalgate/evalgate/internal/rubric"
)

// The schema refuses the same dimension names as evalgate: the keys of a report item.
func TestConfigSchemaReservedDimensionNames(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(configSchemaPath)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Defs map[string]struct {
			Properties map[string]struct {
				Not struct {
					Enum []string `json:"enum"`
				} `json:"not"`
			} `json:"properties"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	got := doc.Defs["dimension"].Properties["name"].Not.Enum
	if diff := cmp.Diff(rubric.ReportItemKeys, got); diff != "" {
		t.Errorf("schema dimension name's not.enum (-rubric.ReportItemKeys +schema):\n%s", diff)
	}
}
