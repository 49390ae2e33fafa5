// Package config reads evalgate.yaml: where the suite, results and baseline are, the
// scoring system and the grading system. Every problem is reported with file:line:col.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"

	"github.com/evalgate/evalgate/internal/calibration"
	"github.com/evalgate/evalgate/internal/diagnose"
	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/judge"
	"github.com/evalgate/evalgate/internal/pricing"
	"github.com/evalgate/evalgate/internal/rubric"
	"github.com/evalgate/evalgate/internal/rubrictests"
	"github.com/evalgate/evalgate/internal/runner"
	"github.com/evalgate/evalgate/internal/safeio"
	"github.com/evalgate/evalgate/internal/settle"
)

// DefaultFile is the config file evalgate reads when --config is not given.
const DefaultFile = "evalgate.yaml"

// Config is an evalgate.yaml file.
type Config struct {
	// Name labels the suite in reports, comments and baselines; default: the suite's name.
	Name string `yaml:"name,omitempty" json:"name,omitempty"`
	// Suite, Results and Baseline are paths relative to the config file.
	Suite    string   `yaml:"suite,omitempty" json:"suite,omitempty"`
	Results  []string `yaml:"results,omitempty" json:"results,omitempty"`
	Baseline string   `yaml:"baseline,omitempty" json:"baseline,omitempty"`
	// Metadata is recorded in every report (seed 001 §4.3): model_id, model_version,
	// prompt_template_id, environment, ...
	Metadata map[string]string `yaml:"metadata,omitempty" json:"metadata,omitempty"`
	Scoring  rubric.System     `yaml:"scoring" json:"scoring"`
	Grading  gate.System       `yaml:"grading" json:"grading"`
	// Run is the system under test that `evalgate run` runs over the suite.
	Run *runner.Config `yaml:"run,omitempty" json:"run,omitempty"`
	// Rerun is the command that re-runs some items with the tool that made the results
	// (promptfoo, Inspect, lm-eval), for check --settle; Settle holds settle's limits.
	Rerun  settle.Command `yaml:"rerun,omitempty" json:"rerun,omitempty"`
	Settle *settle.Config `yaml:"settle,omitempty" json:"settle,omitempty"`
	// Judges configures the models llm_judge dimensions use, by name.
	Judges map[string]judge.Config `yaml:"judges,omitempty" json:"judges,omitempty"`
	// Pricing overrides and extends the built-in price table (private models,
	// negotiated rates); Prices is the table in force, built by Load.
	Pricing *pricing.Config `yaml:"pricing,omitempty" json:"pricing,omitempty"`
	Prices  *pricing.Table  `yaml:"-" json:"-"`
	// Diagnose tunes the diagnosis rules (thresholds, or `enabled: false` to turn one off).
	Diagnose *diagnose.Config `yaml:"diagnose,omitempty" json:"diagnose,omitempty"`
	// RubricTests are outputs the rubric must reproduce (a list, or a file naming one);
	// decoded into RubricCases. They are not part of the scoring system or its hash.
	RubricTests any                `yaml:"rubric_tests,omitempty" json:"rubric_tests,omitempty"`
	RubricCases []rubrictests.Case `yaml:"-" json:"-"`
	// Calibration is the judges' check against people: outputs with human labels, and
	// the agreement each labelled judged dimension must reach.
	Calibration *calibration.Config `yaml:"calibration,omitempty" json:"calibration,omitempty"`

	File string `yaml:"-" json:"-"`
	Dir  string `yaml:"-" json:"-"`
	ast  *ast.File
}

var metaKey = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// Load reads and validates a config file. env builds judge scorers (nil: no judges).
func Load(path string, env *rubric.Env) (*Config, error) {
	data, err := safeio.ReadFile(path, "config", safeio.MaxSmallFileBytes)
	if err != nil {
		return nil, err
	}
	return Parse(path, data, env)
}

// Parse parses and validates config bytes.
func Parse(path string, data []byte, env *rubric.Env) (*Config, error) {
	if len(data) == 0 {
		return nil, eval.Errorf(path, 0, "", "config file is empty")
	}
	if data[0] == 0xEF {
		return nil, eval.Errorf(path, 1, "", "file starts with a UTF-8 byte order mark; save it as UTF-8 without BOM")
	}
	if !utf8.Valid(data) { // the YAML parser would take it, and the bytes reach reports
		i := 0
		for i < len(data) {
			r, n := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			i += n
		}
		return nil, eval.Errorf(path, bytes.Count(data[:i], []byte("\n"))+1, "", "invalid UTF-8 at byte %d; a config file is UTF-8 text", i)
	}
	f, err := safeio.ParseYAML(path, data)
	if err != nil {
		return nil, err
	}
	if len(f.Docs) != 1 || f.Docs[0].Body == nil {
		return nil, eval.Errorf(path, 0, "", "want one YAML document with scoring: and grading:")
	}
	if err := checkFinite(path, f); err != nil {
		return nil, err
	}
	cfg := &Config{File: path, Dir: filepath.Dir(path), ast: f}
	if err := eval.NodeToValue(path, f.Docs[0].Body, cfg, yaml.Strict(), yaml.DisallowUnknownField()); err != nil {
		return nil, withFieldHint(f, err)
	}
	if err := cfg.validate(env); err != nil {
		return nil, err
	}
	return cfg, nil
}

