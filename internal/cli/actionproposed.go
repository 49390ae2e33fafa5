package cli

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/ghaction"
	"github.com/evalgate/evalgate/internal/judge"
	"github.com/evalgate/evalgate/internal/report"
	"github.com/evalgate/evalgate/internal/rubric"
)

// proposedGate says what the pull request's own definition (proposed) changes against
// the base commit's (base): the items it removes and adds, the dimensions, weights,
// scorers and their settings, the other parts of the scoring and grading systems, the
// rubric tests, the judges, and the files they name. NotScored is set when scoring it
// would hand this repository's judge keys to an endpoint or key variable the base
// commit's gate does not use.
func proposedGate(in ghaction.CheckInput, base, proposed *gateRun) *report.ProposedGate {
	p := &report.ProposedGate{Config: proposed.def.repoConfig, BaseConfig: base.def.repoConfig, AcceptLabel: in.AcceptLabel}
	removed, added := suiteDiff(base.l.Suite, proposed.l.Suite)
	p.Removed, p.RemovedTotal = report.CutIDs(removed)
	p.Added, p.AddedTotal = report.CutIDs(added)
	p.Changes = definitionChanges(base, proposed)
	if why := unsafeJudges(base.l.Config, proposed.l.Config); why != "" {
		p.NotScored = why
	}
	return p
}

// addedItems are the ids the proposed gate's suite has and the base commit's lacks:
// their results are skipped under the base gate.
func addedItems(base, proposed *gateRun) map[string]bool {
	_, added := suiteDiff(base.l.Suite, proposed.l.Suite)
	if len(added) == 0 {
		return nil
	}
	out := make(map[string]bool, len(added))
	for _, id := range added {
		out[id] = true
	}
	return out
}

// suiteDiff lists, sorted, the ids of base that proposed lacks and the reverse; nothing
// when either suite comes from the results.
func suiteDiff(base, proposed *eval.Suite) (removed, added []string) {
	if base == nil || proposed == nil {
		return nil, nil
	}
	in := func(s *eval.Suite) map[string]bool {
		m := make(map[string]bool, s.Len())
		for i := range s.Len() {
			m[s.ID(i)] = true
		}
		return m
	}
	b, p := in(base), in(proposed)
	for id := range b {
		if !p[id] {
			removed = append(removed, id)
		}
	}
	for id := range p {
		if !b[id] {
			added = append(added, id)
		}
	}
	slices.Sort(removed)
	slices.Sort(added)
	return removed, added
}

