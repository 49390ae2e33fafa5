package cli

import (
	"context"

	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/judge"
	"github.com/evalgate/evalgate/internal/rubric"
	"github.com/evalgate/evalgate/internal/rubrictests"
)

// RunRubricTests runs the config's rubric tests, before anything is scored or
// compared. A fixture the rubric no longer reproduces is an error (exit 2). Judge
// dimensions are answered from the judge's cache only: the scoring system is built again
// with every judge in replay mode, so a fixture never calls a paid judge.
func (l *Loaded) RunRubricTests(ctx context.Context, notice func(string)) error {
	cfg := l.Config
	if len(cfg.RubricCases) == 0 {
		return nil
	}
	sys := &cfg.Scoring
	if hasJudge(sys) {
		replay, err := config.Load(cfg.File, &rubric.Env{Judges: &rubric.Judges{Override: func(j *judge.Config) {
			j.Replay, j.NoCache = true, false
		}}})
		if err != nil {
			return err
		}
		sys = &replay.Scoring
	}
	suite := l.Suite
	if l.Shard.Count > 1 && cfg.Suite != "" {
		// A shard holds part of the suite; the rubric tests name items of all of it.
		var err error
		if suite, err = eval.LoadSuite(cfg.Path(cfg.Suite)); err != nil {
			return err
		}
	}
	notices, err := rubrictests.Run(ctx, sys, suite, cfg.RubricCases)
	if notice != nil {
		for _, n := range notices {
			notice(n)
		}
	}
	return err
}

func hasJudge(sys *rubric.System) bool {
	for _, d := range sys.Dimensions {
		if d.Scorer == "llm_judge" {
			return true
		}
	}
	return false
}
