package rubric

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Metric names are written once, in metrics.go and cost.go: no other production file
// spells a run metric's name or a dimension metric's suffix as a string literal (struct
// tags aside, which name JSON fields). A few names are also the names of result or
// baseline fields (timed_out, errors, items, pass_rate, cost_usd, total_tokens), which
// other packages read as fields, not metrics, and judge_errors is also a diagnosis
// rule's name; they are left out.
func TestMetricNamesAreWrittenOnce(t *testing.T) {
	t.Parallel()
	alsoFields := map[string]bool{MetricTimedOut: true, MetricErrors: true, MetricItems: true,
		MetricPassRate: true, MetricCostUSD: true, MetricTotalTokens: true, MetricJudgeErrors: true}
	names := map[string]bool{}
	for _, n := range runMetricNames {
		if !alsoFields[n] {
			names[n] = true
		}
	}
	for _, s := range DimensionMetricSuffixes {
		names[s] = true
	}
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && path != root) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		if filepath.Dir(path) == "." || filepath.Base(filepath.Dir(path)) == "rubric" && (d.Name() == "metrics.go" || d.Name() == "cost.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		tags := map[*ast.BasicLit]bool{}
		ast.Inspect(f, func(n ast.Node) bool {
			if fl, ok := n.(*ast.Field); ok && fl.Tag != nil {
				tags[fl.Tag] = true
			}
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING || tags[lit] {
				return true
			}
			if v, err := strconv.Unquote(lit.Value); err == nil && names[v] {
				t.Errorf("%s: metric name %q written as a literal; use rubric's constant", fset.Position(lit.Pos()), v)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
