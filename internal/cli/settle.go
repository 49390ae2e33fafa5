package cli

import (
	"context"
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/ghaction"
	"github.com/evalgate/evalgate/internal/importer"
	"github.com/evalgate/evalgate/internal/pricing"
	"github.com/evalgate/evalgate/internal/report"
	"github.com/evalgate/evalgate/internal/runner"
	"github.com/evalgate/evalgate/internal/safeio"
	"github.com/evalgate/evalgate/internal/settle"
)

// settleOptions are check's settle flags over the config's `settle:` block.
type settleOptions struct {
	Budget     int
	Timeout    time.Duration
	MaxCostUSD float64
	// Dir receives the re-runs' results files (default: a new temporary folder, kept,
	// so the report's reproduce command can name them).
	Dir string
	// Now is the clock the timeout reads (tests inject one).
	Now func() time.Time
}

// checkSettled is check with settle: it decides at the first look's level and, while
// the verdict is inconclusive (or an unsure pass), re-runs items through the config's `rerun:` or `run:`
// block and decides again (internal/settle), within the limits. The report is the last
// look's, with the rounds.
func (c *CLI) checkSettled(ctx context.Context, opts CheckOptions, so settleOptions) (*report.Report, error) {
	l, err := Load(opts)
	if err != nil {
		return nil, err
	}
	cfg := l.Config
	if cfg.Settle != nil {
		if so.Budget == 0 {
			so.Budget = cfg.Settle.Budget
		}
		if so.Timeout == 0 {
			so.Timeout = cfg.Settle.Timeout
		}
		if so.MaxCostUSD == 0 {
			so.MaxCostUSD = cfg.Settle.MaxCostUSD
		}
	}
	rr, err := newRerunner(c, l, opts, so)
	if err != nil {
		return nil, err
	}
	if opts.Results, err = spoolStdin(opts.Results, opts.Stdin, rr.dir); err != nil {
		return nil, err
	}
	frozen, err := freezeResults(opts.Results, cfg)
	if err != nil {
		return nil, err
	}
	d := &settleDecider{opts: opts, rr: rr, frozen: frozen}
	defer d.close()
	// A look at the gate's own level first: it measures the suite and its runs, which
	// the first settle look's level depends on. A regression that passes there passes at
	// any level (pass does not read the test); anything else is decided again, at the
	// level alpha spending gives the first look, so that over every look the chance of a
	// false block stays at gate.Alpha.
	first, err := d.check(ctx, gate.Alpha)
	if err != nil {
		return nil, err
	}
	if first.Regression == nil || first.Regression.Outcome == gate.Pass && !first.Regression.Unsure {
		return d.take(), nil // nothing to settle: the check as it is
	}
	res, err := settle.Run(ctx, d, rr, settle.Options{
		Items: d.items, ItemRuns: d.itemRuns, Budget: so.Budget, MaxCostUSD: so.MaxCostUSD,
		Timeout: so.Timeout, Now: so.Now, // the rounds' limit: the looks are never cut by it
	})
	if err != nil {
		return nil, err
	}
	if rr.pinned {
		res.Elapsed = 0 // the report is pinned: no wall-clock time in it
	}
	r := d.take()
	r.SetSettle(&res)
	if g := r.Regression; g != nil && g.Outcome == gate.Inconclusive {
		switch res.Stop {
		case settle.BudgetSpent:
			// The budget is spent: the next step is settling on, from the re-runs kept,
			// with a larger budget (twice this one), not re-running the evidence by hand.
			g.RerunCommand = r.Command + " --settle " + shellFlag("--settle-budget", strconv.Itoa(2*res.Budget))
		case settle.Unsettleable:
			// Settle cannot conclude it as the config and items stand (a tool that cannot
			// select an item, a judge under the reliability floor): the same command would
			// stop the same way, so the report does not offer it again.
			g.RerunCommand, g.RerunHint = "", unsettleableHint
		}
	}
	return r, nil
}

// unsettleableHint is what the report says to do once settle has stopped as "cannot
// settle" (after "To settle it, ").
const unsettleableHint = "first fix what stopped settle (the settle note says what): settling again as things stand stops the same way; then check again with `--settle`"

