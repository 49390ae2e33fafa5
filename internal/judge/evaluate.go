package judge

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/errgroup"
)

// parseAttempts is seed 001 §2.2's "retry evaluator once with identical inputs".
const parseAttempts = 2

// Evaluate judges reqs with at most Concurrency calls in flight and returns one
// Judgment per request, in input order. Identical requests (same cache key) are judged
// once. A result does not depend on timing: the same inputs and cache give the same
// verdicts.
//
// Per-item failures (a reply that breaks the parse rules twice, a timeout, a refused
// request) become Judgments with EvaluatorError set. Failures that would hit every item
// end the run with an error: a budget exceeded, a replay miss, a bad key or model, an
// unreachable endpoint, a broken cache, ctx done. No call starts after it; on a budget
// the calls in flight finish. The verdicts finished by then are returned (the others
// are zero) and are in the cache already.
func (j *Judge) Evaluate(ctx context.Context, reqs []Request) ([]Judgment, Stats, error) {
	verdicts := make([]Judgment, len(reqs))
	keys := make([]string, len(reqs))
	first := make(map[string]int, len(reqs)) // key → index of its first request
	var unique []int
	for i, r := range reqs {
		keys[i] = j.Key(r)
		if _, ok := first[keys[i]]; !ok {
			first[keys[i]] = i
			unique = append(unique, i)
		}
	}

	st := Stats{Requests: len(reqs)}
	// Cached verdicts first, so progress counts only what calls the model, and a run
	// answered wholly from the cache says so in one line.
	misses, err := j.fromCache(unique, keys, verdicts, &st)
	if err != nil {
		return verdicts, st, err
	}
	if len(misses) == 0 {
		j.reportAllCached(len(reqs))
	}
	var prog Bar = noBar{}
	if len(misses) > 0 && j.progress.newBar != nil {
		prog = j.progress.newBar("judge", len(misses))
	}
	var mu sync.Mutex
	// The first error stops new calls. A budget refusal lets the calls in flight
	// finish, so their verdicts (paid for) are cached and the next run does not pay
	// for them again; any other error cancels them.
	gctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var g errgroup.Group
	g.SetLimit(j.cfg.Concurrency)
	var stopped atomic.Bool
	for _, i := range misses {
		if gctx.Err() != nil || stopped.Load() {
			break
		}
		g.Go(func() error {
			if stopped.Load() {
				return nil
			}
			v, spent, err := j.evaluateOne(gctx, reqs[i], keys[i])
			mu.Lock()
			defer mu.Unlock()
			st.Calls += spent.calls
			st.PromptTokens += spent.PromptTokens
			st.CompletionTokens += spent.CompletionTokens
			st.CachedPromptTokens += spent.CachedPromptTokens
			if err != nil {
				stopped.Store(true)
				if !errors.Is(err, ErrBudgetExceeded) {
					cancel()
				}
				return err
			}
			st.count(v)
			verdicts[i] = v
			prog.Add(1)
			return nil
		})
	}
	err = g.Wait()
	if err == nil {
		err = ctx.Err()
	}
	prog.Finish()

	for i := range reqs {
		if f := first[keys[i]]; f != i && verdicts[f].Scores != nil {
			verdicts[i] = verdicts[f].clone()
			verdicts[i].Cached = true
			st.CacheHits++
		}
	}
	return verdicts, st, err
}

// noBar reports nothing.
type noBar struct{}

func (noBar) Add(int) {}
func (noBar) Finish() {}

// cost is what judging one request spent in this run: nothing for a cache hit.
type cost struct {
	calls int
	Usage
}

// count classifies one unique request's verdict.
func (st *Stats) count(v Judgment) {
	switch {
	case v.Cached:
		st.CacheHits++
	case v.EvaluatorError == ErrorParse:
		st.ParseErrors++
	case v.EvaluatorError != "":
		st.Errors++
	}
}

// fromCache fills verdicts of the unique requests the cache answers and returns the
// others, in order.
func (j *Judge) fromCache(unique []int, keys []string, verdicts []Judgment, st *Stats) ([]int, error) {
	if j.cache == nil {
		return unique, nil
	}
	var misses []int
	for _, i := range unique {
		v, ok, err := j.cache.get(keys[i])
		if err != nil {
			return nil, err
		}
		if !ok {
			misses = append(misses, i)
			continue
		}
		v.Cached = true
		st.count(v)
		st.HitUsage.PromptTokens += v.Usage.PromptTokens
		st.HitUsage.CompletionTokens += v.Usage.CompletionTokens
		st.HitUsage.CachedPromptTokens += v.Usage.CachedPromptTokens
		verdicts[i] = v
	}
	return misses, nil
}

