package rubric

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// schemaRepo is a repository (a .git directory) holding evals/schemas/, with a secret
// file beside the repository.
func schemaRepo(t *testing.T) (root, schemas, outside string) {
	t.Helper()
	base := t.TempDir()
	if r, err := filepath.EvalSymlinks(base); err == nil {
		base = r
	}
	root = filepath.Join(base, "repo")
	schemas = filepath.Join(root, "evals", "schemas")
	for _, d := range []string{filepath.Join(root, ".git"), schemas} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	outside = filepath.Join(base, "secret.json")
	write(t, outside, `{"type": "string"}`)
	return root, schemas, outside
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestSchemaRefResolvesBesideTheSchema(t *testing.T) {
	root, schemas, _ := schemaRepo(t)
	write(t, filepath.Join(schemas, "defs.json"), `{"$defs": {"word": {"type": "string", "minLength": 1}}}`)
	main := filepath.Join(schemas, "answer.json")
	write(t, main, `{"type": "object", "required": ["english"], "properties": {"english": {"$ref": "defs.json#/$defs/word"}}}`)
	sch, hash, err := compileSchema(main, root)
	if err != nil {
		t.Fatalf("a relative $ref beside the schema: %v", err)
	}
	if err := sch.Validate(map[string]any{"english": ""}); err == nil {
		t.Error("the referenced minLength was not applied")
	}
	// The hash covers the referenced file: change it, the hash changes.
	write(t, filepath.Join(schemas, "defs.json"), `{"$defs": {"word": {"type": "string", "minLength": 2}}}`)
	if _, h2, err := compileSchema(main, root); err != nil || h2 == hash {
		t.Errorf("changing a referenced file left the hash %s (err %v)", h2, err)
	}
}

func TestSchemaWithoutRefKeepsItsHash(t *testing.T) {
	root, schemas, _ := schemaRepo(t)
	body := `{"type": "object"}`
	p := filepath.Join(schemas, "plain.json")
	write(t, p, body)
	_, hash, err := compileSchema(p, root)
	if err != nil {
		t.Fatal(err)
	}
	// What baselines made before $ref support recorded: the sha256 of the bytes.
	sum := sha256.Sum256([]byte(body))
	if hash != hex.EncodeToString(sum[:]) {
		t.Errorf("hash %s; want the file's sha256 %x", hash, sum)
	}
}

func TestSchemaRefsRefused(t *testing.T) {
	root, schemas, outside := schemaRepo(t)
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Write([]byte(`{"type": "string"}`))
	}))
	defer srv.Close()
	if err := os.Symlink(outside, filepath.Join(schemas, "link.json")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, ref, want string }{
		{"absolute file URL", "file:///etc/passwd", "outside the repository"},
		{"up and out", "../../../secret.json", "outside the repository"},
		{"symlink out", "link.json", "resolves to " + outside + ", outside the repository"},
		{"network", srv.URL + "/s.json", "never the network"},
	} {
		p := filepath.Join(schemas, strings.ReplaceAll(tc.name, " ", "_")+".json")
		write(t, p, `{"properties": {"a": {"$ref": "`+tc.ref+`"}}}`)
		_, _, err := compileSchema(p, root)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v; want %q", tc.name, err, tc.want)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the schema compiler made %d network requests", n)
	}
	// The schema file itself is held to the same boundary.
	if _, _, err := compileSchema(outside, root); err == nil || !strings.Contains(err.Error(), "outside the repository") {
		t.Errorf("a schema outside the repository: err %v", err)
	}
}