// spoolStdin saves standard input, when results names it (--results -), to stdin.jsonl
// in the settle folder and names that file instead: every look reads the results
// again, and standard input reads once (the second look found it empty, exit 2). The
// report's commands then name a file that is still there.
func spoolStdin(results []string, stdin io.Reader, dir string) ([]string, error) {
	i := slices.Index(results, safeio.Stdin)
	if i < 0 || stdin == nil {
		return results, nil
	}
	p := filepath.Join(dir, "stdin.jsonl")
	in := safeio.Capped(stdin, stdinName, safeio.MaxFileBytes)
	if err := safeio.WriteFileFunc(p, func(w io.Writer) error { _, err := io.Copy(w, in); return err }); err != nil {
		return nil, err
	}
	out := slices.Clone(results)
	out[i] = p
	return out, nil
}

// settleDecider is settle's Decider over the real pipeline: each look checks again
// with every re-run file so far, at the look's level.
type settleDecider struct {
	opts     CheckOptions
	rr       *rerunner
	frozen   *frozenResults
	last     *report.Report
	items    []string
	itemRuns int
}

func (d *settleDecider) check(ctx context.Context, level float64) (*report.Report, error) {
	d.opts.Results = d.frozen.of(d.opts.Results)
	opts := d.opts
	opts.Reruns = append(append([]string(nil), opts.Reruns...), d.rr.files...)
	opts.Level = level
	l, err := Load(opts)
	if err != nil {
		return nil, err
	}
	r, err := l.Check(ctx, opts)
	if err != nil {
		return nil, err
	}
	d.close()
	d.last = r
	d.rr.suiteAgain = l.suiteAgain
	d.rr.sources, d.rr.importOpts = l.Paths[:l.full], l.importOpts
	if d.items == nil {
		for i := range l.Index.Len() {
			d.items = append(d.items, l.Index.ID(i))
		}
		d.itemRuns = len(d.items) * max(1, fullRuns(r))
	}
	return r, nil
}

// Look implements settle.Decider.
func (d *settleDecider) Look(ctx context.Context, level float64) (settle.Look, error) {
	r, err := d.check(ctx, level)
	if err != nil {
		return settle.Look{}, err
	}
	return lookOf(r), nil
}

// take hands the last report over (the decider no longer closes it).
func (d *settleDecider) take() *report.Report {
	r := d.last
	d.last = nil
	return r
}

func (d *settleDecider) close() {
	if d.last != nil {
		d.last.Close()
		d.last = nil
	}
}

// fullRuns counts the report's full runs (re-runs of some items excluded).
func fullRuns(r *report.Report) int {
	if r.Scored == nil {
		return len(r.Runs)
	}
	n := 0
	for _, run := range r.Scored.Runs {
		if !run.Partial {
			n++
		}
	}
	return n
}

// lookOf reads a look from a report: the verdict's outcome (a fail of another gate
// is as decided as a regression's), the regression's figure and evidence, the cost.
func lookOf(r *report.Report) settle.Look {
	lk := settle.Look{Outcome: gate.Pass}
	switch r.Verdict.Status {
	case gate.Fail:
		lk.Outcome = gate.Fail
	case gate.Inconclusive:
		lk.Outcome = gate.Inconclusive
	}
	if d := r.Regression; d != nil {
		lk.Figure = d.DecidedBy
		if i := strings.Index(lk.Figure, " ("); i > 0 {
			lk.Figure = strings.TrimPrefix(lk.Figure[:i], "decided by ")
		}
		if d.PValue != nil {
			lk.Figure += ", " + gate.FormatPValue(*d.PValue, d.Alpha, d.Rejects)
		}
		seen := map[string]bool{}
		// A fail stands on thin runs when every failed decision is Unreplicated.
		unreplicated, replicated := false, false
		for _, dd := range append([]gate.RegressionDecision{*d}, d.Dimensions...) {
			if dd.Outcome == gate.Fail {
				unreplicated = unreplicated || dd.Unreplicated
				replicated = replicated || !dd.Unreplicated
			}
			if dd.Outcome != gate.Inconclusive && dd.Gate != d.Gate && !dd.Unreplicated {
				continue
			}
			ids, flipped := settle.RerunEvidence(dd.Evidence)
			lk.Flipped = max(lk.Flipped, flipped)
			for _, id := range ids {
				if !seen[id] {
					seen[id] = true
					lk.Evidence = append(lk.Evidence, id)
				}
			}
		}
		if unreplicated && !replicated && r.Verdict.Status == gate.Fail && r.Verdict.OnlyRegressionFails() {
			lk.Confirm = true
		}
		if d.Unsure && r.Verdict.Status == gate.Pass {
			ids, flipped := settle.RerunEvidence(d.Recheck)
			lk.Confirm, lk.Evidence, lk.Flipped = true, append(lk.Evidence, ids...), max(lk.Flipped, flipped)
		}
		if d.Judge != nil && d.Judge.Reason != "" && d.Outcome == gate.Inconclusive {
			lk.Unsettleable = d.Judge.Reason
		}
	}
	lk.Noisy = settle.NoisyItems(r.Comparison)
	if d := r.Regression; d != nil {
		lk.SizeUnsure, lk.Significant = !d.Exceeded, d.Rejects
	}
	if r.Cost != nil {
		lk.TotalUSD = r.Cost.TotalUSD
	}
	return lk
}

