// Package calibration checks the judges against people: the config's `calibration:` set
// lists outputs, the suite item each answers, and the labels people gave them on a
// judged dimension's scale. The judges score the same outputs, and evalgate reports how
// well they agree with the people (Krippendorff's α, exact agreement, the judge's bias,
// a confusion table on short scales). A minimum agreement (`min_alpha`) makes
// `evalgate validate` fail when the judge no longer agrees with people well enough.
package calibration

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/rubric"
	"github.com/evalgate/evalgate/internal/safeio"
)

// MaxFileBytes bounds a calibration file.
const MaxFileBytes = 16 << 20

// MaxLabels bounds the labels one output may carry on one dimension.
const MaxLabels = 100

// Config is the config's `calibration:` block.
type Config struct {
	// Outputs is the labelled set: a list of outputs, or the name of a file (relative
	// to the config) holding one. Decoded into Cases.
	Outputs any `yaml:"outputs" json:"outputs"`
	// MinAlpha is the agreement with people each labelled judged dimension must reach:
	// one number for all of them, or a map from dimension name to number. Unset: the
	// agreement is reported, never required.
	MinAlpha any `yaml:"min_alpha,omitempty" json:"min_alpha,omitempty"`

	Cases []Case             `yaml:"-" json:"-"`
	Min   map[string]float64 `yaml:"-" json:"-"` // by dimension; "" is every dimension's
}

// Case is one labelled output.
type Case struct {
	// Name identifies the output in messages; unique.
	Name string `yaml:"name" json:"name"`
	// Item is the suite item the output answers: its id, or its fields inline.
	Item any `yaml:"item" json:"item"`
	// Output is the output text, or a JSON value (an object is written as JSON text).
	Output any `yaml:"output" json:"output"`
	// Result holds other fields of the result record, as in a rubric test.
	Result map[string]any `yaml:"result,omitempty" json:"result,omitempty"`
	// Labels maps a judged dimension to the value a person gave on the dimension's own
	// scale (2 on 0–2, "pass" on pass_fail), or a list of values, one per person.
	Labels map[string]any `yaml:"labels" json:"labels"`

	File string `yaml:"-" json:"-"`
	Line int    `yaml:"-" json:"-"`
	// LabelLine is the line of each dimension's labels, for messages.
	LabelLine map[string]int `yaml:"-" json:"-"`
}

// Values returns the labels a case gives dimension dim, one per person.
func (c *Case) Values(dim string) []any {
	switch v := c.Labels[dim].(type) {
	case nil:
		return nil
	case []any:
		return v
	default:
		return []any{v}
	}
}

// ItemID is the suite item's id when the case names one, else the case's name: what
// messages call the item.
func (c *Case) ItemID() string {
	if s, ok := c.Item.(string); ok {
		return s
	}
	return c.Name
}

// Errorf is an error about the case, at line (the case's own when 0).
func (c *Case) Errorf(line int, format string, args ...any) error {
	if line == 0 {
		line = c.Line
	}
	return eval.Errorf(c.File, line, c.ItemID(), "calibration output %q: %s", c.Name, fmt.Sprintf(format, args...))
}

// Load decodes the block's outputs, whose node is the config's `calibration.outputs`
// (a list, or a string naming a file relative to dir, inside the config's repository),
// and its min_alpha.
func (cfg *Config) Load(file, dir string, outputs, minAlpha ast.Node) error {
	if err := cfg.loadMin(file, minAlpha); err != nil {
		return err
	}
	if s, ok := outputs.(*ast.StringNode); ok {
		p := s.Value
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if _, err := safeio.Within(safeio.RepoRoot(dir), p); err != nil {
			return eval.Errorf(file, line(outputs), "", "calibration.outputs: %v", err)
		}
		if _, err := os.Stat(p); err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return eval.Errorf(file, line(outputs), "", "calibration.outputs: cannot read %s: %v", p, err)
		}
		cases, err := Load(p)
		cfg.Cases = cases
		return err
	}
	cases, err := decode(file, outputs)
	cfg.Cases = cases
	return err
}

