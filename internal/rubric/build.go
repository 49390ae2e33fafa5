package rubric

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/internal/suggest"
)

// FieldError is a problem with one place of the config, named by its YAML path
// (`$.scoring.dimensions[2].weight`); the config loader turns the path into a line.
type FieldError struct {
	Path string
	Msg  string
}

func (e *FieldError) Error() string { return e.Path + ": " + e.Msg }

// WeightTolerance is how far the weights may sum from 1.0.
const WeightTolerance = 0.001

var scoringVersion = regexp.MustCompile(`^scoringSystem/\d+\.\d+\.\d+$`)

// dimensionName is what a dimension may be called: metric names are built from it
// (`<name>_score`) and it is printed in tables and comments.
var dimensionName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_.-]{0,63}$`)

// sampleFieldNames are the per-sample fields a pass condition may test.
var sampleFieldNames = []string{"latency_e2e_ms", "latency_model_ms", "input_tokens", "output_tokens", "total_tokens", "score"}

// Build validates the scoring system and builds its scorers. base is the YAML path of
// the system in the config ("$.scoring"), for error locations.
func (s *System) Build(base string, env *Env) error {
	if env == nil {
		env = &Env{}
	}
	fe := func(path, format string, args ...any) error {
		return &FieldError{Path: base + path, Msg: fmt.Sprintf(format, args...)}
	}
	if !scoringVersion.MatchString(s.Version) {
		return fe(".version", "scoring version is %q; want scoringSystem/X.Y.Z (e.g. scoringSystem/1.0.0)", s.Version)
	}
	if len(s.Dimensions) == 0 {
		return fe(".dimensions", "no dimensions; a scoring system needs at least one")
	}
	seen := map[string]bool{}
	sum := 0.0
	s.scorers = make([]Scorer, len(s.Dimensions))
	for i := range s.Dimensions {
		d := &s.Dimensions[i]
		at := fmt.Sprintf(".dimensions[%d]", i)
		if d.Name == "" {
			return fe(at, "dimension has no name")
		}
		if !dimensionName.MatchString(d.Name) {
			return fe(at+".name", "dimension name %q; want a letter, then letters, digits, _ . or - (at most 64)", d.Name)
		}
		if seen[d.Name] {
			return fe(at+".name", "duplicate dimension name %q", d.Name)
		}
		if why := reservedName(d.Name); why != "" {
			return fe(at+".name", "%s", why)
		}
		seen[d.Name] = true
		if d.Weight < 0 || math.IsNaN(d.Weight) || math.IsInf(d.Weight, 0) {
			return fe(at+".weight", "weight %v of %q; want a number in [0, 1]", d.Weight, d.Name)
		}
		sum += d.Weight
		info, ok := registry[d.Scorer]
		if !ok {
			return fe(at+".scorer", "unknown scorer %q for %q; %swant one of %s", d.Scorer, d.Name, suggest.DidYouMean(d.Scorer, ScorerNames()), scorerList())
		}
		if d.Scale == "" {
			d.Scale = info.defaultScale
		}
		if d.Scale != "" {
			if _, ok := scales[d.Scale]; !ok {
				return fe(at+".scale", "unknown scale %q for %q; %swant one of %s", d.Scale, d.Name, suggest.DidYouMean(d.Scale, strings.Split(ScaleNames(), ", ")), ScaleNames())
			}
		}
		if d.Normalize != "" && d.Normalize != "minmax" && d.Normalize != "max" {
			return fe(at+".normalize", "normalize %q for %q; want minmax or max", d.Normalize, d.Name)
		}
		if d.OutputField != "" && !info.usesOutput {
			return fe(at+".output_field", "scorer %s does not read the output; output_field does not apply", d.Scorer)
		}
		sc, err := info.factory(d, env)
		if err != nil {
			return fe(at, "%v", err)
		}
		s.scorers[i] = sc
	}
	dims := make([]string, len(s.Dimensions))
	for i, d := range s.Dimensions {
		dims[i] = d.Name
	}
	unknownDim := func(path, what, name string) error {
		return fe(path, "%s unknown dimension %q; %swant one of %s", what, name, suggest.DidYouMean(name, dims), strings.Join(dims, ", "))
	}
	if math.Abs(sum-1) > WeightTolerance {
		return fe(".dimensions", "weights sum to %.4g; they must sum to 1.0 (±%g)", sum, WeightTolerance)
	}
	for i, c := range s.Ceilings {
		at := fmt.Sprintf(".ceilings[%d]", i)
		if !seen[c.Dimension] {
			return unknownDim(at+".dimension", "ceiling names", c.Dimension)
		}
		if c.Cap < 0 || c.Cap > 1 {
			return fe(at+".cap", "cap %v; want a score in [0, 1] (4.0 of 10 is 0.4)", c.Cap)
		}
	}
	for i, v := range s.Vetoes {
		at := fmt.Sprintf(".vetoes[%d]", i)
		if !seen[v.Dimension] {
			return unknownDim(at+".dimension", "veto names", v.Dimension)
		}
		if v.Cap < 0 || v.Cap > 1 {
			return fe(at+".cap", "cap %v; want a score in [0, 1]", v.Cap)
		}
	}
	if p := s.Pass.MinScore; p != nil && (*p < 0 || *p > 1) {
		return fe(".pass.min_score", "min_score %v; want a score in [0, 1]", *p)
	}
	for i, c := range s.Pass.Require {
		at := fmt.Sprintf(".pass.require[%d]", i)
		switch {
		case (c.Dimension == "") == (c.Field == ""):
			return fe(at, "a condition names exactly one of dimension or field")
		case c.Dimension != "" && !seen[c.Dimension]:
			return unknownDim(at+".dimension", "condition names", c.Dimension)
		case c.Field != "" && !slices.Contains(sampleFieldNames, c.Field):
			return fe(at+".field", "unknown field %q; %swant latency_e2e_ms, latency_model_ms, input_tokens, output_tokens, total_tokens or score", c.Field, suggest.DidYouMean(c.Field, sampleFieldNames))
		case c.Min == nil && c.Max == nil:
			return fe(at, "condition needs min or max")
		}
	}
	if s.CorrectDimension != "" && !seen[s.CorrectDimension] {
		return unknownDim(".correct_dimension", "correct_dimension names", s.CorrectDimension)
	}
	s.ceilingDim = make([]int, len(s.Ceilings))
	for i, c := range s.Ceilings {
		s.ceilingDim[i] = s.DimensionIndex(c.Dimension)
	}
	s.vetoDim = make([]int, len(s.Vetoes))
	for i, v := range s.Vetoes {
		s.vetoDim[i] = s.DimensionIndex(v.Dimension)
	}
	s.conditionDim = make([]int, len(s.Pass.Require))
	for i, c := range s.Pass.Require {
		s.conditionDim[i] = s.DimensionIndex(c.Dimension) // -1 for a field condition
	}
	s.hash = s.computeHash()
	return nil
}

// Built reports whether Build succeeded.
func (s *System) Built() bool { return len(s.scorers) == len(s.Dimensions) && len(s.scorers) > 0 }
