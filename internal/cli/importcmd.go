package cli

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/importer"
)

// importCmd converts another tool's results into evalgate's JSONL: one results file per
// run, and the suite when the file carries one.
func (c *CLI) importCmd(args []string) int {
	var f importFlags
	fs := newFlagSet("import", "import [--results-format promptfoo|lm-eval|inspect] [--out-dir DIR] FILE\n\nConverts promptfoo, lm-evaluation-harness or Inspect AI results to evalgate's JSONL: DIR/results.jsonl\n(results-run1.jsonl, ... for several runs: promptfoo --repeat, Inspect epochs) and DIR/suite.jsonl\nwhen the file carries the items. check, score and baseline also read the original files directly.", c.Stderr)
	f.register(fs)
	outDir := fs.String("out-dir", "imported", "`directory` to write results and suite JSONL into")
	if err := fs.Parse(interspersed(fs, args)); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitPass
		}
		return ExitBadInput
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(c.Stderr, "evalgate import: want one results FILE")
		fs.Usage()
		return ExitBadInput
	}
	opts, err := f.options(c.Stderr)
	if err != nil {
		fmt.Fprintf(c.Stderr, "evalgate: %v\n", err)
		return ExitBadInput
	}
	sum, err := importFile(fs.Arg(0), *outDir, opts)
	if err != nil {
		return c.fail(err)
	}
	fmt.Fprint(c.Stdout, sum)
	return ExitPass
}

// importWriter writes JSONL to a temporary file renamed into place at the end, so a
// failed import leaves nothing half-written.
type importWriter struct {
	path, tmp string
	f         *os.File
	w         *bufio.Writer
	n         int
}

func newImportWriter(path string) (*importWriter, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return nil, err
	}
	return &importWriter{path: path, tmp: f.Name(), f: f, w: bufio.NewWriter(f)}, nil
}

func (w *importWriter) write(rec map[string]any) error {
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	w.n++
	w.w.Write(b)
	return w.w.WriteByte('\n')
}

// commit renames the file into place, readable by others as every file evalgate writes
// (os.CreateTemp made it 0600).
func (w *importWriter) commit() error {
	if err := w.w.Flush(); err != nil {
		return err
	}
	if err := w.f.Chmod(0o644); err != nil {
		return err
	}
	if err := w.f.Close(); err != nil {
		return err
	}
	return os.Rename(w.tmp, w.path)
}

func (w *importWriter) abort() {
	w.f.Close()
	os.Remove(w.tmp)
}

// firstResult refuses a second result for an item in one run, as check does; seen holds
// each run and id read (not where, to stay small at a million records). key is scratch.
func firstResult(path string, seen *keySet, key *[]byte, rec importer.Record, result map[string]any) error {
	id, _ := result["id"].(string)
	*key = append(binary.AppendUvarint((*key)[:0], uint64(rec.Run)), id...)
	if !seen.add(*key) {
		place := rec.Where
		if place == "" {
			place = fmt.Sprintf("line %d", rec.Line)
		}
		return eval.Errorf(path, rec.Line, id, "%s: duplicate result for the item in run %d; first earlier in the file", place, rec.Run+1)
	}
	return nil
}

// importFile converts path into outDir and returns a summary for the user.
func importFile(path, outDir string, opts importer.Options) (_ string, err error) {
	made := missingDirs(outDir)
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return "", err
	}
	defer func() { // after abort: bad input leaves no directory of its own behind either
		if err != nil {
			for _, d := range made {
				os.Remove(d) // only an empty one goes
			}
		}
	}()
	var runs []*importWriter
	var suite *importWriter
	seen := &keySet{} // the suite's item ids
	// results: the run and id of each result (check refuses a second one, so does import).
	results := &keySet{}
	var key []byte
	abort := func() { // the files not committed go: at the end, or those of a pass read again
		for _, w := range runs {
			w.abort()
		}
		if suite != nil {
			suite.abort()
		}
		runs, suite, seen, results = nil, nil, &keySet{}, &keySet{}
	}
	defer abort()
	meta, err := importer.ReadRestarting(path, opts, abort, func(rec importer.Record) error {
		for len(runs) <= rec.Run {
			w, err := newImportWriter(filepath.Join(outDir, fmt.Sprintf("results-run%d.jsonl", len(runs)+1)))
			if err != nil {
				return err
			}
			runs = append(runs, w)
		}
		result, item := importer.SplitSuite(rec.Fields)
		if err := firstResult(path, results, &key, rec, result); err != nil {
			return err
		}
		if item != nil {
			id, _ := item["id"].(string)
			if seen.add([]byte(id)) {
				if suite == nil {
					w, err := newImportWriter(filepath.Join(outDir, "suite.jsonl"))
					if err != nil {
						return err
					}
					suite = w
				}
				if err := suite.write(item); err != nil {
					return err
				}
			}
		}
		return runs[rec.Run].write(result)
	})
	if err != nil {
		return "", err
	}
	if len(runs) == 0 {
		return "", fmt.Errorf("%s: no results to import", path)
	}
	if len(runs) == 1 {
		runs[0].path = filepath.Join(outDir, "results.jsonl")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "imported %s (%s):\n", path, meta.Format)
	var files []string
	for _, w := range runs {
		if err := w.commit(); err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "  wrote %s: %d results\n", w.path, w.n)
		files = append(files, w.path)
	}
	runs = nil
	if suite != nil {
		if err := suite.commit(); err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "  wrote %s: %d items\n", suite.path, suite.n)
		suite = nil
	}
	if len(meta.Dimensions) > 0 {
		var names []string
		for _, d := range meta.Dimensions {
			names = append(names, d.Key)
		}
		fmt.Fprintf(&b, "recorded scores: %s (weight them as `scorer: recorded` dimensions; `evalgate init --from %s` writes a starter config)\n", strings.Join(names, ", "), shellQuote(path))
	}
	return b.String(), nil
}

// missingDirs is dir and those of its parents that do not exist yet, deepest first: the
// directories MkdirAll(dir) makes.
func missingDirs(dir string) []string {
	var out []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); !os.IsNotExist(err) {
			return out
		}
		out = append(out, d)
		if filepath.Dir(d) == d {
			return out
		}
	}
}