// checkFinite refuses NaN and infinities anywhere in the config (.nan, .inf, 1e999):
// no setting takes one, and a NaN threshold compares false with everything, so a gate
// with `max_drop: .nan` would never block. The error points at the value.
func checkFinite(path string, f *ast.File) error {
	var err error
	ast.Walk(visitFunc(func(n ast.Node) bool {
		if err != nil {
			return false
		}
		bad := false
		switch n := n.(type) {
		case *ast.NanNode, *ast.InfinityNode:
			bad = true
		case *ast.FloatNode:
			bad = math.IsInf(n.Value, 0) || math.IsNaN(n.Value)
		}
		if bad {
			p := n.GetToken().Position
			err = &eval.InputError{File: path, Line: p.Line, Col: p.Column,
				Msg: fmt.Sprintf("%s is not a finite number; every number in the config is finite", n.GetToken().Value)}
		}
		return !bad
	}), f.Docs[0].Body)
	return err
}

// visitFunc adapts a function to ast.Visitor; it returns whether to walk into n.
type visitFunc func(n ast.Node) bool

// Visit implements ast.Visitor.
func (v visitFunc) Visit(n ast.Node) ast.Visitor {
	if v(n) {
		return v
	}
	return nil
}

func (c *Config) validate(env *rubric.Env) error {
	for k := range c.Metadata {
		if !metaKey.MatchString(k) {
			return c.errAt("$.metadata", fmt.Sprintf("metadata key %q; want lowercase snake_case", k))
		}
	}
	if env == nil {
		env = &rubric.Env{}
	}
	if c.Run != nil && c.Run.Exec != nil && c.Run.Exec.Dir == "" {
		c.Run.Exec.Dir = c.Dir // commands run from the config's directory
	}
	if len(c.Judges) > 0 {
		if env.Judges == nil {
			env.Judges = &rubric.Judges{}
		}
		env.Judges.Configs = c.Judges
		for name, jc := range c.Judges {
			if jc.CacheDir == "" && !jc.NoCache {
				// The default cache sits beside the config, like every path it names, so
				// that a config read from another commit brings its own cache.
				jc.CacheDir = judge.DefaultCacheDir
			}
			if jc.CacheDir != "" && !filepath.IsAbs(jc.CacheDir) {
				jc.CacheDir = filepath.Join(c.Dir, jc.CacheDir)
			}
			if jc.Template != "" && !filepath.IsAbs(jc.Template) && !judge.IsBuiltin(jc.Template) {
				jc.Template = filepath.Join(c.Dir, jc.Template)
			}
			c.Judges[name] = jc
		}
	}
	if err := c.contain(); err != nil {
		return err
	}
	if err := c.Settle.Validate(); err != nil {
		return c.errAt("$.settle", "settle: "+err.Error())
	}
	if err := c.buildPrices(env); err != nil {
		return err
	}
	for i := range c.Scoring.Dimensions {
		d := &c.Scoring.Dimensions[i]
		d.Dir = c.Dir
		d.Line = c.lineOf(fmt.Sprintf("$.scoring.dimensions[%d]", i))
	}
	if err := c.Scoring.Build("$.scoring", env); err != nil {
		return c.fieldErr(err)
	}
	names := c.Scoring.MetricNames()
	known := map[string]bool{}
	for _, n := range names {
		known[n] = true
	}
	var dims []string
	for _, d := range c.Scoring.Dimensions {
		dims = append(dims, d.Name)
	}
	if err := c.loadRubricTests(); err != nil {
		return err
	}
	if err := c.loadCalibration(); err != nil {
		return err
	}
	if at, msg := c.Diagnose.Validate(); at != "" {
		return c.errAt("$.diagnose."+at, msg)
	}
	if err := c.Grading.Validate("$.grading", func(m string) bool { return known[m] }, names, dims); err != nil {
		return c.fieldErr(err)
	}
	return nil
}