// rerunner is settle's Rerunner: the config's `rerun:` template, else its `run:` block.
type rerunner struct {
	c      *CLI
	dir    string
	tmpl   settle.Command
	tool   importer.Format
	run    *runner.Config
	getenv func(string) string
	cfgDir string
	prices *pricing.Table
	// suiteAgain reads the suite's items again (Loaded.suiteAgain): the check's scoring
	// released them, and `run:` runs them with their fields.
	suiteAgain func() (*eval.Suite, error)
	// sources are the full runs' results files and importOpts how they are read: where
	// a promptfoo test's description is found.
	sources    []string
	importOpts importer.Options
	files      []string
	out        func(string)
	// pinned: the report is pinned (SOURCE_DATE_EPOCH, --run-id), so the re-runs record
	// no latency and the result no elapsed time.
	pinned bool
}

func newRerunner(c *CLI, l *Loaded, opts CheckOptions, so settleOptions) (*rerunner, error) {
	cfg := l.Config
	rr := &rerunner{c: c, tmpl: cfg.Rerun, tool: l.format, run: cfg.Run, getenv: c.Getenv, cfgDir: cfg.Dir, prices: cfg.Prices,
		pinned: c.pinned(opts.RunID)}
	switch {
	case l.way != rerunByNone: // rr.tmpl when set, else rr.run
	case cfg.Run != nil:
		return nil, eval.Errorf(cfg.File, 0, "", "--settle: the results are %s's, and `run:` writes evalgate's own; add a `rerun:` command that re-runs items with %s (docs/settle.md)", l.format, l.format)
	default:
		return nil, eval.Errorf(cfg.File, 0, "", "--settle needs a way to re-run items: a `run:` block (evalgate run) or a `rerun:` command for the tool that made the results (docs/settle.md)")
	}
	rr.dir = so.Dir
	if rr.dir != "" {
		if err := os.MkdirAll(rr.dir, 0o755); err != nil {
			return nil, err
		}
	} else if rr.pinned {
		// A pinned report (SOURCE_DATE_EPOCH, --run-id) names its re-runs' files, so the
		// folder is named by the inputs, not at random: the same check writes the same
		// report. It is emptied first, so no earlier check's files mix in.
		rr.dir = pinnedSettleDir(opts.CheckPlan, c.Getenv(sourceDateEpoch))
		if err := os.RemoveAll(rr.dir); err != nil {
			return nil, err
		}
		if err := os.MkdirAll(rr.dir, 0o755); err != nil {
			return nil, err
		}
	} else {
		var err error
		if rr.dir, err = os.MkdirTemp("", "evalgate-settle-"); err != nil {
			return nil, err
		}
	}
	return rr, nil
}

