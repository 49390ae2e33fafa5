package rubric

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/evalgate/evalgate/internal/judge"
	"github.com/evalgate/evalgate/internal/pricing"
)

// Judges builds the judges that llm_judge dimensions name (the config's `judges:`
// block), once per name, so dimensions that read different keys of one judge share its
// verdicts: one call per item scores every dimension (seed 003: pointwise, all
// dimensions at once).
type Judges struct {
	Configs  map[string]judge.Config
	Options  []judge.Option          // HTTP client, progress, ... (from the CLI)
	Override func(cfg *judge.Config) // --no-cache, --judge-replay, --concurrency
	// Script, when set, answers for the model: its verdicts are recorded in the judge's
	// cache (judge.Record) before the judge is asked, so a scripted judge can make the
	// replay cache of an offline example. Label such verdicts with their Model.
	Script func(r judge.Request) (judge.Judgment, bool)
	// Prices prices the judges' models (the config's price table), for max_cost_usd.
	Prices *pricing.Table

	mu    sync.Mutex
	built map[string]*sharedJudge
}

// sharedJudge is one judge (at one sample's seed, for a panel) and the verdicts it
// gave, by request key.
type sharedJudge struct {
	name     string
	j        *judge.Judge
	mu       sync.Mutex
	verdicts map[string]judge.Judgment
	stats    judge.Stats
	script   func(judge.Request) (judge.Judgment, bool)
}

// JudgeScorer builds the scorer of an llm_judge dimension: one judge's, or a panel's.
func (s *Judges) JudgeScorer(d *Dimension, sc Scale) (Scorer, error) {
	if s == nil || len(s.Configs) == 0 {
		return nil, optErr(d, "no judge configured: add a `judges:` block (e.g. judges: {default: {model: gpt-4o-2024-08-06}})")
	}
	key := d.Key
	if key == "" {
		key = d.Name
	}
	if d.Panel != nil {
		return s.panelScorer(d, sc, key)
	}
	name := d.Judge
	if name == "" {
		if len(s.Configs) != 1 {
			return nil, optErr(d, "several judges configured; name one with `judge:` (%s)", strings.Join(s.names(), ", "))
		}
		name = s.names()[0]
	}
	sj, err := s.shared(d, name, 0, key)
	if err != nil {
		return nil, err
	}
	return &llmJudgeScorer{d: d, key: key, scale: sc, byMax: d.Normalize == "max", sj: sj}, nil
}

