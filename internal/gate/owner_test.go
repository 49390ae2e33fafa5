package gate_test

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// One owner of the verdict: only package gate defines the verdict's status type, a
// Verdict type and the regression settings (a struct with a MaxDrop field), and no
// other package exports a decision (a Decide* function or a Blocked field).
//
// Nor does any other package map a verdict to what it means (gate's Word, Conclusion,
// AnnotationLevel, ItemLevel, FailsStep, ExitCode and ErrorExitCode do): no map keyed by
// gate.Status; no verdict word as a string literal; no Exit* constant with a number of its
// own (only names for gate's); and no function that reads a verdict status (gate.Pass,
// gate.Warn, ...) or whether it blocks (.Blocks, other than copied in a composite literal)
// and also names a check conclusion, an annotation level or an exit code (a constant, or
// a conclusion's or level's own word such as "failure" as a string).
//
// The packages are listed with `go list`, their non-test files parsed with go/parser.
func TestOnlyGateOwnsTheVerdict(t *testing.T) {
	out, err := exec.Command("go", "list", "-json", "github.com/evalgate/evalgate/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	seen := 0
	for dec.More() {
		var p struct {
			ImportPath, Dir string
			GoFiles         []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(p.ImportPath, "/internal/gate") {
			continue
		}
		fset := token.NewFileSet()
		for _, f := range p.GoFiles {
			seen++
			path := filepath.Join(p.Dir, f)
			file, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			checkMeaning(t, fset, file)
			ast.Inspect(file, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.TypeSpec:
					name := n.Name.Name
					if strings.Contains(name, "Verdict") || name == "Status" {
						t.Errorf("%s: type %s: only package gate defines the verdict and its status", fset.Position(n.Pos()), name)
					}
					if st, ok := n.Type.(*ast.StructType); ok {
						for _, fld := range st.Fields.List {
							for _, id := range fld.Names {
								if id.Name == "MaxDrop" || id.Name == "Blocked" {
									t.Errorf("%s: %s.%s: the regression settings and decision live in package gate", fset.Position(id.Pos()), name, id.Name)
								}
							}
						}
					}
				case *ast.FuncDecl:
					if strings.HasPrefix(n.Name.Name, "Decide") && n.Name.IsExported() {
						t.Errorf("%s: func %s: only package gate decides", fset.Position(n.Pos()), n.Name.Name)
					}
				}
				return true
			})
		}
	}
	if seen < 50 {
		t.Fatalf("parsed only %d files: go list found too few packages", seen)
	}
}

// verdictWords are the words gate.Verdict.Word says; no other package spells them.
var verdictWords = []string{"passed with warnings", "regression accepted", "inconclusive, blocked", "inconclusive (blocks)"}

// isGateStatus says n is gate.Pass, gate.Warn, gate.Inconclusive, gate.Fail or gate.Accepted.
func isGateStatus(n ast.Node) bool {
	sel, ok := n.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	if !ok || x.Name != "gate" {
		return false
	}
	switch sel.Sel.Name {
	case "Pass", "Warn", "Inconclusive", "Fail", "Accepted":
		return true
	}
	return false
}

// isMeaning says n names a check conclusion, an annotation level or an exit code:
// github.Conclusion*, github.Level*, or any identifier Exit* (cli's and ghaction's names
// for gate's codes included).
func isMeaning(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.SelectorExpr:
		// The constants, not the types (github.Conclusion(v.Conclusion()) converts gate's).
		if x, ok := n.X.(*ast.Ident); ok && x.Name == "github" &&
			(strings.HasPrefix(n.Sel.Name, "Conclusion") && n.Sel.Name != "Conclusion" ||
				strings.HasPrefix(n.Sel.Name, "Level") && n.Sel.Name != "Level") {
			return true
		}
		return strings.HasPrefix(n.Sel.Name, "Exit") && n.Sel.Name != "ExitCode"
	case *ast.Ident:
		return strings.HasPrefix(n.Name, "Exit") && n.Name != "ExitCode"
	}
	return false
}

// checkMeaning reports, in one file outside gate, the ways of mapping a verdict to its
// meaning that TestOnlyGateOwnsTheVerdict forbids.
func checkMeaning(t *testing.T, fset *token.FileSet, file *ast.File) {
	t.Helper()
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.MapType:
			if sel, ok := n.Key.(*ast.SelectorExpr); ok && sel.Sel.Name == "Status" {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "gate" {
					t.Errorf("%s: a map keyed by gate.Status: ask gate what a verdict means", fset.Position(n.Pos()))
				}
			}
		case *ast.BasicLit:
			for _, w := range verdictWords {
				if n.Kind == token.STRING && strings.Contains(n.Value, w) {
					t.Errorf("%s: the verdict word %q: use gate's Verdict.Word", fset.Position(n.Pos()), w)
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if strings.HasPrefix(id.Name, "Exit") && i < len(n.Values) {
					if _, lit := n.Values[i].(*ast.BasicLit); lit {
						t.Errorf("%s: exit code %s has its own number: name gate's (gate.Exit*)", fset.Position(id.Pos()), id.Name)
					}
				}
			}
		case *ast.FuncDecl:
			if n.Body != nil {
				checkFunc(t, fset, n.Name.Name, n.Body)
			}
			return false
		}
		return true
	})
}

// checkFunc reports a function that reads a verdict and names what it means.
func checkFunc(t *testing.T, fset *token.FileSet, name string, body *ast.BlockStmt) {
	t.Helper()
	var reads, means ast.Node
	copied := map[ast.Node]bool{} // .Blocks copied into a composite literal: not a decision
	ast.Inspect(body, func(n ast.Node) bool {
		if kv, ok := n.(*ast.KeyValueExpr); ok {
			copied[kv.Value] = true
		}
		if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "Blocks" && !copied[sel] && reads == nil {
			reads = n
		}
		if isGateStatus(n) && reads == nil {
			reads = n
		}
		if isMeaning(n) && means == nil {
			means = n
		}
		if lit, ok := n.(*ast.BasicLit); ok && means == nil && isMeaningLiteral(lit) {
			means = n
		}
		return true
	})
	if reads != nil && means != nil {
		t.Errorf("%s: func %s reads the verdict (%s) and names its meaning (%s): ask gate (Verdict.Conclusion, AnnotationLevel, ItemLevel, FailsStep, ExitCode)",
			fset.Position(reads.Pos()), name, exprString(reads), exprString(means))
	}
}

// meaningWords are the check conclusions' and annotation levels' own spellings (the
// GitHub API's values); a function that reads a verdict and writes one of them as a
// string maps the verdict itself.
var meaningWords = map[string]bool{`"success"`: true, `"neutral"`: true, `"failure"`: true, `"warning"`: true, `"notice"`: true}

// isMeaningLiteral says lit spells a conclusion or an annotation level.
func isMeaningLiteral(lit *ast.BasicLit) bool {
	return lit.Kind == token.STRING && meaningWords[lit.Value]
}

func exprString(n ast.Node) string {
	switch n := n.(type) {
	case *ast.BasicLit:
		return n.Value
	case *ast.SelectorExpr:
		return exprString(n.X) + "." + n.Sel.Name
	case *ast.Ident:
		return n.Name
	}
	return "?"
}
