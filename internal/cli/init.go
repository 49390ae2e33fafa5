package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/scaffold"
)

// InitOptions are the inputs of `evalgate init`.
type InitOptions struct {
	Dir    string
	Force  bool
	DryRun bool
	// Scaffold is what to write; its Name defaults to the directory's name.
	Scaffold scaffold.Options
}

func (c *CLI) initCmd(args []string) int {
	var o InitOptions
	fs := newFlagSet("init", "init [--dir .] [--name NAME] [--mode exec|openai] [--model ID] [--from FILE [--promptfoo-prompt P] [--id-field V] ...] [--dry-run] [--force]\n\nWrites a starter evalgate.yaml (both versions filled in, every line commented), a\nsample suite with a stand-in system under test, and two GitHub workflows: the\npull-request gate and the release baseline refresh. Existing files are left alone\nunless --force.", c.Stderr)
	fs.StringVar(&o.Dir, "dir", ".", "`dir` to write into (the repository's root)")
	fs.StringVar(&o.Scaffold.Name, "name", "", "suite `name`: labels reports and names baselines/NAME.jsonl (default: the directory's name)")
	fs.StringVar(&o.Scaffold.Mode, "mode", scaffold.ModeExec, "how evalgate run produces results (`mode`): exec (run a command per item) or openai (call a chat model)")
	fs.StringVar(&o.Scaffold.Model, "model", scaffold.DefaultModel, "openai mode: the pinned model `id`")
	fs.BoolVar(&o.DryRun, "dry-run", false, "print what would be written and write nothing")
	fs.BoolVar(&o.Force, "force", false, "overwrite files that already exist")
	from := fs.String("from", "", "write only evalgate.yaml (and, for promptfoo, its workflow), its dimensions mirroring the scores in `file`: a promptfoo config or results.json/.jsonl, an lm-eval results_<date>.json or samples file, or an Inspect log")
	var imp importFlags
	imp.register(fs)
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if *from != "" {
		opts, err := imp.options(c.Stderr)
		if err != nil {
			fmt.Fprintf(c.Stderr, "evalgate: %v\n", err)
			return ExitBadInput
		}
		return c.initFrom(o, *from, opts)
	}
	return c.runInit(o)
}

func (c *CLI) runInit(o InitOptions) int {
	if o.Scaffold.Name == "" {
		abs, err := filepath.Abs(o.Dir)
		if err != nil {
			return c.fail(err)
		}
		o.Scaffold.Name = scaffold.SuiteName(filepath.Base(abs))
	}
	files, err := scaffold.Files(o.Scaffold)
	if err != nil {
		return c.fail(fmt.Errorf("init: %w", err))
	}
	var exist []string
	for _, f := range files {
		_, err := os.Lstat(filepath.Join(o.Dir, filepath.FromSlash(f.Path)))
		switch {
		case err == nil:
			exist = append(exist, f.Path)
		case !errors.Is(err, fs.ErrNotExist):
			return c.fail(fmt.Errorf("init: %w", err))
		}
	}
	if len(exist) > 0 && !o.Force {
		return c.fail(fmt.Errorf("init: %d file(s) already exist in %s: %s; nothing was written. Use --force to overwrite them, or --dir to write elsewhere", len(exist), o.Dir, strings.Join(exist, ", ")))
	}
	verb := "wrote"
	if o.DryRun {
		verb = "would write"
	}
	for _, f := range files {
		p := filepath.Join(o.Dir, filepath.FromSlash(f.Path))
		if !o.DryRun {
			if err := writeScaffoldFile(p, f); err != nil {
				return c.fail(fmt.Errorf("init: %w", err))
			}
		}
		fmt.Fprintf(c.Stdout, "%s %s\n", verb, p)
	}
	if o.DryRun {
		return ExitPass
	}
	fmt.Fprintf(c.Stdout, "\nNext (docs/getting-started.md):\n"+
		"  evalgate run --runs 3 --out-dir runs/release   # run the system three times\n"+
		"  evalgate baseline --results 'runs/release/*.jsonl'\n"+
		"  evalgate check --results runs/release/run1.jsonl\n"+
		"then commit these files and baselines/%s.jsonl, and push: the workflows gate every pull request.\n", o.Scaffold.Name)
	return ExitPass
}

func writeScaffoldFile(p string, f scaffold.File) error {
	if err := baseline.WriteFileAtomic(p, f.Content); err != nil {
		return err
	}
	if f.Executable {
		return os.Chmod(p, 0o755)
	}
	return nil
}
