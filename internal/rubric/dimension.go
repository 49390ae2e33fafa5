package rubric

// Dimension is one axis of the rubric: a scorer, a scale and a weight.
type Dimension struct {
	Name   string  `yaml:"name" json:"name"`
	Weight float64 `yaml:"weight" json:"weight"`
	Scorer string  `yaml:"scorer" json:"scorer"`
	// Scale of the raw value: binary, 0-2, 1-5, 1-10, unit (0–1 continuous) or
	// pass_fail (pass/fail/n/a/stale). Each scorer has a default.
	Scale string `yaml:"scale,omitempty" json:"scale,omitempty"`
	// Normalize is "minmax" ((v − min)/(max − min), the default) or "max" (v / max,
	// seed 003's reading of a 1–10 score as a fraction of 10).
	Normalize string `yaml:"normalize,omitempty" json:"normalize,omitempty"`
	// OutputField reads one field of a JSON output (`english`) instead of the whole output.
	OutputField string `yaml:"output_field,omitempty" json:"output_field,omitempty"`
	// Expected is the dotted path of the item field holding the reference answer(s).
	Expected string `yaml:"expected,omitempty" json:"expected,omitempty"`
	// Normalization steps for contains and exact (seed 000); every step defaults to on.
	Normalization *Normalization `yaml:"normalization,omitempty" json:"normalization,omitempty"`
	Pattern       string         `yaml:"pattern,omitempty" json:"pattern,omitempty"`       // regex
	Schema        string         `yaml:"schema,omitempty" json:"schema,omitempty"`         // json_schema: file, relative to the config
	MaxWords      int            `yaml:"max_words,omitempty" json:"max_words,omitempty"`   // word_budget
	Count         string         `yaml:"count,omitempty" json:"count,omitempty"`           // word_budget: fields (default) or js_split
	Target        float64        `yaml:"target,omitempty" json:"target,omitempty"`         // latency (ms) and tokens
	Field         string         `yaml:"field,omitempty" json:"field,omitempty"`           // latency: latency_e2e_ms | latency_model_ms
	Key           string         `yaml:"key,omitempty" json:"key,omitempty"`               // recorded, llm_judge: the value's key
	Default       any            `yaml:"default,omitempty" json:"default,omitempty"`       // value when the record lacks it
	FailBelow     *float64       `yaml:"fail_below,omitempty" json:"fail_below,omitempty"` // raw value below which the dimension counts as failed
	Categories    []string       `yaml:"categories,omitempty" json:"categories,omitempty"` // safety: which pattern categories apply
	Allowances    *bool          `yaml:"allowances,omitempty" json:"allowances,omitempty"` // safety: context-aware allowances (default on)
	Judge         string         `yaml:"judge,omitempty" json:"judge,omitempty"`           // llm_judge: name of a judge in the config
	// Panel, on an llm_judge dimension, has several reviewers score it instead of one judge.
	Panel *Panel `yaml:"panel,omitempty" json:"panel,omitempty"`

	Line int    `yaml:"-" json:"-"` // line in the config file, for messages
	Dir  string `yaml:"-" json:"-"` // directory of the config file, for relative paths
}

// Normalization lists seed 000's four normalization steps, each switchable.
type Normalization struct {
	Trim        *bool `yaml:"trim,omitempty" json:"trim,omitempty"`
	Lowercase   *bool `yaml:"lowercase,omitempty" json:"lowercase,omitempty"`
	StripPeriod *bool `yaml:"strip_period,omitempty" json:"strip_period,omitempty"`
	// Substring: every expected string must appear in the output (contains); off means
	// the whole normalized output must equal one expected string (exact).
	Substring *bool `yaml:"substring,omitempty" json:"substring,omitempty"`
}
