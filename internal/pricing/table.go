package pricing

import (
	_ "embed"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"

	"github.com/goccy/go-yaml"

	"github.com/evalgate/evalgate/internal/safeio"
)

//go:embed prices.yaml
var builtinYAML []byte

// BuiltinFile names the built-in table in messages.
const BuiltinFile = "internal/pricing/prices.yaml"

// MaxFileBytes bounds a price file a config names.
const MaxFileBytes = 1 << 20

// MaxPrice bounds one price (USD per million tokens): anything above is a typo.
const MaxPrice = 1e6

// Price is what one model charges, in USD per million tokens.
type Price struct {
	Provider string  `yaml:"provider,omitempty" json:"provider,omitempty"`
	Input    float64 `yaml:"input" json:"input"`
	// CachedInput is the rate of input tokens served from the provider's prompt cache;
	// nil bills them as Input (never less than the truth).
	CachedInput *float64 `yaml:"cached_input,omitempty" json:"cached_input,omitempty"`
	Output      float64  `yaml:"output" json:"output"`
	// missing is a rate the YAML left out ("input" or "output"): refused by checkModels.
	missing string
}

// Table is a price table: prices by model id, with the version and date they were read.
type Table struct {
	Version int               `yaml:"version" json:"version"`
	Date    string            `yaml:"date" json:"date"`
	Sources map[string]string `yaml:"sources,omitempty" json:"sources,omitempty"`
	Notes   string            `yaml:"notes,omitempty" json:"notes,omitempty"`
	Models  map[string]Price  `yaml:"models" json:"models"`
	// Overrides names where prices beyond the built-in table came from ("" when none):
	// the config file, a price file it names.
	Overrides []string `yaml:"-" json:"overrides,omitempty"`
}

var dateRE = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// Builtin returns a fresh copy of the table shipped with the binary.
func Builtin() *Table {
	t, err := Parse(BuiltinFile, builtinYAML)
	if err != nil {
		panic(fmt.Sprintf("pricing: the built-in table does not parse: %v", err)) // caught by the package's tests
	}
	return t
}

// Parse reads a price table file (the built-in format: version, date, models). Errors
// name the file and the line.
func Parse(path string, data []byte) (*Table, error) {
	f, err := safeio.ParseYAML(path, data)
	if err != nil {
		return nil, err
	}
	if len(f.Docs) != 1 || f.Docs[0].Body == nil {
		return nil, safeio.Errorf(path, 0, "", "want one YAML document with version, date and models")
	}
	var t Table
	if err := safeio.DecodeNode(path, f.Docs[0].Body, &t, yaml.Strict(), yaml.DisallowUnknownField()); err != nil {
		return nil, err
	}
	if t.Version < 1 {
		return nil, safeio.Errorf(path, 0, "", "version is %d; want 1 or more (bump it whenever a price changes)", t.Version)
	}
	if !dateRE.MatchString(t.Date) {
		return nil, safeio.Errorf(path, 0, "", "date is %q; want the day the prices were read, as YYYY-MM-DD", t.Date)
	}
	if err := checkModels(path, t.Models); err != nil {
		return nil, err
	}
	lower := make(map[string]Price, len(t.Models))
	for _, id := range sortedIDs(t.Models) {
		k := strings.ToLower(strings.TrimSpace(id))
		if _, dup := lower[k]; dup {
			return nil, safeio.Errorf(path, 0, "", "model %q is listed twice (ids are compared without case)", id)
		}
		lower[k] = t.Models[id]
	}
	t.Models = lower
	return &t, nil
}

// checkModels refuses an empty id and a price that is negative, not finite or absurd.
func checkModels(path string, models map[string]Price) error {
	for _, id := range sortedIDs(models) {
		p := models[id]
		if strings.TrimSpace(id) == "" {
			return safeio.Errorf(path, 0, "", "a model id is empty")
		}
		if p.missing != "" {
			return safeio.Errorf(path, 0, "", "model %q: the price has no %s rate; give USD per million %s tokens (0 for a free model)", id, p.missing, p.missing)
		}
		check := func(what string, v float64) error {
			if !(v >= 0 && v <= MaxPrice) || math.IsInf(v, 0) {
				return safeio.Errorf(path, 0, "", "model %q: %s is %v; want USD per million tokens, from 0 to %g", id, what, v, float64(MaxPrice))
			}
			return nil
		}
		if err := check("input", p.Input); err != nil {
			return err
		}
		if err := check("output", p.Output); err != nil {
			return err
		}
		if p.CachedInput != nil {
			if err := check("cached_input", *p.CachedInput); err != nil {
				return err
			}
		}
	}
	return nil
}

func sortedIDs(m map[string]Price) []string {
	ids := make([]string, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Name says which table priced a report: "evalgate prices v1 (2026-11-25)", with the
// overrides when there are any.
func (t *Table) Name() string {
	s := fmt.Sprintf("evalgate prices v%d (%s)", t.Version, t.Date)
	if len(t.Overrides) > 0 {
		s += " + " + strings.Join(t.Overrides, " + ")
	}
	return s
}

// With returns a copy of t with models added or replaced, noting from where.
func (t *Table) With(from string, models map[string]Price) *Table {
	out := *t
	out.Models = make(map[string]Price, len(t.Models)+len(models))
	for id, p := range t.Models {
		out.Models[id] = p
	}
	for id, p := range models {
		out.Models[strings.ToLower(id)] = p
	}
	out.Overrides = append(append([]string(nil), t.Overrides...), from)
	return &out
}

// dateSuffix is a dated snapshot's suffix: gpt-4o-2024-08-06, claude-sonnet-4-5-20250929,
// claude-3-5-haiku@20241022 (Vertex AI's spelling), tutor-sft@2025-06-01.
var dateSuffix = regexp.MustCompile(`(-\d{4}-\d{2}-\d{2}|-\d{8}|@\d{8}|@\d{4}-\d{2}-\d{2})$`)

// Lookup finds a model's price: by its exact id (case-insensitive), else without a
// provider prefix ("openai/gpt-4o", "models/gemini-2.5-pro", promptfoo's
// "openai:chat:gpt-4o"), else without a date
// suffix (a dated snapshot is priced as its family's id, which the providers price
// the same). It returns the id that matched.
func (t *Table) Lookup(model string) (Price, string, bool) {
	id := strings.ToLower(strings.TrimSpace(model))
	if id == "" {
		return Price{}, "", false
	}
	try := []string{id}
	if i := strings.LastIndexAny(id, "/:"); i >= 0 {
		id = id[i+1:]
		try = append(try, id)
	}
	if d := dateSuffix.ReplaceAllString(id, ""); d != id && d != "" {
		try = append(try, d)
	}
	for _, k := range try {
		if p, ok := t.Models[k]; ok {
			return p, k, true
		}
	}
	return Price{}, "", false
}