// definitionChanges are the differences between two definitions other than the items,
// one line each, names in backticks.
func definitionChanges(base, proposed *gateRun) []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	bc, pc := base.l.Config, proposed.l.Config
	if base.def.repoConfig != proposed.def.repoConfig {
		add("config `%s` → `%s`", base.def.repoConfig, proposed.def.repoConfig)
	}
	if b, p := repoRel(base.def, bc, bc.Suite), repoRel(proposed.def, pc, pc.Suite); b != p {
		add("suite `%s` → `%s`", b, p)
	}
	if b, p := repoRel(base.def, bc, bc.Baseline), repoRel(proposed.def, pc, pc.Baseline); b != p {
		add("baseline `%s` → `%s`", b, p)
	}
	out = append(out, dimensionChanges(base.def, proposed.def, &bc.Scoring, &pc.Scoring)...)
	for _, part := range []struct {
		what string
		b, p any
	}{
		{"scoring version", bc.Scoring.Version, pc.Scoring.Version},
		{"ceilings", bc.Scoring.Ceilings, pc.Scoring.Ceilings},
		{"vetoes", bc.Scoring.Vetoes, pc.Scoring.Vetoes},
		{"pass rule", bc.Scoring.Pass, pc.Scoring.Pass},
		{"correct dimension", bc.Scoring.CorrectDimension, pc.Scoring.CorrectDimension},
		{"grading system (gates, regression, grades)", bc.Grading, pc.Grading},
		{"rubric tests", bc.RubricCases, pc.RubricCases},
	} {
		if !sameJSON(part.b, part.p) {
			add("%s changed", part.what)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(mergeKeys(bc.Judges, pc.Judges))) {
		bj, inBase := bc.Judges[name]
		pj, inProp := pc.Judges[name]
		switch {
		case !inProp:
			add("removes judge `%s`", name)
		case !inBase:
			add("adds judge `%s` (model `%s`)", name, pj.Model)
		default:
			if fields := judgeFieldChanges(base.def, proposed.def, bj, pj); len(fields) > 0 {
				add("judge `%s`: %s changed", name, strings.Join(fields, ", "))
			}
		}
	}
	bf, pf := fingerprint(base.def), fingerprint(proposed.def)
	caches := map[string][3]int{} // judge cache dir -> files added, changed, removed
	var cacheDirs []string
	for _, d := range []struct {
		def gateDef
		cfg *config.Config
	}{{base.def, bc}, {proposed.def, pc}} {
		for _, j := range d.cfg.Judges {
			if rp, ok := d.def.repoPath(j.CacheDir); ok && !slices.Contains(cacheDirs, rp) {
				cacheDirs = append(cacheDirs, rp)
			}
		}
	}
	slices.Sort(cacheDirs)
	for _, f := range slices.Sorted(maps.Keys(mergeKeys(bf, pf))) {
		if f == base.def.repoConfig || f == proposed.def.repoConfig {
			continue
		}
		b, inBase := bf[f]
		p, inProp := pf[f]
		kind := -1
		switch {
		case !inBase:
			kind = 0
		case b != p:
			kind = 1
		case !inProp:
			kind = 2
		}
		if kind < 0 {
			continue
		}
		if i := slices.IndexFunc(cacheDirs, func(d string) bool { return strings.HasPrefix(f, d+"/") }); i >= 0 {
			n := caches[cacheDirs[i]]
			n[kind]++
			caches[cacheDirs[i]] = n
			continue
		}
		add([]string{"reads `%s`, which the base gate does not", "changes `%s`", "no longer reads `%s`"}[kind], f)
	}
	for _, d := range cacheDirs {
		if n, ok := caches[d]; ok {
			add("judge cache `%s`: %d verdict file(s) added, %d changed, %d removed (the base gate uses the base commit's)", d, n[0], n[1], n[2])
		}
	}
	const maxChanges = 20
	if len(out) > maxChanges {
		out = append(out[:maxChanges], fmt.Sprintf("and %d more changes", len(out)-maxChanges))
	}
	return out
}

// dimensionChanges compares the dimensions: removed, added, weights, scorers, and any
// other setting (normalization, fields, thresholds, scale).
func dimensionChanges(bdef, pdef gateDef, b, p *rubric.System) []string {
	var out []string
	for _, bd := range b.Dimensions {
		i := p.DimensionIndex(bd.Name)
		if i < 0 {
			out = append(out, fmt.Sprintf("removes dimension `%s` (weight %.2f)", bd.Name, bd.Weight))
			continue
		}
		pd := p.Dimensions[i]
		if bd.Weight != pd.Weight {
			out = append(out, fmt.Sprintf("weight of `%s` %.2f → %.2f", bd.Name, bd.Weight, pd.Weight))
		}
		if bd.Scorer != pd.Scorer {
			out = append(out, fmt.Sprintf("scorer of `%s` `%s` → `%s`", bd.Name, bd.Scorer, pd.Scorer))
		}
		if !sameJSON(dimensionSettings(bdef, bd), dimensionSettings(pdef, pd)) {
			out = append(out, fmt.Sprintf("settings of `%s` (normalization, fields, scale or thresholds) changed", bd.Name))
		}
	}
	for _, pd := range p.Dimensions {
		if b.DimensionIndex(pd.Name) < 0 {
			out = append(out, fmt.Sprintf("adds dimension `%s` (weight %.2f, scorer `%s`)", pd.Name, pd.Weight, pd.Scorer))
		}
	}
	return out
}

