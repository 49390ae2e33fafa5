package cli

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/judge"
	"github.com/evalgate/evalgate/internal/judgecheck"
	"github.com/evalgate/evalgate/internal/reliability"
	"github.com/evalgate/evalgate/internal/rubric"
)

// judgeCheckFlags are the judge reliability check's settings (baseline, judge-check).
type judgeCheckFlags struct {
	Sample, Repeats int
	Skip            bool
}

// freshJudges builds the config's scoring system again with every judge's cache
// bypassed, for one repeat of a reliability check, whose judges' progress says which
// ("judge reliability, repeat 2 of 3"). A judge in replay mode cannot be asked again:
// that is an error naming it.
func (c *CLI) freshJudges(cfg *config.Config, o *common) func(repeat, repeats int) (*rubric.System, error) {
	return func(repeat, repeats int) (*rubric.System, error) {
		env := c.judgeEnvAs(o, fmt.Sprintf("judge reliability, repeat %d of %d", repeat, repeats))
		user := env.Judges.Override
		var replay []string
		env.Judges.Override = func(j *judge.Config) {
			user(j)
			if j.Replay {
				replay = append(replay, j.Model)
			}
			j.NoCache, j.Replay = true, false
		}
		fresh, err := config.Load(cfg.File, env)
		if err != nil {
			return nil, err
		}
		if len(replay) > 0 {
			return nil, fmt.Errorf("%w: %v", errReplayJudge, replay)
		}
		return &fresh.Scoring, nil
	}
}

var errReplayJudge = errors.New("a judge answers from its cache only (replay), so it cannot be asked again to measure its reliability; drop replay (or --judge-replay) to measure it")

// judgeSample is the first run's outputs, item by item, that a reliability check
// samples from.
func judgeSample(l *Loaded) ([]*eval.Item, []*eval.Result) {
	if len(l.Runs) == 0 {
		return nil, nil
	}
	var items []*eval.Item
	var results []*eval.Result
	for _, res := range l.Runs[0].Results {
		if it, ok := l.Suite.Item(res.ID); ok {
			items = append(items, it)
			results = append(results, res)
		}
	}
	return items, results
}

// judgeBaseline adds what a baseline records about its judges: the z-normalizing
// panels' reviewer moments (the release scored again with them, every verdict cached),
// and the judges' reliability measured on a sample of the release's outputs.
func (c *CLI) judgeBaseline(ctx context.Context, l *Loaded, sc *rubric.Scored, o BaselineOptions, streamed bool) (*rubric.Scored, map[string]reliability.Panel, *reliability.Measurement, error) {
	sys := &l.Config.Scoring
	var moments map[string]reliability.Panel
	if sys.NeedsPanelMoments() {
		moments = sys.ObservedPanelMoments()
		sys.SetPanelMoments(moments)
		var err error
		so := rubric.ScoreOptions{KeepSamples: true}
		if streamed {
			so = rubric.ScoreOptions{DropFields: true, MaxMemory: o.MaxMemory}
		}
		suite := l.Suite
		if suite == nil && l.Config.Suite != "" { // released by the first scoring
			if suite, err = l.suiteAgain(); err != nil {
				return nil, nil, nil, err
			}
		}
		if sc, err = rubric.ScoreRuns(ctx, sys, suite, l.sources(), so); err != nil {
			return nil, nil, nil, err
		}
	}
	if o.check.Skip || len(sys.JudgedDimensions()) == 0 {
		return sc, moments, nil, nil
	}
	if streamed {
		c.notice("judge reliability not measured: the release is scored as a stream; run `evalgate judge-check` on one run")
		return sc, moments, nil, nil
	}
	items, results := judgeSample(l)
	m, err := judgecheck.Measure(ctx, judgecheck.Options{Fresh: c.freshJudges(l.Config, &o.judge), Items: items, Results: results,
		Sample: o.check.Sample, Repeats: o.check.Repeats})
	if errors.Is(err, errReplayJudge) {
		c.notice("judge reliability not measured: " + err.Error())
		return sc, moments, nil, nil
	}
	if err != nil {
		return nil, nil, nil, err
	}
	return sc, moments, m, nil
}

// panelMomentsFromBaseline gives z-normalizing panels the baseline's reviewer moments
// before the candidate is scored, so both sides are standardized alike. A panel one of
// whose reviewers' judge changed since the baseline gets moments measured again on the
// baseline's recorded outputs judged by the current reviewers (baseline.PanelMoments).
func (l *Loaded) panelMomentsFromBaseline(ctx context.Context, bpath string) error {
	sys := &l.Config.Scoring
	if !sys.NeedsPanelMoments() || bpath == "" {
		return nil
	}
	if _, err := os.Stat(bpath); err != nil {
		return nil // no baseline yet: the panel says it is not z-normalized
	}
	r, err := baseline.Open(bpath)
	if err != nil {
		return err
	}
	defer r.Close()
	suiteOf := func() (*eval.Suite, error) {
		if l.Suite != nil {
			return l.Suite, nil
		}
		return l.suiteAgain()
	}
	m, _, err := baseline.PanelMoments(ctx, r, bpath, sys, suiteOf)
	if err != nil {
		return err
	}
	if len(m) > 0 {
		sys.SetPanelMoments(m)
	}
	return nil
}
