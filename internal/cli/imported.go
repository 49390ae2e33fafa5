package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/importer"
	"github.com/evalgate/evalgate/internal/rubric"
	"github.com/evalgate/evalgate/internal/safeio"
)

// importFlags choose how results written by another tool are read.
type importFlags struct {
	Format    string
	IDField   string
	Prompt    string
	Filter    string
	LMResults string
}

func (f *importFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.Format, "results-format", "", "results file `format`: "+importer.FormatNames()+" (default: detected from the content)")
	fs.StringVar(&f.IDField, "id-field", "", "promptfoo: the test `variable` (or metadata.KEY) whose value is the item id (default: the description when unique, else a hash of the vars)")
	fs.StringVar(&f.Prompt, "promptfoo-prompt", "", "promptfoo: the prompt/provider pair to import when the file holds several: its `index`, provider id or prompt label")
	fs.StringVar(&f.Filter, "lm-eval-filter", "", "lm-eval: the `filter` to import when the samples carry several (default: one dimension per metric and filter)")
	fs.StringVar(&f.LMResults, "lm-eval-results", "", "lm-eval: the task's results_<date>.json `file` for model and version metadata (default: the one beside the samples file)")
}

// options builds the importer's options; warnings go to w.
func (f *importFlags) options(w io.Writer) (importer.Options, error) {
	format, err := importer.ParseFormat(f.Format)
	if err != nil {
		return importer.Options{}, err
	}
	return importer.Options{
		Format: format, IDField: f.IDField, Prompt: f.Prompt, Filter: f.Filter, LMEvalResults: f.LMResults,
		Warn: func(msg string) { fmt.Fprintf(w, "warning: %s\n", msg) },
	}, nil
}

// detectFormat settles the results files' format: the --results-format given, or the one
// their content shows, the same for every file (standard input is evalgate's JSONL).
func (l *Loaded) detectFormat() error {
	l.format = l.importOpts.Format
	if l.format != "" && l.format != importer.Evalgate && slices.Contains(l.Paths, safeio.Stdin) {
		// Another tool's file names its items by its own name (lm-eval's task) and may be
		// a document read more than once: it is read from its file, never standard input.
		return eval.Errorf(l.Config.File, 0, "", "--results - (standard input) is read as evalgate's JSONL, not %s: give the %s file by name", l.format, l.format)
	}
	if l.format != "" {
		return nil
	}
	for _, p := range l.Paths {
		f := importer.Evalgate
		if p != safeio.Stdin {
			var err error
			if f, err = importer.Detect(p); err != nil {
				return err
			}
		}
		if l.format != "" && f != l.format {
			// Detect leaves a file it cannot read to evalgate's loader: say that, not a mix.
			for _, q := range []string{l.firstFile, p} {
				if err := readable(q); err != nil {
					return err
				}
			}
			return eval.Errorf(p, 0, "", "holds %s results, but %s holds %s results: the results files of one check are all in one format", f, l.firstFile, l.format)
		}
		l.format, l.firstFile = f, p
	}
	return nil
}

// readable says why a results file cannot be read, or nil (standard input always can).
func readable(path string) error {
	if path == safeio.Stdin {
		return nil
	}
	f, err := safeio.Open(path, "results")
	if err != nil {
		return err
	}
	return f.Close()
}

// loadResultsFile reads one file another tool wrote as evalgate runs: one, or one per
// repeat (promptfoo --repeat) or epoch (Inspect).
func (l *Loaded) loadResultsFile(path string) ([]*eval.Run, error) {
	opts := l.importOpts
	opts.Format = l.format
	runs, meta, err := importer.LoadRuns(path, opts)
	if err != nil {
		return nil, err
	}
	l.noteImported(meta)
	return runs, nil
}

// noteImported keeps the run metadata an imported file carries (the first file's wins).
func (l *Loaded) noteImported(meta *importer.Meta) {
	for k, v := range meta.Metadata {
		if l.imported == nil {
			l.imported = map[string]string{}
		}
		if _, ok := l.imported[k]; !ok {
			l.imported[k] = v
		}
	}
}

// directImported prepares reading every results file another tool wrote straight into
// the scoring (importer.Direct): one read of each file, no copy of the first run; the
// later runs of a file that holds several wait in temporary files. Standard input is left
// to LoadRuns.
func (l *Loaded) directImported() {
	if l.format == importer.Evalgate || l.direct != nil || slices.Contains(l.Paths, safeio.Stdin) {
		return
	}
	opts := l.importOpts
	opts.Format = l.format
	for _, p := range l.Paths {
		l.direct = append(l.direct, importer.NewDirect(p, opts, ""))
	}
}

