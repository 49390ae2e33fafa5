package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/evalgate/evalgate/internal/calibration"
	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/judge"
	"github.com/evalgate/evalgate/internal/reliability"
	"github.com/evalgate/evalgate/internal/report"
	"github.com/evalgate/evalgate/internal/rubric"
)

// calibrate has the judges of sys score the config's calibration set (through their
// cache: an unchanged set is judged once) and measures their agreement with the
// people's labels. nil without a calibration set. sys nil: the config's scoring system
// built again with judges that may be asked.
func (c *CLI) calibrate(ctx context.Context, l *Loaded, sys *rubric.System, o *common) (*reliability.Calibration, error) {
	cfg := l.Config
	if cfg.Calibration == nil {
		return nil, nil
	}
	if sys == nil {
		asking, err := config.Load(cfg.File, c.judgeEnv(o))
		if err != nil {
			return nil, err
		}
		sys = &asking.Scoring
	}
	suite := l.Suite
	if (suite == nil || l.Shard.Count > 1) && cfg.Suite != "" {
		// A shard holds part of the suite; the calibration set names items of all of it.
		var err error
		if suite, err = eval.LoadSuite(cfg.Path(cfg.Suite)); err != nil {
			return nil, err
		}
	}
	m, err := calibration.Measure(ctx, sys, suite, cfg.Calibration)
	if err != nil {
		return nil, fmt.Errorf("calibration: %w", err)
	}
	return m, nil
}

// baselineCalibration measures the judges' agreement with people for the baseline. A
// judge in replay mode whose cache lacks a labelled output's verdict leaves it
// unmeasured, with a notice.
func (c *CLI) baselineCalibration(ctx context.Context, l *Loaded, o *common) (*reliability.Calibration, error) {
	m, err := c.calibrate(ctx, l, &l.Config.Scoring, o)
	if errors.Is(err, judge.ErrReplayMiss) {
		c.notice("judges' agreement with people not measured: " + err.Error())
		return nil, nil
	}
	return m, err
}

// printCalibration writes the agreement with people, with a confusion table per short
// scale: aligned text, or markdown (every cell escaped).
func printCalibration(w io.Writer, m *reliability.Calibration, markdown bool) {
	if m == nil {
		return
	}
	lines := report.CalibrationLines(m)
	for i, d := range m.Dimensions {
		if markdown {
			fmt.Fprintf(w, "- %s\n", report.Escape(lines[i]))
		} else {
			fmt.Fprintln(w, lines[i])
		}
		rows := report.ConfusionRows(d)
		if rows == nil {
			continue
		}
		if markdown {
			fmt.Fprintln(w)
			for r, row := range rows {
				cells := make([]string, len(row))
				for k, s := range row {
					cells[k] = report.Escape(s)
				}
				fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
				if r == 0 {
					fmt.Fprintf(w, "|%s\n", strings.Repeat(" --- |", len(row)))
				}
			}
			fmt.Fprintln(w)
			continue
		}
		// fmt pads by runes: the first column to its longest cell, the counts to theirs.
		first, width := 0, 0
		for _, row := range rows {
			first = max(first, len([]rune(row[0])))
			for _, s := range row[1:] {
				width = max(width, len([]rune(s)))
			}
		}
		for _, row := range rows {
			var b strings.Builder
			fmt.Fprintf(&b, "  %-*s", first, row[0])
			for _, s := range row[1:] {
				fmt.Fprintf(&b, "  %*s", width, s)
			}
			fmt.Fprintln(w, b.String())
		}
	}
}