// pinnedSettleDir is a pinned check's default folder for its re-runs: .evalgate/settle
// in the working folder, named by a hash of what the check reads (the config, the
// results, the baseline, the pin), as typed. It is relative, so the report that names
// it is the same in every checkout and under any temporary folder, and two checkouts
// never share it. Before, it was in the temporary folder under a hash of the working
// folder too, so two checkouts wrote different reports.
func pinnedSettleDir(p CheckPlan, epoch string) string {
	h := sha256.New()
	for _, s := range append([]string{p.Config, p.Baseline, p.RunID, strings.TrimSpace(epoch)}, append(p.Results, p.Reruns...)...) {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return filepath.Join(".evalgate", "settle", fmt.Sprintf("pinned-%x", h.Sum(nil)[:8]))
}

// Rerun implements settle.Rerunner.
func (rr *rerunner) Rerun(ctx context.Context, round int, ids []string, maxUSD float64) error {
	if rr.tmpl != nil {
		return rr.rerunTool(ctx, round, ids)
	}
	return rr.rerunRun(ctx, round, ids, maxUSD)
}

// rerunRun runs the items through the `run:` block into rerunN.jsonl.
func (rr *rerunner) rerunRun(ctx context.Context, round int, ids []string, maxUSD float64) error {
	sys, err := rr.run.System(rr.getenv)
	if err != nil {
		return err
	}
	if rr.suiteAgain == nil {
		return errors.New("rerun: no check has run yet to re-run items of")
	}
	suite, err := rr.suiteAgain()
	if err != nil {
		return err
	}
	items := make([]runner.Item, 0, len(ids))
	for _, id := range ids {
		it, ok := suite.Item(id)
		if !ok {
			return fmt.Errorf("item %q is not in the suite", id)
		}
		items = append(items, runner.Item{ID: it.ID, Fields: it.Fields})
	}
	var ro runner.Options
	ro.Concurrency = rr.run.Concurrency
	ro.Untimed = rr.pinned
	if oa, ok := sys.(*runner.OpenAI); ok && maxUSD > 0 {
		if price, _, ok := rr.prices.Lookup(oa.Model()); ok {
			if ro.Budget, err = pricing.NewBudget(maxUSD); err != nil {
				return err
			}
			ro.Price = price
		}
	}
	path := filepath.Join(rr.dir, fmt.Sprintf("rerun%d.jsonl", round))
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	sum, err := runner.Run(ctx, sys, items, f, ro)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if ran := len(items) - sum.NotRun; sum.BudgetCut {
		// The cap refused an item's worst case: the items before it ran and are kept;
		// a round that ran none leaves no file (an empty results file is bad input).
		if ran == 0 {
			return errors.Join(&settle.CostCut{}, os.Remove(path))
		}
		rr.files = append(rr.files, path)
		return &settle.CostCut{Ran: ran}
	}
	rr.files = append(rr.files, path)
	return nil
}

// rerunTool runs the `rerun:` command with the items' selectors in the tool's terms,
// directly (no shell), from the config's folder, and reads what it wrote to {out}.
func (rr *rerunner) rerunTool(ctx context.Context, round int, ids []string) error {
	sel, err := selectors(rr.tool, rr.descriptions(), ids)
	if err != nil {
		return err
	}
	out := filepath.Join(rr.dir, fmt.Sprintf("rerun%d", round))
	if rr.tool == importer.Promptfoo {
		out += ".json"
	}
	// The tool runs from the config's folder: {out} names the file from there too, as
	// an absolute path (the report keeps the folder as given).
	toolOut, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	args, err := settle.Expand(rr.tmpl, string(rr.tool), sel, toolOut)
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Dir = rr.cfgDir
	runner.Contain(cmd) // --settle-timeout stops the tool's children too
	var tail tailBuffer
	cmd.Stdout, cmd.Stderr = &tail, &tail
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		// promptfoo exits 100 when some test failed: a result, which evalgate decides on.
		var ee *exec.ExitError
		if !(rr.tool == importer.Promptfoo && errors.As(err, &ee) && ee.ExitCode() == 100) {
			return fmt.Errorf("rerun: %s: %v\n%s", shellJoin(args), err, tail.String())
		}
	}
	path, err := rerunOutput(out)
	if err != nil {
		return fmt.Errorf("rerun: %s: %w", shellJoin(args), err)
	}
	rr.files = append(rr.files, path)
	return nil
}

// selectors are the items' selectors in the tool's own terms: a promptfoo test's
// description, an Inspect sample id, an lm-eval task:doc_id (evalgate's id for both).
// descs gives a promptfoo test's description and, for a test without one, where it is
// (testHint).
func selectors(tool importer.Format, descs func(id string) (desc, hint string), ids []string) ([]string, error) {
	out := make([]string, 0, len(ids))
	var blind []string
	for _, id := range ids {
		if tool != importer.Promptfoo {
			out = append(out, id)
			continue
		}
		desc, hint := descs(id)
		if desc == "" {
			if hint != "" {
				id = fmt.Sprintf("%q (%s)", id, hint)
			} else {
				id = fmt.Sprintf("%q", id)
			}
			// Untrusted text (the test's vars) goes into the report: no backtick may
			// open a code span there.
			blind = append(blind, strings.ReplaceAll(id, "`", `\x60`))
			continue
		}
		out = append(out, desc)
	}
	if len(blind) > 0 {
		return nil, &settle.CannotRerun{Why: fmt.Sprintf("promptfoo cannot select %s: its --filter-pattern matches test descriptions, and these tests have none. Give every test in promptfooconfig.yaml a unique `description:`", strings.Join(blind, ", "))}
	}
	return out, nil
}