// directSources are the runs to score from other tools' files: each file's first run as
// it is decoded, then (Then) the later runs it holds; a re-run file's runs are partial.
func (l *Loaded) directSources() []rubric.RunSource {
	keys := l.Config.Scoring.RecordKeys()
	var out []rubric.RunSource
	for k, d := range l.direct {
		partial := k >= l.full
		src := rubric.RunSource{File: d.File, Partial: partial}
		src.Each = func(prep func(*eval.Result) any, fn func(*eval.Result, any) error) error {
			if err := d.First(keys, prep, fn); err != nil {
				return err
			}
			l.noteImported(d.Meta)
			return nil
		}
		if d.Several() {
			src.Then = func() []rubric.RunSource { return l.laterSources(d.Later(), partial) }
		}
		out = append(out, src)
	}
	return out
}

// laterSources are the runs of conv (a tool's file written as evalgate JSONL): each named
// by the tool's file, its results placed in it.
func (l *Loaded) laterSources(conv *importer.Converted, partial bool) []rubric.RunSource {
	if conv == nil {
		return nil
	}
	var out []rubric.RunSource
	for i, run := range conv.Runs {
		src := rubric.FileRunFor(&l.Config.Scoring, run)
		src.File = conv.File
		src.Each = conv.Each(i, src.Each)
		src.Partial = partial
		out = append(out, src)
	}
	return out
}

// reread says a direct read stopped to start again with what it learned of its file
// (importer.ErrReread), and makes the suite whole again: the stopped scoring may have
// released some of its items.
func (l *Loaded) reread(err error) (bool, error) {
	if !errors.Is(err, importer.ErrReread) {
		return false, nil
	}
	if l.fromResults || l.Config.Suite == "" {
		return true, nil
	}
	return true, l.loadSuite()
}

func (l *Loaded) removeConverted() {
	for _, d := range l.direct {
		d.Remove()
	}
}

// streamLarge reports whether the results are large (l.large): other tools' files are
// then read directly like a check's, each run's records also written as evalgate JSONL
// as they are read, which the baseline copies as its recorded outputs (streamedFiles;
// removeConverted deletes them).
func (l *Loaded) streamLarge(above int64) bool {
	if l.format != importer.Evalgate && !slices.Contains(l.Paths, safeio.Stdin) && l.sizeAbove(above) {
		l.directImported()
		for _, d := range l.direct {
			d.KeepFirst()
		}
	}
	return l.large(above)
}

// streamedFiles are the evalgate JSONL files the runs are streamed from, in run order:
// the results files, or the runs' records of other tools' files read directly.
func (l *Loaded) streamedFiles() []string {
	if l.direct == nil {
		return l.Paths
	}
	var out []string
	for _, d := range l.direct {
		out = append(out, d.Files()...)
	}
	return out
}

// metadata is the config's run metadata, completed by what imported files say (the
// model, the task and tool versions); the config wins where both name a key.
func (l *Loaded) metadata() map[string]string {
	if len(l.imported) == 0 {
		return l.Config.Metadata
	}
	out := map[string]string{}
	for k, v := range l.imported {
		out[k] = v
	}
	for k, v := range l.Config.Metadata {
		out[k] = v
	}
	return out
}

// actionImport reads the action's `results-format` input.
func (c *CLI) actionImport() (importer.Options, error) {
	format, err := importer.ParseFormat(c.Getenv("INPUT_RESULTS-FORMAT"))
	if err != nil {
		return importer.Options{}, fmt.Errorf("input results-format: %w", err)
	}
	return importer.Options{Format: format, Warn: func(msg string) { fmt.Fprintf(c.Stdout, "::warning::%s\n", msg) }}, nil
}

// importArgs are the import flags that reproduce a check's reading of its results.
func importArgs(o importer.Options) []string {
	var out []string
	for _, f := range []struct{ flag, v string }{
		{"--results-format", string(o.Format)}, {"--id-field", o.IDField}, {"--promptfoo-prompt", o.Prompt},
		{"--lm-eval-filter", o.Filter}, {"--lm-eval-results", o.LMEvalResults},
	} {
		if f.v != "" {
			out = append(out, shellFlag(f.flag, f.v))
		}
	}
	return out
}
