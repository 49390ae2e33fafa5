package calibration_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/calibration"
	"github.com/evalgate/evalgate/internal/eval"
)

// FuzzParse: any bytes give labelled outputs or an *eval.InputError naming the file,
// never a panic; every output parsed has a name, an item, an output and at least one
// label per dimension it names.
//
//	go test -run x -fuzz FuzzParse -fuzztime 30s ./internal/calibration
func FuzzParse(f *testing.F) {
	seed, err := os.ReadFile("testdata/labels.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	for _, s := range []string{
		"", "[]\n", "---\n---\n", "a: &a [*a]\n", "- name: x\n", "- {name: x, item: 1, output: y, labels: {a: 1}}\n",
		"- {name: x, item: q, output: y, labels: {a: []}}\n", "- {name: x, item: q, output: y, labels: {a: [[1]]}}\n",
		"- {name: x, item: q, output: y, labels: {a: {b: 1}}}\n", "- {name: x, item: q, output: y, labels: {a: .nan}}\n",
		"- {name: x, item: q, output: y, labels: {a: 1}}\n- {name: x, item: q, output: y, labels: {a: 1}}\n",
		"- {name: x, item: q, output: y, labels: {a: 1}, extra: 1}\n", "\xff\xfe", "- !!binary x\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cases, err := calibration.Parse("cal.yaml", data)
		if err != nil {
			var ie *eval.InputError
			if !errors.As(err, &ie) || !strings.HasPrefix(err.Error(), "cal.yaml") {
				t.Fatalf("error %v (%T) is not an input error naming the file", err, err)
			}
			return
		}
		for _, c := range cases {
			if c.Name == "" || c.Item == nil || c.Output == nil || len(c.Labels) == 0 {
				t.Fatalf("case %+v accepted with a part missing", c)
			}
			for dim := range c.Labels {
				if len(c.Values(dim)) == 0 {
					t.Fatalf("case %q: labels.%s accepted empty", c.Name, dim)
				}
			}
		}
	})
}
