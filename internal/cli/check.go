package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/report"
	"github.com/evalgate/evalgate/internal/safeio"
)

func (c *CLI) check(args []string) int {
	return c.checkOrScore("check", args, false)
}

func (c *CLI) score(args []string) int {
	return c.checkOrScore("score", args, true)
}

func (c *CLI) checkOrScore(name string, args []string, scoreOnly bool) int {
	var o common
	baselineUsage, reportUsage := " [--baseline FILE]", "gate on a merged report `file` (written by evalgate merge --format json --out FILE) instead of scoring results"
	about := "Scores the results with the config's rubric, compares them with the baseline, decides the\ngates and prints the report; exit 1 when a hard gate or the regression gate fails\n(evalgate --help lists every exit code)."
	if scoreOnly { // score takes no baseline (o.register leaves --baseline out)
		about = "Scores the results with the config's rubric and prints the breakdown and the gates, with\nno baseline; exit 0 on good input, whatever the gates say."
		baselineUsage, reportUsage = "", "print the breakdown of a merged report `file` (written by evalgate merge --format json --out FILE) instead of scoring results"
	}
	fs := newFlagSet(name, name+" [--config evalgate.yaml] [--results run.jsonl ...]"+baselineUsage+" [--format "+report.FormatChoices(report.Formats)+"] [--out FILE] [RESULTS...]\n\n"+about+"\nResults files may also be given as arguments, each as one --results.", c.Stderr)
	o.register(fs, !scoreOnly)
	codeVersion := fs.String("code-version", "", "git SHA recorded as code_version (default: $GITHUB_SHA or git rev-parse HEAD)")
	shard := fs.String("shard", "", "score only part `i/n` of the suite (1-based; items split by a hash of their id), for a CI matrix; not gated (exit 0 but on bad input): join the parts' JSON reports with evalgate merge, which gates")
	reportIn := fs.String("report", "", reportUsage)
	var maxMem memoryFlag
	fs.Var(&maxMem, "max-memory", "`size` of memory the scoring may hold (e.g. 512MiB, 4GiB; default 1GiB); a suite that needs more stops with an error")
	runID := fs.String("run-id", "", "record this `id` as the report's run_id (else a hash of the inputs and the time); with SOURCE_DATE_EPOCH unset it also pins the time to 1970-01-01, for byte-identical reports")
	var rerun multiFlag
	fs.Var(&rerun, "rerun", "results `file` of a re-run of some items (evalgate run --only), repeatable: adds a run to those items only")
	var st settleFlags
	if !scoreOnly {
		st.register(fs)
	}
	files, code, ok := parseWithFiles(fs, args, true)
	if !ok {
		return code
	}
	o.Results = append(o.Results, files...)
	if err := checkFormat(o.Format); err != nil {
		fmt.Fprintf(c.Stderr, "evalgate: %v\n", err)
		return ExitBadInput
	}
	var sh eval.Shard
	if *shard != "" {
		var err error
		if sh, err = eval.ParseShard(*shard); err != nil {
			fmt.Fprintf(c.Stderr, "evalgate: --shard: %v\n", err)
			return ExitBadInput
		}
	}
	if *reportIn != "" {
		switch {
		case len(o.Results) > 0 || sh.Count > 0:
			fmt.Fprintf(c.Stderr, "evalgate: --report gates on a report already scored: drop --results and --shard\n")
			return ExitBadInput
		case len(rerun) > 0 || st.On || st.budgetSet || st.Timeout != 0 || st.MaxCostUSD != 0 || st.Dir != "":
			// A saved report holds scores, not results files: there is nothing to add a
			// re-run to, and nothing settle could re-run items of and score again.
			fmt.Fprintf(c.Stderr, "evalgate: --report re-renders a report already scored, which --rerun and --settle cannot add runs to: drop them, or check the results files with --results (and --rerun or --settle)\n")
			return ExitBadInput
		}
		return c.gateReports(o, []string{*reportIn}, scoreOnly, reportPin{RunID: *runID, CodeVersion: *codeVersion})
	}
	imp, err := o.Import.options(c.Stderr)
	if err != nil {
		fmt.Fprintf(c.Stderr, "evalgate: %v\n", err)
		return ExitBadInput
	}
	now, err := c.reportTime(*runID)
	if err != nil {
		fmt.Fprintf(c.Stderr, "evalgate: %v\n", err)
		return ExitBadInput
	}
	cv := *codeVersion
	if cv == "" {
		cv = c.codeVersion()
	}
	copts := CheckOptions{
		CheckPlan: CheckPlan{
			Config:      o.Config,
			Results:     o.Results,
			Reruns:      rerun,
			Baseline:    o.Baseline,
			NoBaseline:  scoreOnly,
			RunID:       *runID,
			CodeVersion: cv,
			Import:      imp,
			Shard:       sh,
			JSONOnly:    o.Format == report.FormatJSON,
		},
		CheckEnv: CheckEnv{
			Now:       now,
			Env:       c.judgeEnv(&o),
			Stdin:     c.Stdin,
			Notice:    c.notice,
			MaxMemory: limitMemory(maxMem),
			Progress:  c.meter(o.Quiet, "scoring", "records", "building the report"),
		},
	}
	if err := st.check(sh); err != nil {
		fmt.Fprintf(c.Stderr, "evalgate: %v\n", err)
		return ExitBadInput
	}
	var r *report.Report
	switch {
	case st.On && c.privilegedWorkflow():
		// As the action: a privileged workflow never runs a command a pull request could
		// have written, and settle runs the config's. The report gives the command for
		// the unprivileged job instead.
		fmt.Fprintf(c.Stderr, "evalgate: --settle: not settling: GITHUB_EVENT_NAME is %s, a privileged workflow; the report says where to settle\n", strings.TrimSpace(c.Getenv(eventName)))
		if r, err = Check(context.Background(), copts); err == nil && wantsSettle(r) && !cannotRerun(r) {
			r.AddWarning(report.NoticeNote, privilegedSettleNotice(r.Command+" --settle"+st.limits()))
		}
	case st.On:
		r, err = c.checkSettled(context.Background(), copts, st.options(c))
	default:
		r, err = Check(context.Background(), copts)
	}
	if err != nil {
		return c.fail(err)
	}
	defer r.Close()
	if err := c.emit(r, o.Format, o.Out); err != nil {
		return c.fail(err)
	}
	if scoreOnly || sh.Count > 1 {
		// A shard alone does not decide (merge gates the whole suite): a matrix job
		// that failed on its part would keep the merge from running.
		return ExitPass
	}
	return r.Verdict.ExitCode()
}