// dimensionSettings is a dimension's settings but its name, weight and scorer, its
// schema file as a repository path.
func dimensionSettings(def gateDef, d rubric.Dimension) rubric.Dimension {
	d.Weight, d.Scorer, d.Line, d.Dir = 0, "", 0, ""
	if d.Schema != "" && !filepath.IsAbs(d.Schema) {
		if rp, ok := treePath(filepath.ToSlash(filepath.Dir(def.repoConfig)), d.Schema); ok {
			d.Schema = rp
		}
	}
	return d
}

// judgeFieldChanges names the settings of a judge that differ; paths compare as
// repository paths, and the API key by whether one is set inline.
func judgeFieldChanges(bdef, pdef gateDef, b, p judge.Config) []string {
	var out []string
	check := func(name string, differ bool) {
		if differ {
			out = append(out, name)
		}
	}
	check("model", b.Model != p.Model)
	check("base_url", b.BaseURL != p.BaseURL)
	check("api_key_env", b.APIKeyEnv != p.APIKeyEnv)
	check("api_key", (b.APIKey == "") != (p.APIKey == "") || b.APIKey != p.APIKey)
	check("template", judgePath(bdef, b.Template) != judgePath(pdef, p.Template))
	check("cache_dir", judgePath(bdef, b.CacheDir) != judgePath(pdef, p.CacheDir))
	check("replay", b.Replay != p.Replay)
	check("no_cache", b.NoCache != p.NoCache)
	b.Model, b.BaseURL, b.APIKeyEnv, b.APIKey, b.Template, b.CacheDir, b.Replay, b.NoCache = "", "", "", "", "", "", false, false
	p.Model, p.BaseURL, p.APIKeyEnv, p.APIKey, p.Template, p.CacheDir, p.Replay, p.NoCache = "", "", "", "", "", "", false, false
	check("generation settings", !sameJSON(b, p))
	return out
}

// judgePath is a judge's template or cache path as a repository path (built-in
// templates as named).
func judgePath(def gateDef, p string) string {
	if rp, ok := def.repoPath(p); ok {
		return rp
	}
	return p
}

// unsafeJudges says why the proposed gate is not scored when one of its judges would
// call an endpoint, or use an API key, that the base commit's judge of that name does
// not: scoring it would send this repository's secrets where the pull request says.
// A judge that only replays its cache makes no call.
func unsafeJudges(base, proposed *config.Config) string {
	for _, name := range slices.Sorted(maps.Keys(proposed.Judges)) {
		pj := proposed.Judges[name]
		if pj.Replay {
			continue
		}
		bj, ok := base.Judges[name]
		if !ok || bj.BaseURL != pj.BaseURL || bj.APIKeyEnv != pj.APIKeyEnv || bj.APIKey != pj.APIKey {
			return fmt.Sprintf("its judge %q calls an endpoint or uses an API key that the base commit's gate does not, "+
				"so it is not run with this repository's secrets; it is judged once merged", name)
		}
	}
	return ""
}

// sameRerunWay reports whether the proposed config re-runs items as the base commit's
// does: the same `run:` block (command, endpoint, API key and its variable) and the same
// `rerun:` command. Only then may the proposed gate be settled.
func sameRerunWay(base, proposed *config.Config) bool {
	return reflect.DeepEqual(base.Run, proposed.Run) && reflect.DeepEqual(base.Rerun, proposed.Rerun)
}

// repoRel is the path a config names as a repository path ("" when it names none).
func repoRel(def gateDef, cfg *config.Config, p string) string {
	if p == "" {
		return ""
	}
	if rp, ok := def.repoPath(cfg.Path(p)); ok {
		return rp
	}
	return p
}

func mergeKeys[V any](a, b map[string]V) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

// sameJSON compares two values by their JSON encoding.
func sameJSON(a, b any) bool {
	ja, erra := json.Marshal(a)
	jb, errb := json.Marshal(b)
	return erra == nil && errb == nil && sha256.Sum256(ja) == sha256.Sum256(jb)
}
