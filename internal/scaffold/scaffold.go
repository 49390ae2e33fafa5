// Package scaffold holds what `evalgate init` writes into a repository: a starter
// evalgate.yaml (both version strings filled in, every line commented), a small sample
// suite with a stand-in system under test, and the two GitHub workflows (the pull-request
// gate and the release baseline refresh).
//
// The repository's own example workflows (.github/workflows/example-*.yml) are these
// templates rendered with the defaults, and a test keeps them equal, so what the
// documentation shows is what init writes.
package scaffold

import (
	"bytes"
	"embed"
	"fmt"
	"path"
	"regexp"
	"strings"
	"text/template"
)

//go:embed templates/*.tmpl
var templates embed.FS

// Modes of Options.Mode: how `evalgate run` produces results.
const (
	ModeExec   = "exec"   // run a command once per item (the sample's stand-in system)
	ModeOpenAI = "openai" // send each prompt to an OpenAI-compatible chat model
)

// Modes lists the valid Options.Mode values.
var Modes = []string{ModeExec, ModeOpenAI}

// Defaults of Options.
const (
	DefaultModel       = "gpt-4o-mini-2024-07-18"
	DefaultAcceptLabel = "evalgate/accept"
	// ActionRef is the release line the workflows use: evalgate/evalgate@v1 and
	// evalgate/evalgate/setup@v1 follow the latest v1 release.
	ActionRef = "v1"
)

// Paths of the files init writes, relative to the target directory.
const (
	ConfigFile           = "evalgate.yaml"
	SuiteFile            = "evals/suite.yaml"
	SystemFile           = "evals/system.sh"
	PRWorkflowFile       = ".github/workflows/evalgate.yml"
	BaselineWorkflowFile = ".github/workflows/evalgate-baseline.yml"
)

// Options choose what Files renders.
type Options struct {
	// Name labels the suite (reports, comments, baselines/<Name>.jsonl); lowercase letters,
	// digits, '-' and '_'.
	Name string
	// Mode is ModeExec (the default) or ModeOpenAI.
	Mode string
	// Model is the pinned model id of openai mode.
	Model string
	// Suite, when set, replaces the sample suite (its content; the config names
	// SuiteFile either way). A future `init --from` fills it from an import.
	Suite []byte
	// RepoGuard adds `if: github.repository != 'evalgate/evalgate'` to each job: the
	// examples kept in evalgate's own .github/workflows must not run there.
	RepoGuard bool
}

// File is one file to write.
type File struct {
	Path       string // slash-separated, relative to the target directory
	Content    []byte
	Executable bool
}

var nameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,63}$`)

// SuiteName turns a directory name into a valid Name: lowercased, other characters
// replaced by '-', trimmed; "evals" when nothing is left.
func SuiteName(dir string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(dir) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	s := strings.Trim(b.String(), "-_")
	if len(s) > 64 {
		s = strings.Trim(s[:64], "-_")
	}
	if s == "" {
		return "evals"
	}
	return s
}

func (o *Options) check() error {
	if o.Mode == "" {
		o.Mode = ModeExec
	}
	if o.Model == "" {
		o.Model = DefaultModel
	}
	if !nameRE.MatchString(o.Name) {
		return fmt.Errorf("name %q: want lowercase letters, digits, '-' and '_' (at most 64, starting with a letter or digit)", o.Name)
	}
	switch o.Mode {
	case ModeExec, ModeOpenAI:
	default:
		return fmt.Errorf("mode %q: want %s", o.Mode, strings.Join(Modes, " or "))
	}
	if strings.ContainsAny(o.Model, "\"\\\n") || strings.TrimSpace(o.Model) == "" {
		return fmt.Errorf("model %q: want a model id such as %s", o.Model, DefaultModel)
	}
	return nil
}

// data is what the templates see.
type data struct {
	Options
	ConfigFile, SuiteFile, SystemFile, Baseline, AcceptLabel, ActionRef string
}

// Files renders every file init writes, in writing order.
func Files(o Options) ([]File, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	d := data{Options: o, ConfigFile: ConfigFile, SuiteFile: SuiteFile, SystemFile: SystemFile,
		Baseline: "baselines/" + o.Name + ".jsonl", AcceptLabel: DefaultAcceptLabel, ActionRef: ActionRef}
	var files []File
	add := func(p, tmpl string, exe bool) error {
		b, err := render(tmpl, d)
		if err != nil {
			return err
		}
		files = append(files, File{Path: p, Content: b, Executable: exe})
		return nil
	}
	if err := add(ConfigFile, "evalgate.yaml.tmpl", false); err != nil {
		return nil, err
	}
	if o.Suite != nil {
		files = append(files, File{Path: SuiteFile, Content: o.Suite})
	} else if err := add(SuiteFile, "suite.yaml.tmpl", false); err != nil {
		return nil, err
	}
	if o.Mode == ModeExec {
		if err := add(SystemFile, "system.sh.tmpl", true); err != nil {
			return nil, err
		}
	}
	if err := add(PRWorkflowFile, "pr-gate.yml.tmpl", false); err != nil {
		return nil, err
	}
	if err := add(BaselineWorkflowFile, "release-baseline.yml.tmpl", false); err != nil {
		return nil, err
	}
	return files, nil
}

// render runs one template; the delimiters are <% %> because workflows are full of
// GitHub's own ${{ }}.
func render(name string, d any) ([]byte, error) {
	t, err := template.New(name).Delims("<%", "%>").Option("missingkey=error").ParseFS(templates, path.Join("templates", name))
	if err != nil {
		return nil, fmt.Errorf("scaffold: %w", err)
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, name, d); err != nil {
		return nil, fmt.Errorf("scaffold: %w", err)
	}
	return buf.Bytes(), nil
}

// PromptfooOptions choose what PromptfooWorkflow renders.
type PromptfooOptions struct {
	From             string // the file init read (for the header)
	PromptfooConfig  string // promptfooconfig.yaml, relative to the repository's root
	PromptfooVersion string // the promptfoo release npx runs
	Results          string // where promptfoo writes results.json (the config's results)
	ConfigFile       string // the evalgate config
}

// PromptfooWorkflow renders the pull-request workflow of a promptfoo project: promptfoo
// runs the eval with --repeat 3, the action gates its results.json as promptfoo wrote it.
func PromptfooWorkflow(o PromptfooOptions) (File, error) {
	for _, v := range []string{o.From, o.PromptfooConfig, o.PromptfooVersion, o.Results, o.ConfigFile} {
		if strings.ContainsAny(v, "\"'\\\n$`") || strings.TrimSpace(v) == "" {
			return File{}, fmt.Errorf("promptfoo workflow: %q cannot go into a workflow as it is; rename the file", v)
		}
	}
	b, err := render("promptfoo-gate.yml.tmpl", promptfooData{PromptfooOptions: o, AcceptLabel: DefaultAcceptLabel, ActionRef: ActionRef})
	if err != nil {
		return File{}, err
	}
	return File{Path: PRWorkflowFile, Content: b}, nil
}

type promptfooData struct {
	PromptfooOptions
	AcceptLabel, ActionRef string
}
