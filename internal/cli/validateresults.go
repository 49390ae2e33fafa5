package cli

import (
	"fmt"
	"slices"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/safeio"
)

// validateResults reads the results files the way check does — evalgate JSONL streamed,
// other tools' files scored as they are decoded (directImported) — and checks every
// record: its fields, one result per item in each run, and an item the suite has (the
// first run's records make the suite when the config names none). Memory holds the
// items' ids and hashes, never the records (the items' fields too when rubric tests or a
// calibration read them). Standard input is read into memory. It returns the runs read.
func (l *Loaded) validateResults() (int, error) {
	if slices.Contains(l.Paths, safeio.Stdin) {
		if err := l.LoadRuns(); err != nil {
			return 0, err
		}
		for _, run := range l.Runs {
			if err := run.CheckAgainst(l.Suite); err != nil {
				return 0, err
			}
		}
		return len(l.Runs), nil
	}
	l.directImported()
	defer l.removeConverted()
	for attempt := 0; ; attempt++ {
		n, err := l.validateStreamed()
		again, rerr := l.reread(err)
		if rerr != nil {
			return 0, rerr
		}
		if !again || attempt > 2*len(l.direct) {
			return n, err
		}
	}
}

func (l *Loaded) validateStreamed() (int, error) {
	srcs := l.sources()
	building := l.Suite == nil
	suite := l.Suite
	if building {
		suite = eval.NewSuite(srcs[0].File)
	}
	keepItems := len(l.Config.RubricCases) > 0 || l.Config.Calibration != nil
	runs := 0
	for r := 0; r < len(srcs); r++ {
		src := srcs[r]
		build := building && r == 0
		seen := map[string]int{} // id → the line of its result in this run (0 inside a document)
		prep := func(res *eval.Result) any {
			if !build {
				return nil
			}
			it, err := eval.ItemFromResult(src.File, res)
			if err != nil {
				return err
			}
			return it
		}
		err := src.Each(prep, func(res *eval.Result, v any) error {
			if prev, dup := seen[res.ID]; dup {
				where := "earlier in the file"
				if prev > 0 {
					where = fmt.Sprintf("on line %d", prev)
				}
				return eval.Errorf(src.File, res.Line, res.ID, "duplicate result for the item; first %s", where)
			}
			seen[res.ID] = res.Line
			switch x := v.(type) {
			case error:
				return x
			case *eval.Item:
				if err := suite.AddItem(x); err != nil {
					return err
				}
				if !keepItems {
					suite.Release(x.Index)
				}
				return nil
			}
			if _, ok := suite.Item(res.ID); !ok {
				return eval.Errorf(src.File, res.Line, res.ID, "no such item in suite %s", suite.File)
			}
			return nil
		})
		if err != nil {
			return 0, err
		}
		if build {
			if suite.Len() == 0 {
				return 0, eval.Errorf(src.File, 0, "", "results file has no records")
			}
			suite.Finish()
			l.Suite, l.fromResults = suite, true
		}
		if src.Then != nil {
			srcs = slices.Insert(slices.Clip(srcs), r+1, src.Then()...)
		}
		runs++
	}
	return runs, nil
}
