package config

import (
	"github.com/evalgate/evalgate/internal/judge"
	"github.com/evalgate/evalgate/internal/safeio"
)

// References are the paths a config names, as written (relative to the config's
// directory, or absolute): what must be read with the config from another commit for it
// to load the same there. A block that names a file adds it here.
type References struct {
	// Files are the suite, a rubric tests file, a calibration file, JSON Schema files,
	// judge templates (not the built-in ones) and a price file.
	Files []string
	// Schemas are the JSON Schema files (also in Files): the files their $refs name
	// (rubric.SchemaRefs) belong with the config too.
	Schemas []string
	// Dirs are judge cache directories: every file under them belongs with the config.
	Dirs []string
	// Results and Baseline are the results files and the baseline the config names:
	// read elsewhere (the results are the run's, the baseline is compared with).
	Results  []string
	Baseline string
}

// referencedConfig is the part of a config References reads.
type referencedConfig struct {
	Suite       string   `yaml:"suite"`
	Results     []string `yaml:"results"`
	Baseline    string   `yaml:"baseline"`
	RubricTests any      `yaml:"rubric_tests"`
	Calibration struct {
		Outputs any `yaml:"outputs"`
	} `yaml:"calibration"`
	Scoring struct {
		Dimensions []struct {
			Schema string `yaml:"schema"`
		} `yaml:"dimensions"`
	} `yaml:"scoring"`
	Pricing struct {
		File string `yaml:"file"`
	} `yaml:"pricing"`
	Judges map[string]struct {
		Template string `yaml:"template"`
		CacheDir string `yaml:"cache_dir"`
		NoCache  bool   `yaml:"no_cache"`
	} `yaml:"judges"`
}

// ReferencesOf lists the paths the config text data names, without validating it
// (Parse does that once the files are there). file names it in errors.
func ReferencesOf(file string, data []byte) (References, error) {
	var c referencedConfig
	if err := safeio.DecodeYAML(file, data, &c); err != nil {
		return References{}, err
	}
	refs := References{Results: c.Results, Baseline: c.Baseline}
	add := func(p string) {
		if p != "" {
			refs.Files = append(refs.Files, p)
		}
	}
	add(c.Suite)
	if s, ok := c.RubricTests.(string); ok {
		add(s)
	}
	if s, ok := c.Calibration.Outputs.(string); ok {
		add(s)
	}
	for _, d := range c.Scoring.Dimensions {
		add(d.Schema)
		if d.Schema != "" {
			refs.Schemas = append(refs.Schemas, d.Schema)
		}
	}
	add(c.Pricing.File)
	for _, j := range c.Judges {
		if !judge.IsBuiltin(j.Template) {
			add(j.Template)
		}
		switch {
		case j.CacheDir != "":
			refs.Dirs = append(refs.Dirs, j.CacheDir)
		case !j.NoCache:
			refs.Dirs = append(refs.Dirs, judge.DefaultCacheDir)
		}
	}
	return refs, nil
}
