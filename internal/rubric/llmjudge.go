package rubric

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/evalgate/evalgate/internal/judge"
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

	mu    sync.Mutex
	built map[string]*sharedJudge
}

// sharedJudge is one judge and the verdicts it gave, by request key.
type sharedJudge struct {
	name     string
	j        *judge.Judge
	mu       sync.Mutex
	verdicts map[string]judge.Judgment
	stats    judge.Stats
	script   func(judge.Request) (judge.Judgment, bool)
}

// JudgeScorer builds the scorer of an llm_judge dimension.
func (s *Judges) JudgeScorer(d *Dimension, sc Scale) (Scorer, error) {
	if s == nil || len(s.Configs) == 0 {
		return nil, optErr(d, "no judge configured: add a `judges:` block (e.g. judges: {default: {model: gpt-4o-2024-08-06}})")
	}
	name := d.Judge
	if name == "" {
		if len(s.Configs) != 1 {
			return nil, optErr(d, "several judges configured; name one with `judge:` (%s)", strings.Join(s.names(), ", "))
		}
		name = s.names()[0]
	}
	cfg, ok := s.Configs[name]
	if !ok {
		return nil, optErr(d, "unknown judge %q; want one of %s", name, strings.Join(s.names(), ", "))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.built == nil {
		s.built = map[string]*sharedJudge{}
	}
	sj := s.built[name]
	if sj == nil {
		if s.Override != nil {
			s.Override(&cfg)
		}
		j, err := judge.New(cfg, s.Options...)
		if err != nil {
			return nil, optErr(d, "judge %q: %v", name, err)
		}
		sj = &sharedJudge{name: name, j: j, verdicts: map[string]judge.Judgment{}, script: s.Script}
		s.built[name] = sj
	}
	key := d.Key
	if key == "" {
		key = d.Name
	}
	if !slices.Contains(sj.j.Template().KeyNames(), key) {
		return nil, optErr(d, "judge %q's template %s has no key %q; it has %s", name, sj.j.Template().ID, key, strings.Join(sj.j.Template().KeyNames(), ", "))
	}
	return &llmJudgeScorer{d: d, key: key, scale: sc, byMax: d.Normalize == "max", sj: sj}, nil
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
// answer, its context, and the candidate text. All of it is sandboxed by the judge.
func (s *llmJudgeScorer) request(in *Input) judge.Request {
	ref := ""
	if want, err := expectedStrings(in, s.d, "expected", "expected_contains"); err == nil {
		ref = strings.Join(want, "\n")
	}
	text := in.Text
	if in.TextErr != "" {
		text = ""
	}
	return judge.Request{ID: in.Item.ID, Task: in.Item.Prompt, ReferenceAnswer: ref, ProvidedContext: in.Item.Context, CandidateAnswer: text}
}

// Prepare judges every sample not judged yet, with the judge's worker pool.
func (s *llmJudgeScorer) Prepare(ctx context.Context, inputs []*Input) error {
	sj := s.sj
	sj.mu.Lock()
	defer sj.mu.Unlock()
	var reqs []judge.Request
	var keys []string
	seen := map[string]bool{}
	for _, in := range inputs {
		if in.Verdict != nil {
			continue // a rubric test gives the verdict: nothing to ask
		}
		r := s.request(in)
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
		return s.givenScore(in.Verdict)
	}
	r := s.request(in)
	s.sj.mu.Lock()
	v, ok := s.sj.verdicts[s.sj.j.Key(r)]
	s.sj.mu.Unlock()
	if !ok {
		return Value{}, fmt.Errorf("dimension %q: no judge verdict for the sample (Prepare was not called)", s.d.Name)
	}
	raw := v.Scores[s.key]
	if raw == nil {
		e := v.EvaluatorError
		if e == "" {
			e = judge.ErrorParse
		}
		return Value{Error: e, Note: v.ErrorDetail}, nil
	}
	if err := s.scale.check(*raw); err != nil {
		return Value{Error: judge.ErrorParse, Note: err.Error()}, nil
	}
	val := num(*raw, s.scale, s.byMax)
	val.Note = v.Rationale
	return val, nil
}

// ContentHash puts the judge into the rubric hash: another model, template or generation
// parameter scores differently, so a baseline judged otherwise must be re-scored.
func (s *llmJudgeScorer) ContentHash() string {
	md := s.sj.j.Metadata(nil)
	return fmt.Sprintf("llm_judge %s %s %+v", md.EvaluatorModelID, md.TemplateHash, md.Params)
}

// Evaluator describes the judge for the run metadata (seed 001 §4.3).
func (s *llmJudgeScorer) Evaluator() EvaluatorInfo {
	s.sj.mu.Lock()
	defer s.sj.mu.Unlock()
	vs := make([]judge.Judgment, 0, len(s.sj.verdicts))
	for _, v := range s.sj.verdicts {
		vs = append(vs, v)
	}
	return EvaluatorInfo{Name: s.sj.name, Metadata: s.sj.j.Metadata(vs), Stats: s.sj.stats}
}

// EvaluatorInfo is a judge's identity and spend over the run.
type EvaluatorInfo struct {
	Name     string
	Metadata judge.Metadata
	Stats    judge.Stats
}

// Evaluators lists the judges the scoring system used, one per judge name.
func (s *System) Evaluators() []EvaluatorInfo {
	var out []EvaluatorInfo
	seen := map[string]bool{}
	for _, sc := range s.scorers {
		if e, ok := sc.(interface{ Evaluator() EvaluatorInfo }); ok {
			info := e.Evaluator()
			if !seen[info.Name] {
				seen[info.Name] = true
				out = append(out, info)
			}
		}
	}
	return out
}

// givenScore reads the dimension's key from a rubric test's `judge_verdict:`: the
// judge's own entry (judge_verdict: {<judge>: {<key>: v}}) or the flat form that every
// judge shares (judge_verdict: {<key>: v}).
func (s *llmJudgeScorer) givenScore(verdict map[string]any) (Value, error) {
	if own, ok := verdict[s.sj.name].(map[string]any); ok {
		verdict = own
	}
	v, ok := verdict[s.key]
	if !ok {
		return Value{}, fmt.Errorf("dimension %q: the rubric test's judge_verdict has no %q (judge %q)", s.d.Name, s.key, s.sj.name)
	}
	if v == nil {
		return Value{Error: judge.ErrorParse, Note: "judge_verdict gives null"}, nil
	}
	return parseRaw(v, s.scale, s.byMax, s.key)
}