func (cfg *Config) loadMin(file string, node ast.Node) error {
	cfg.Min = nil
	if cfg.MinAlpha == nil {
		return nil
	}
	check := func(what string, v any) (float64, error) {
		f, ok := rubric.ToFloat(v)
		if !ok || f < -1 || f > 1 {
			return 0, eval.Errorf(file, line(node), "", "calibration.min_alpha%s is %v; want a number from -1 to 1 (Krippendorff's α; 0.667 and 0.8 are the usual floors)", what, v)
		}
		return f, nil
	}
	cfg.Min = map[string]float64{}
	if m, ok := cfg.MinAlpha.(map[string]any); ok {
		if len(m) == 0 {
			return eval.Errorf(file, line(node), "", "calibration.min_alpha is an empty map; give a number, or a number per dimension")
		}
		for dim, v := range m {
			f, err := check("."+dim, v)
			if err != nil {
				return err
			}
			cfg.Min[dim] = f
		}
		return nil
	}
	f, err := check("", cfg.MinAlpha)
	cfg.Min[""] = f
	return err
}

// MinFor is the agreement dimension dim must reach, if any.
func (cfg *Config) MinFor(dim string) (float64, bool) {
	if f, ok := cfg.Min[dim]; ok {
		return f, true
	}
	f, ok := cfg.Min[""]
	return f, ok
}

// Load reads a calibration file: a YAML list of labelled outputs.
func Load(path string) ([]Case, error) {
	data, err := safeio.ReadFile(path, "calibration", MaxFileBytes)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Parse decodes calibration file bytes.
func Parse(path string, data []byte) ([]Case, error) {
	doc, err := safeio.ParseYAML(path, data)
	if err != nil {
		return nil, err
	}
	if len(doc.Docs) != 1 || doc.Docs[0].Body == nil {
		return nil, eval.Errorf(path, 0, "", "want one YAML document: a list of labelled outputs (name, item, output, labels)")
	}
	return decode(path, doc.Docs[0].Body)
}

func decode(file string, node ast.Node) ([]Case, error) {
	seq, ok := node.(*ast.SequenceNode)
	if !ok {
		return nil, eval.Errorf(file, line(node), "", "calibration.outputs is a list of labelled outputs (name, item, output, labels) or the name of a file holding one")
	}
	var out []Case
	seen := map[string]int{}
	for _, n := range seq.Values {
		var c Case
		if err := safeio.DecodeNode(file, n, &c, yaml.Strict(), yaml.DisallowUnknownField()); err != nil {
			return nil, err
		}
		c.File, c.Line = file, line(n)
		c.LabelLine = labelLines(n)
		if err := c.check(); err != nil {
			return nil, err
		}
		if prev, dup := seen[c.Name]; dup {
			return nil, c.Errorf(0, "duplicate name; first on line %d", prev)
		}
		seen[c.Name] = c.Line
		out = append(out, c)
	}
	return out, nil
}

// labelLines finds the line of each key under the case's `labels:`.
func labelLines(n ast.Node) map[string]int {
	out := map[string]int{}
	m, ok := n.(*ast.MappingNode)
	if !ok {
		return out
	}
	for _, kv := range m.Values {
		if kv.Key == nil || kv.Key.String() != "labels" {
			continue
		}
		if lm, ok := kv.Value.(*ast.MappingNode); ok {
			for _, l := range lm.Values {
				if l.Key != nil {
					out[l.Key.String()] = line(l.Key)
				}
			}
		}
	}
	return out
}

func line(n ast.Node) int {
	if n == nil || n.GetToken() == nil {
		return 0
	}
	return n.GetToken().Position.Line
}

func (c *Case) check() error {
	switch {
	case c.Name == "":
		return c.Errorf(0, "no name")
	case c.Item == nil || c.Item == "":
		return c.Errorf(0, "no item: give the suite item's id, or its fields inline")
	case c.Output == nil:
		return c.Errorf(0, "no output")
	case len(c.Labels) == 0:
		return c.Errorf(0, "no labels: map each judged dimension to the value a person gave (or a list, one per person)")
	}
	switch c.Item.(type) {
	case string, map[string]any:
	default:
		return c.Errorf(0, "item is %T; want an item id or the item's fields", c.Item)
	}
	for dim, v := range c.Labels {
		vs := c.Values(dim)
		if len(vs) == 0 {
			return c.Errorf(c.LabelLine[dim], "labels.%s is empty; want a value on the dimension's scale, or a list of them", dim)
		}
		if len(vs) > MaxLabels {
			return c.Errorf(c.LabelLine[dim], "labels.%s has %d values; at most %d", dim, len(vs), MaxLabels)
		}
		for _, x := range vs {
			switch x.(type) {
			case string, bool:
			default:
				if _, ok := rubric.ToFloat(x); !ok {
					return c.Errorf(c.LabelLine[dim], "labels.%s is %v; want a value on the dimension's scale (2, 7, pass), or a list of them", dim, v)
				}
			}
		}
	}
	return nil
}