// reportAllCached prints, once for all the judges sharing a progress option, that
// their verdicts come from the cache: a run answered wholly from it shows one line, not
// a progress bar per batch, nor a line per panel reviewer.
func (j *Judge) reportAllCached(n int) {
	if j.progress.w == nil || j.progress.cachedOnce == nil {
		return
	}
	j.progress.cachedOnce.Do(func() {
		fmt.Fprintf(j.progress.w, "judge: %d/%d from the cache, no model call\n", n, n)
	})
}

// ErrReplayMiss is a judge in replay mode asked for a verdict its cache lacks.
var ErrReplayMiss = errors.New("judge replay: no cached verdict")

// errNoCaller is a judge built without a Caller (WithCaller) asked for a verdict its
// cache lacks: the program that built it plugged in no model client.
var errNoCaller = errors.New("no model client to call (only cached verdicts can be read)")

// evaluateOne judges one request the cache does not answer, by calling the model
// (twice at most for the parse rule, each call with its own retries).
func (j *Judge) evaluateOne(ctx context.Context, r Request, key string) (Judgment, cost, error) {
	if j.caller == nil && !j.cfg.Replay {
		return Judgment{}, cost{}, fmt.Errorf("judge: item %q: %w", r.ID, errNoCaller)
	}
	if j.caller == nil {
		return Judgment{}, cost{}, fmt.Errorf("%w for item %q (key %s) in %s; "+
			"run once without replay to record it", ErrReplayMiss, r.ID, key[:12], j.cfg.CacheDir)
	}

	prompt := j.tmpl.Render(r)
	call := Call{Model: j.cfg.Model, System: SandboxNotice, User: prompt, Params: j.params}

	var v Judgment
	for range parseAttempts {
		res, worst, err := j.cost.reserve(SandboxNotice+prompt, 2, j.params.MaxTokens)
		if err != nil {
			return Judgment{}, v.spent(), fmt.Errorf("judge: item %q: %w", r.ID, err)
		}
		rep, err := j.caller.Call(ctx, call)
		v.Calls += rep.Attempts
		if err != nil {
			res.Settle(worst) // what a failed call was billed is unknown: its worst case
			v, err := j.failed(ctx, r, v, err)
			return v, v.spent(), err
		}
		u := rep.Usage
		j.cost.settle(res, u)
		v.Usage.PromptTokens += u.PromptTokens
		v.Usage.CompletionTokens += u.CompletionTokens
		v.Usage.CachedPromptTokens += u.CachedPromptTokens
		// A token overrun is found when the call that caused it returns: its verdict,
		// paid for, is still kept (cached), and the overrun ends the run after it.
		overrun := j.budget.addTokens(u.PromptTokens + u.CompletionTokens)
		v.Model, v.ModelVersion = rep.Model, rep.SystemFingerprint
		p, perr := ParseVerdict(j.tmpl, rep.Content)
		if perr == nil {
			v.Scores = make(map[string]*float64, len(p.Scores))
			for k, s := range p.Scores {
				f := float64(s)
				v.Scores[k] = &f
			}
			v.Rationale, v.EvaluatorError, v.ErrorDetail = p.Rationale, "", ""
			if err := j.store(key, r, v); err != nil || overrun == nil {
				return v, v.spent(), err
			}
			return Judgment{}, v.spent(), fmt.Errorf("judge: item %q: %w", r.ID, overrun)
		}
		if overrun != nil { // no second attempt over the budget
			return Judgment{}, v.spent(), fmt.Errorf("judge: item %q: %w", r.ID, overrun)
		}
		v.EvaluatorError, v.ErrorDetail = ErrorParse, perr.(*ParseError).Reason
	}
	v.Scores = nullScores(j.tmpl)
	return v, v.spent(), j.store(key, r, v)
}

// spent is the cost of a verdict made by calls in this run.
func (v Judgment) spent() cost { return cost{calls: v.Calls, Usage: v.Usage} }

// failed turns a call error into a per-item verdict, or a run-ending error when the
// failure is not about this item.
func (j *Judge) failed(ctx context.Context, r Request, v Judgment, err error) (Judgment, error) {
	var ce *CallError
	isCall := errors.As(err, &ce)
	switch {
	case ctx.Err() != nil:
		return v, ctx.Err()
	case errors.Is(err, ErrBudgetExceeded), !isCall, ce.Fatal:
		return v, fmt.Errorf("judge: item %q: %w", r.ID, err)
	case ce.Timeout:
		v.EvaluatorError = ErrorTimeout
	default:
		v.EvaluatorError = ErrorAPI
	}
	v.ErrorDetail = err.Error()
	v.Scores = nullScores(j.tmpl)
	v.Rationale = ""
	return v, nil // not cached: the next run tries again
}

func (j *Judge) store(key string, r Request, v Judgment) error {
	if j.cache == nil {
		return nil
	}
	return j.cache.put(cacheEntry{Key: key, Item: r.ID, Template: j.tmpl.ID, Model: j.cfg.Model, Judgment: v})
}