// emit renders the report to stdout (no --out, or --out -), or to a file through
// safeio.WriteFile: atomic for a regular file, through a device or FIFO, refused for a
// directory or socket.
func (c *CLI) emit(r *report.Report, format, out string) error {
	if (out == "" || out == safeio.Stdin) && format == report.FormatTable {
		return r.WriteTerminal(c.Stdout, c.terminal(c.Stdout))
	}
	if out == "" || out == safeio.Stdin {
		return report.Render(c.Stdout, r, format)
	}
	save := saveReport(r, format, out)
	if format == report.FormatTable {
		save = c.saveTable(r, out)
	}
	if save != nil {
		return save
	}
	// The verdict where the user looks, without opening the file: the headline, the
	// score line and the warnings, then where the report went.
	if err := r.WriteBrief(c.Stderr, c.terminal(c.Stderr)); err != nil {
		return err
	}
	if sh := r.Shard(); sh != "" {
		fmt.Fprintf(c.Stderr, "%s shard %s, not gated: wrote %s\n", r.Suite, sh, out)
		return nil
	}
	fmt.Fprintf(c.Stderr, "%s %s: wrote %s\n", r.Verdict.Status, r.Suite, out)
	return nil
}

// saveReport renders the report and writes it with safeio.WriteFileFunc: atomic over a
// regular file (a reader never sees half), through a device or FIFO. The report is
// streamed to the file, never held whole in memory.
func saveReport(r *report.Report, format, path string) error {
	return safeio.WriteFileFunc(path, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<16)
		if err := report.Render(bw, r, format); err != nil {
			return err
		}
		return bw.Flush()
	})
}

// saveTable writes the table report to a file as stdout shows it when it is not a
// terminal: lines whole (or $COLUMNS wide), so a command it prints (the settle hint,
// the reproduce line) is on one line and pastes; wrapped at 80 columns, a copied
// command broke at the wrap and its first line ran alone.
func (c *CLI) saveTable(r *report.Report, path string) error {
	t := terminalFor(c.Getenv, false, 0)
	return safeio.WriteFileFunc(path, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<16)
		if err := r.WriteTerminal(bw, t); err != nil {
			return err
		}
		return bw.Flush()
	})
}

// notice prints a line that does not change the exit code.
func (c *CLI) notice(s string) { fmt.Fprintf(c.Stderr, "notice: %s\n", s) }