// shared returns the judge named name, built once; sample > 0 is a panel's sample-th
// ask of it (seed + sample − 1, reviewer "<name>#<sample>").
func (s *Judges) shared(d *Dimension, name string, sample int, key string) (*sharedJudge, error) {
	cfg, ok := s.Configs[name]
	if !ok {
		return nil, optErr(d, "unknown judge %q; want one of %s", name, strings.Join(s.names(), ", "))
	}
	id := name
	if sample > 0 {
		id = fmt.Sprintf("%s#%d", name, sample)
		seed := int64(judge.DefaultSeed)
		if cfg.Seed != nil {
			seed = *cfg.Seed
		}
		seed += int64(sample - 1)
		cfg.Seed = &seed
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.built == nil {
		s.built = map[string]*sharedJudge{}
	}
	sj := s.built[id]
	if sj == nil {
		if s.Override != nil {
			s.Override(&cfg)
		}
		opts := s.Options
		if cfg.MaxCostUSD > 0 {
			o, err := s.costBudget(cfg)
			if err != nil {
				return nil, optErr(d, "judge %q: %v", name, err)
			}
			opts = append(append([]judge.Option(nil), opts...), o)
		}
		j, err := judge.New(cfg, opts...)
		if err != nil {
			return nil, optErr(d, "judge %q: %v", name, err)
		}
		sj = &sharedJudge{name: id, j: j, verdicts: map[string]judge.Judgment{}, script: s.Script}
		s.built[id] = sj
	}
	if !slices.Contains(sj.j.Template().KeyNames(), key) {
		return nil, optErr(d, "judge %q's template %s has no key %q; it has %s", name, sj.j.Template().ID, key, strings.Join(sj.j.Template().KeyNames(), ", "))
	}
	return sj, nil
}

// panelScorer builds a panel's scorer: one reviewer per judge, or per judge and
// sample when panel.samples is above 1.
func (s *Judges) panelScorer(d *Dimension, sc Scale, key string) (Scorer, error) {
	p := d.Panel
	if err := p.check(d); err != nil {
		return nil, err
	}
	ps := &panelScorer{d: d, key: key, scale: sc, byMax: d.Normalize == "max", aggregate: p.Aggregate,
		znorm: p.ZNormalize, observed: map[string]*momentAcc{}}
	if ps.aggregate == "" {
		ps.aggregate = AggregateMean
	}
	for _, name := range p.Judges {
		if p.Samples <= 1 {
			sj, err := s.shared(d, name, 0, key)
			if err != nil {
				return nil, err
			}
			ps.reviewers = append(ps.reviewers, &reviewer{name: name, sj: sj})
			continue
		}
		for k := 1; k <= p.Samples; k++ {
			sj, err := s.shared(d, name, k, key)
			if err != nil {
				return nil, err
			}
			ps.reviewers = append(ps.reviewers, &reviewer{name: sj.name, sj: sj})
		}
	}
	return ps, nil
}

// costBudget is the judge's max_cost_usd as an option: it needs a price for the model.
func (s *Judges) costBudget(cfg judge.Config) (judge.Option, error) {
	b, err := pricing.NewBudget(cfg.MaxCostUSD)
	if err != nil {
		return nil, err
	}
	if s.Prices == nil {
		return nil, fmt.Errorf("max_cost_usd: no price table to price model %q with", cfg.Model)
	}
	price, _, ok := s.Prices.Lookup(cfg.Model)
	if !ok {
		return nil, fmt.Errorf("max_cost_usd: cost unknown: %s; add its price under `pricing:` (%s has none)", cfg.Model, s.Prices.Name())
	}
	return judge.WithCostBudget(b, price), nil
}

func (s *Judges) names() []string {
	var out []string
	for n := range s.Configs {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// llmJudgeScorer reads one key of the judge's verdict on a sample.
type llmJudgeScorer struct {
	d     *Dimension
	key   string
	scale Scale
	byMax bool
	sj    *sharedJudge
}

func init() {
	register("llm_judge", "", true, func(d *Dimension, env *Env) (Scorer, error) {
		if d.Scale == "" {
			return nil, optErr(d, "needs `scale:` (0-2 for the accuracy-faithfulness template, 1-10 for rubric-1-10)")
		}
		if env == nil || env.Judges == nil {
			return nil, optErr(d, "no judge configured: add a `judges:` block")
		}
		return env.Judges.JudgeScorer(d, scales[d.Scale])
	})
}

// request builds the judge request of a sample: the item's prompt, its reference
// answer, its context, and the candidate text. All of it is sandboxed by the judge. A
// re-run's sample carries its draw, so the judge judges it afresh.
func request(d *Dimension, in *Input) judge.Request {
	ref := ""
	if want, err := expectedStrings(in, d, "expected", "expected_contains"); err == nil {
		ref = strings.Join(want, "\n")
	}
	text := in.Text
	if in.TextErr != "" {
		text = ""
	}
	return judge.Request{ID: in.Item.ID, Task: in.Item.Prompt, ReferenceAnswer: ref, ProvidedContext: in.Item.Context, CandidateAnswer: text, Draw: in.Draw}
}

// Prepare judges every sample not judged yet, with the judge's worker pool.
func (s *llmJudgeScorer) Prepare(ctx context.Context, inputs []*Input) error {
	return s.sj.prepare(ctx, s.d, inputs)
}

// prepare judges every input of d not judged yet (nor given by a rubric test).
func (sj *sharedJudge) prepare(ctx context.Context, d *Dimension, inputs []*Input) error {
	sj.mu.Lock()
	defer sj.mu.Unlock()
	var reqs []judge.Request
	var keys []string
	seen := map[string]bool{}
	for _, in := range inputs {
		if in.Verdict != nil {
			continue // a rubric test gives the verdict: nothing to ask
		}
		r := request(d, in)
		k := sj.j.Key(r)
		if _, done := sj.verdicts[k]; done || seen[k] {
			continue
		}
		seen[k] = true
		reqs = append(reqs, r)
		keys = append(keys, k)
	}
	if len(reqs) == 0 {
		return nil
	}
	if sj.script != nil {
		for _, r := range reqs {
			if v, ok := sj.script(r); ok {
				if err := sj.j.Record(r, v); err != nil {
					return fmt.Errorf("judge %q: %w", sj.name, err)
				}
			}
		}
	}
	verdicts, st, err := sj.j.Evaluate(ctx, reqs)
	sj.stats.Requests += st.Requests
	sj.stats.Calls += st.Calls
	sj.stats.CacheHits += st.CacheHits
	sj.stats.ParseErrors += st.ParseErrors
	sj.stats.Errors += st.Errors
	sj.stats.PromptTokens += st.PromptTokens
	sj.stats.CompletionTokens += st.CompletionTokens
	sj.stats.CachedPromptTokens += st.CachedPromptTokens
	sj.stats.HitUsage.PromptTokens += st.HitUsage.PromptTokens
	sj.stats.HitUsage.CompletionTokens += st.HitUsage.CompletionTokens
	sj.stats.HitUsage.CachedPromptTokens += st.HitUsage.CachedPromptTokens
	if err != nil {
		return fmt.Errorf("judge %q: %w", sj.name, err)
	}
	for i, k := range keys {
		sj.verdicts[k] = verdicts[i]
	}
	return nil
}

func (s *llmJudgeScorer) Score(in *Input) (Value, error) {
	if in.Verdict != nil {
		return givenValue(in.Verdict, s.sj.name, s.key, s.scale, s.byMax, s.d)
	}
	return s.sj.value(s.d, s.key, s.scale, s.byMax, in)
}

// value reads key of the judge's verdict on the input's sample.
func (sj *sharedJudge) value(d *Dimension, key string, sc Scale, byMax bool, in *Input) (Value, error) {
	r := request(d, in)
	sj.mu.Lock()
	v, ok := sj.verdicts[sj.j.Key(r)]
	sj.mu.Unlock()
	if !ok {
		return Value{}, fmt.Errorf("dimension %q: no judge verdict for the sample (Prepare was not called)", d.Name)
	}
	raw := v.Scores[key]
	if raw == nil {
		e := v.EvaluatorError
		if e == "" {
			e = judge.ErrorParse
		}
		return Value{Error: e, Note: v.ErrorDetail}, nil
	}
	if err := sc.check(*raw); err != nil {
		return Value{Error: judge.ErrorParse, Note: err.Error()}, nil
	}
	val := num(*raw, sc, byMax)
	val.Note = v.Rationale
	return val, nil
}

// givenValue reads key from a rubric test's `judge_verdict:`: the judge's (or
// reviewer's) own entry (judge_verdict: {<judge>: {<key>: v}}) or the flat form that
// every judge shares (judge_verdict: {<key>: v}).
func givenValue(verdict map[string]any, judgeName, key string, sc Scale, byMax bool, d *Dimension) (Value, error) {
	if own, ok := verdict[judgeName].(map[string]any); ok {
		verdict = own
	}
	v, ok := verdict[key]
	if !ok {
		return Value{}, fmt.Errorf("dimension %q: the rubric test's judge_verdict has no %q for judge %q", d.Name, key, judgeName)
	}
	if v == nil {
		return Value{Error: judge.ErrorParse, Note: "judge_verdict gives null"}, nil
	}
	return parseRaw(v, sc, byMax, key)
}

func (s *llmJudgeScorer) reviewerValues(*Input) ([]string, []float64) { return nil, nil }

func (s *llmJudgeScorer) judgeName() string { return s.sj.name }

// ContentHash puts the judge into the rubric hash: another model, template or generation
// parameter scores differently, so a baseline judged otherwise must be re-scored.
func (s *llmJudgeScorer) ContentHash() string { return s.sj.contentHash() }

func (sj *sharedJudge) contentHash() string {
	md := sj.j.Metadata(nil)
	return fmt.Sprintf("llm_judge %s %s %+v", md.EvaluatorModelID, md.TemplateHash, md.Params)
}

// Evaluator describes the judge for the run metadata (seed 001 §4.3).
func (s *llmJudgeScorer) Evaluator() EvaluatorInfo { return s.sj.evaluator() }

func (sj *sharedJudge) evaluator() EvaluatorInfo {
	sj.mu.Lock()
	defer sj.mu.Unlock()
	vs := make([]judge.Judgment, 0, len(sj.verdicts))
	for _, v := range sj.verdicts {
		vs = append(vs, v)
	}
	return EvaluatorInfo{Name: sj.name, Metadata: sj.j.Metadata(vs), Stats: sj.stats}
}

// EvaluatorInfo is a judge's identity and spend over the run.
type EvaluatorInfo struct {
	Name     string
	Metadata judge.Metadata
	Stats    judge.Stats
}

// Evaluators lists the judges the scoring system used, one per judge name (a panel's
// reviewers each count as one).
func (s *System) Evaluators() []EvaluatorInfo {
	var out []EvaluatorInfo
	seen := map[string]bool{}
	add := func(info EvaluatorInfo) {
		if !seen[info.Name] {
			seen[info.Name] = true
			out = append(out, info)
		}
	}
	for _, sc := range s.scorers {
		switch e := sc.(type) {
		case interface{ Evaluator() EvaluatorInfo }:
			add(e.Evaluator())
		case *panelScorer:
			for _, r := range e.reviewers {
				add(r.sj.evaluator())
			}
		}
	}
	return out
}
