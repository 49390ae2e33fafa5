package pricing

import (
	"fmt"
	"path/filepath"
)

// Config is the `pricing:` block of evalgate.yaml: prices for private models and
// negotiated rates, over the built-in table.
//
//	pricing:
//	  file: prices/negotiated.yaml   # a price file in the built-in format (version, date, models)
//	  models:
//	    acme-7b-2026-01: {input: 0.20, output: 0.60}
//	    gpt-4o: {input: 2.00, cached_input: 1.00, output: 8.00}
//
// The file's prices replace the built-in ones, and models: replaces both.
type Config struct {
	File   string           `yaml:"file,omitempty" json:"file,omitempty"`
	Models map[string]Price `yaml:"models,omitempty" json:"models,omitempty"`
}

// Table builds the table a config prices with: the built-in one, then the file, then
// the inline models. configFile names the config in the report and in errors; dir
// resolves a relative file; read reads the file (bounded by the caller).
func (c *Config) Table(configFile, dir string, read func(path string) ([]byte, error)) (*Table, error) {
	t := Builtin()
	if c == nil {
		return t, nil
	}
	if c.File != "" {
		p := c.File
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		data, err := read(p)
		if err != nil {
			return nil, err
		}
		ft, err := Parse(p, data)
		if err != nil {
			return nil, err
		}
		t = t.With(fmt.Sprintf("%s v%d (%s)", c.File, ft.Version, ft.Date), ft.Models)
	}
	if len(c.Models) > 0 {
		if err := checkModels(configFile, c.Models); err != nil {
			return nil, err
		}
		t = t.With("pricing in "+filepath.Base(configFile), c.Models)
	}
	return t, nil
}
