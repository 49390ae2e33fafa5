package rubric

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/evalgate/evalgate/internal/safeio"
)

// compileSchema reads a JSON Schema file and the files its $refs name. A relative $ref
// resolves against the schema file's directory; every file read (the schema included)
// must lie inside root, the config's repository, with symlinks resolved; a $ref to
// anything but a file (https://...) is refused: nothing is fetched over the network.
//
// hash covers the schema and every file it references: a schema without $ref keeps the
// hash of its bytes alone (what baselines made before $ref support recorded), one with
// $refs adds each referenced file's path (relative to root) and sha256.
func compileSchema(path, root string) (*jsonschema.Schema, string, error) {
	l := &schemaLoader{root: root, refs: map[string]string{}}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, "", fmt.Errorf("schema file %s: %v", path, err)
	}
	data, err := l.read(abs, path)
	if err != nil {
		return nil, "", err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, "", fmt.Errorf("schema file %s is not valid JSON: %v", path, err)
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(l)
	u := fileURL(abs)
	if err := c.AddResource(u, doc); err != nil {
		return nil, "", fmt.Errorf("schema file %s: %v", path, err)
	}
	sch, err := c.Compile(u)
	if err != nil {
		if l.err != nil { // the loader's own message says which $ref and why
			return nil, "", fmt.Errorf("schema file %s: %v", path, l.err)
		}
		return nil, "", fmt.Errorf("schema file %s: %v", path, err)
	}
	sum := sha256.Sum256(data)
	if len(l.refs) == 0 {
		return sch, hex.EncodeToString(sum[:]), nil
	}
	h := sha256.New()
	h.Write(sum[:])
	names := make([]string, 0, len(l.refs))
	for n := range l.refs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(h, "\n%s %s", n, l.refs[n])
	}
	return sch, hex.EncodeToString(h.Sum(nil)), nil
}

func fileURL(abs string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

// schemaLoader is the compiler's only loader: files inside root, read within safeio's
// bounds; it remembers each file's hash.
type schemaLoader struct {
	root string
	refs map[string]string // path relative to root → sha256
	err  error             // the first refusal, for a clear message
}

// Load implements jsonschema.URLLoader.
func (l *schemaLoader) Load(ref string) (any, error) {
	u, err := url.Parse(ref)
	if err != nil || u.Scheme != "file" {
		return nil, l.fail(fmt.Errorf("$ref %q: only files beside the schema are read, never the network", ref))
	}
	path, err := jsonschema.FileLoader{}.ToFile(ref)
	if err != nil {
		return nil, l.fail(fmt.Errorf("$ref %q: %v", ref, err))
	}
	data, err := l.read(path, path)
	if err != nil {
		return nil, l.fail(fmt.Errorf("$ref %q: %v", ref, err))
	}
	resolved, _ := safeio.Within(l.root, path)
	rel, _ := filepath.Rel(l.root, resolved)
	sum := sha256.Sum256(data)
	l.refs[filepath.ToSlash(rel)] = hex.EncodeToString(sum[:])
	return jsonschema.UnmarshalJSON(bytes.NewReader(data))
}

func (l *schemaLoader) fail(err error) error {
	if l.err == nil {
		l.err = err
	}
	return err
}

// read reads one schema file inside root; name is how messages call it.
func (l *schemaLoader) read(path, name string) ([]byte, error) {
	resolved, err := safeio.Within(l.root, path)
	if err != nil {
		var oe *safeio.OutsideError
		if errors.As(err, &oe) {
			oe.Path = name
			return nil, fmt.Errorf("schema file %v", oe)
		}
		return nil, fmt.Errorf("schema file %s: %v", name, err)
	}
	data, err := safeio.ReadFile(resolved, "JSON Schema", safeio.MaxSmallFileBytes)
	if err != nil {
		var ie *safeio.InputError
		if errors.As(err, &ie) {
			err = errors.New(strings.TrimPrefix(ie.Msg, "cannot read JSON Schema file: "))
		}
		return nil, fmt.Errorf("schema file %s: %v", name, err)
	}
	if err := safeio.CheckJSONDepth(name, data, 1); err != nil {
		return nil, fmt.Errorf("schema file %v", err)
	}
	return data, nil
}