// contain refuses a path the config names (the suite, a judge's template and cache
// directory; JSON Schema files are held to it by the scorer) that leaves the config's
// repository: the git toplevel, else the config's directory, with symlinks resolved.
// A pull request's config must not read /etc/passwd or ~/.ssh into a report.
func (c *Config) contain() error {
	root := safeio.RepoRoot(c.Dir)
	check := func(yamlPath, what, p string) error {
		if p == "" {
			return nil
		}
		_, err := safeio.Within(root, p)
		var oe *safeio.OutsideError
		switch {
		case errors.As(err, &oe):
			return c.errAt(yamlPath, what+" "+oe.Error())
		case err != nil:
			return c.errAt(yamlPath, fmt.Sprintf("%s %s: %v", what, p, err))
		}
		return nil
	}
	if err := check("$.suite", "suite", c.Path(c.Suite)); err != nil {
		return err
	}
	if c.Pricing != nil {
		if err := check("$.pricing.file", "price file", c.Path(c.Pricing.File)); err != nil {
			return err
		}
	}
	for _, name := range slices.Sorted(maps.Keys(c.Judges)) {
		jc := c.Judges[name]
		if !judge.IsBuiltin(jc.Template) {
			if err := check("$.judges."+name+".template", "judge template", jc.Template); err != nil {
				return err
			}
		}
		if err := check("$.judges."+name+".cache_dir", "judge cache_dir", jc.CacheDir); err != nil {
			return err
		}
	}
	return nil
}

// buildPrices builds the price table (the built-in one, the pricing: block over it)
// and the scoring's pricer, which prices a record without a model as
// metadata.model_id.
func (c *Config) buildPrices(env *rubric.Env) error {
	t, err := c.Pricing.Table(c.File, c.Dir, func(p string) ([]byte, error) {
		return safeio.ReadFile(p, "price", pricing.MaxFileBytes)
	})
	if err != nil {
		var ie *eval.InputError
		if errors.As(err, &ie) {
			return err
		}
		return c.errAt("$.pricing", err.Error())
	}
	c.Prices = t
	if env.Judges != nil {
		env.Judges.Prices = t
	}
	c.Scoring.Pricer = &pricing.Pricer{Table: t, DefaultModel: c.Metadata["model_id"]}
	return nil
}

// fieldErr turns a FieldError's YAML path into file:line.
func (c *Config) fieldErr(err error) error {
	var rf *rubric.FieldError // gate.FieldError is the same type
	if errors.As(err, &rf) {
		return c.errAt(rf.Path, rf.Msg)
	}
	return eval.Errorf(c.File, 0, "", "%v", err)
}

func (c *Config) errAt(path, msg string) error {
	line, col := c.position(path)
	return &eval.InputError{File: c.File, Line: line, Col: col, Msg: msg}
}

// Line is the line of a YAML path in the config file ("$.run.max_cost_usd"), or of
// its nearest ancestor present; 0 when none is.
func (c *Config) Line(path string) int { return c.lineOf(path) }

func (c *Config) lineOf(path string) int {
	l, _ := c.position(path)
	return l
}

// position finds the line and column of a YAML path, walking up to the nearest
// ancestor that exists (a missing key is reported where its parent is).
func (c *Config) position(path string) (int, int) {
	for path != "" && path != "$" {
		if p, err := yaml.PathString(path); err == nil {
			if n, err := p.FilterFile(c.ast); err == nil && n != nil && n.GetToken() != nil {
				return n.GetToken().Position.Line, n.GetToken().Position.Column
			}
		}
		path = parent(path)
	}
	return 0, 0
}

func parent(path string) string {
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] == '.' || path[i] == '[' {
			return path[:i]
		}
	}
	return ""
}

// Path resolves a path given in the config relative to the config's directory.
func (c *Config) Path(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(c.Dir, p)
}

// SuiteName is the name that labels the suite.
func (c *Config) SuiteName(s *eval.Index) string {
	if c.Name != "" {
		return c.Name
	}
	return s.Name
}

// loadRubricTests decodes `rubric_tests:` and checks that every dimension a rubric test names
// is one of the scoring system's.
func (c *Config) loadRubricTests() error {
	if c.RubricTests == nil {
		return nil
	}
	p, err := yaml.PathString("$.rubric_tests")
	if err != nil {
		return err
	}
	node, err := p.FilterFile(c.ast)
	if err != nil {
		return c.errAt("$.rubric_tests", fmt.Sprintf("rubric_tests: %v", err))
	}
	c.RubricCases, err = rubrictests.FromNode(c.File, c.Dir, node)
	if err != nil {
		return err
	}
	for _, fx := range c.RubricCases {
		for dim := range fx.Want {
			if c.Scoring.DimensionIndex(dim) < 0 && dim != rubrictests.ScoreKey {
				var names []string
				for _, d := range c.Scoring.Dimensions {
					names = append(names, d.Name)
				}
				return eval.Errorf(fx.File, fx.Line, "", "rubric test %q: unknown dimension %q; want one of %s, or score", fx.Name, dim, strings.Join(names, ", "))
			}
		}
	}
	return nil
}