// descriptions gives a promptfoo item's test description, from the results files
// themselves, read once, record by record; for a test without one, where its first
// record is and its vars (testHint), so the error can say which test it is.
func (rr *rerunner) descriptions() func(id string) (desc, hint string) {
	var byID, hints map[string]string
	return func(id string) (string, string) {
		if byID == nil {
			byID, hints = map[string]string{}, map[string]string{}
			for _, path := range rr.sources {
				importer.Read(path, rr.importOpts, func(rec importer.Record) error {
					rid, _ := rec.Fields["id"].(string)
					if d, _ := rec.Fields["description"].(string); rid != "" && d != "" {
						byID[rid] = d
					} else if _, seen := hints[rid]; rid != "" && !seen {
						hints[rid] = testHint(path, rec)
					}
					return nil
				})
			}
		}
		return byID[id], hints[id]
	}
}

// rerunOutput is the results file a tool wrote at out: out itself, or, when the tool
// wrote a folder (Inspect's --log-dir, lm-eval's --output_path), the one results file
// in it.
func rerunOutput(out string) (string, error) { return rerunOutputWithin(out, maxRerunEntries) }

// maxRerunEntries bounds the entries rerunOutput walks in a tool's output folder.
const maxRerunEntries = 100_000

// rerunOutputWithin is rerunOutput walking at most limit entries of the folder.
func rerunOutputWithin(out string, limit int) (string, error) {
	st, err := os.Stat(out)
	if err != nil {
		return "", fmt.Errorf("wrote no results at %s", out)
	}
	if !st.IsDir() {
		return out, nil
	}
	var found []string
	seen := 0
	err = filepath.WalkDir(out, func(p string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if seen++; seen > limit {
			return fmt.Errorf("more than %d entries in %s: a re-run writes one results file there", limit, out)
		}
		n := e.Name()
		if !e.IsDir() && (strings.HasSuffix(n, ".eval") || strings.HasSuffix(n, ".json") && !strings.HasPrefix(n, "results_") || strings.HasPrefix(n, "samples_") && strings.HasSuffix(n, ".jsonl")) {
			found = append(found, p)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	sort.Strings(found)
	if len(found) != 1 {
		return "", fmt.Errorf("want one results file in %s, found %d", out, len(found))
	}
	return found[0], nil
}

// tailBuffer keeps the last 4 KiB written: a failed tool's last words.
type tailBuffer struct{ b []byte }

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > 4096 {
		t.b = t.b[len(t.b)-4096:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string { return string(t.b) }

// settleFlags are check's settle flags.
type settleFlags struct {
	On         bool
	Budget     int
	Timeout    time.Duration
	MaxCostUSD float64
	Dir        string
	// budgetSet says --settle-budget was given (an explicit 0 is refused, not read as
	// the default).
	budgetSet bool
}

func (f *settleFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&f.On, "settle", false, "when the verdict is inconclusive (or a pass is unsure: its items lean toward a drop its interval cannot rule out; or a block rests on one look at so few runs that a run bad as a whole could be its cause), re-run the items that carried it (the config's rerun: command, else its run: block) and decide again, until pass or fail or a limit (docs/settle.md)")
	fs.Func("settle-budget", fmt.Sprintf("`N` extra item-runs settle may make (default: the config's settle.budget, else 20%% of the suite, rounded up, and at least %d)", settle.MinDefaultBudget), func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("%q is not a whole number of item-runs", v)
		}
		f.Budget, f.budgetSet = n, true
		return nil
	})
	fs.DurationVar(&f.Timeout, "settle-timeout", 0, "wall-clock `limit` of the re-runs, e.g. 10m: its clock starts after the first look, which scoring the results is never cut by (default: the config's settle.timeout, else none)")
	floatVar(fs, &f.MaxCostUSD, "settle-max-cost-usd", 0, "US `dollars` the re-runs may cost (default: the config's settle.max_cost_usd, else no cap)")
	fs.StringVar(&f.Dir, "settle-dir", "", "`folder` for the re-runs' results files (default: a new temporary folder, kept; with SOURCE_DATE_EPOCH or --run-id one named by the inputs, so the report is the same)")
}

// check refuses settle flags that cannot hold.
func (f *settleFlags) check(sh eval.Shard) error {
	switch {
	case !f.On && (f.budgetSet || f.Timeout != 0 || f.MaxCostUSD != 0 || f.Dir != ""):
		return fmt.Errorf("--settle-budget, --settle-timeout, --settle-max-cost-usd and --settle-dir limit --settle: add --settle")
	case f.budgetSet && f.Budget <= 0:
		return fmt.Errorf("--settle-budget is %d; want at least 1 extra item-run (leave the flag out for the default: 20%% of the suite, rounded up, and at least %d)", f.Budget, settle.MinDefaultBudget)
	case f.Timeout < 0:
		return fmt.Errorf("--settle-timeout is %s; want a positive duration", f.Timeout)
	case !pricing.ValidCap(f.MaxCostUSD):
		return fmt.Errorf("--settle-max-cost-usd is %v; want a positive amount of US dollars", f.MaxCostUSD)
	case f.On && sh.Count > 1:
		return fmt.Errorf("--settle decides on the whole suite: drop --shard (settle after `evalgate merge` with the whole suite's results)")
	}
	return nil
}

// limits are the settle limits given as flags, as they would be typed again (with a
// leading space; "" for none), so a command that settles elsewhere keeps them.
func (f *settleFlags) limits() string {
	var b strings.Builder
	if f.budgetSet {
		b.WriteString(" " + shellFlag("--settle-budget", strconv.Itoa(f.Budget)))
	}
	if f.Timeout != 0 {
		b.WriteString(" " + shellFlag("--settle-timeout", f.Timeout.String()))
	}
	if f.MaxCostUSD != 0 {
		b.WriteString(" " + shellFlag("--settle-max-cost-usd", strconv.FormatFloat(f.MaxCostUSD, 'f', -1, 64)))
	}
	return b.String()
}

// cannotRerun says the report found that the config cannot re-run the items that
// carried its verdict (no `rerun:` command, no `run:` block for evalgate's results):
// it says what to add instead of a command, and `--settle` would refuse.
func cannotRerun(r *report.Report) bool {
	g := r.Regression
	return g != nil && g.RerunCommand == "" && g.RerunHint != ""
}

// eventName is the variable that names the event that started a GitHub workflow.
const eventName = "GITHUB_EVENT_NAME"

// privilegedWorkflow says whether evalgate runs in a privileged GitHub workflow
// (workflow_run or pull_request_target: the base repository's secrets and a write
// token, whatever the pull request's origin), as the action reads it.
func (c *CLI) privilegedWorkflow() bool {
	return ghaction.Event{Name: strings.TrimSpace(c.Getenv(eventName))}.Privileged()
}

func (f *settleFlags) options(c *CLI) settleOptions {
	return settleOptions{Budget: f.Budget, Timeout: f.Timeout, MaxCostUSD: f.MaxCostUSD, Dir: f.Dir, Now: c.Now}
}

// shellJoin is args as a command a shell would read back as them (for messages).
func shellJoin(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = shellQuote(a)
	}
	return strings.Join(q, " ")
}

// wantsSettle says whether settle has work on r, as check --settle would do it: an
// inconclusive verdict, a pass in doubt (its items lean toward a drop its interval
// cannot rule out) or a block that stands on one look over thin runs (lookOf's
// Confirm). The action settled only the first, so a pass in doubt stood unchecked and
// a thin-run block was never confirmed there, though its settle input says it does both.
func wantsSettle(r *report.Report) bool {
	return r.Verdict.Status == gate.Inconclusive || lookOf(r).Confirm
}

// settleInAction settles a verdict in the action (wantsSettle: the settle input is
// auto and the config can re-run items). In a privileged workflow nothing a pull
// request could have written runs: the report gives the command for the unprivileged
// job instead.
func (c *CLI) settleInAction(ctx context.Context, in ghaction.CheckInput, g *gateRun, opts CheckOptions, r *report.Report) (*report.Report, error) {
	if in.Privileged {
		r.AddWarning(report.NoticeNote, privilegedSettleNotice(settleHere(opts.shown(), g.l)))
		return r, nil
	}
	r.Close()
	return c.checkSettled(ctx, opts, settleOptions{Now: c.Now})
}

// privilegedSettleNotice says why settle did not run here and what to run where it can
// (settle, the command that settles).
func privilegedSettleNotice(settle string) string {
	return "settle did not run: this workflow is privileged (workflow_run or pull_request_target) and never runs a command a pull request could have written. " +
		"Settle in the unprivileged job that runs the pull request's code: `" + settle + "`"
}
