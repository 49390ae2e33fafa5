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
// other package exports a decision (a Decide* function or a Blocked field). The
// packages are listed with `go list`, their non-test files parsed with go/parser.
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
