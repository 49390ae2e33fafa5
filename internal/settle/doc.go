// Package settle turns an inconclusive regression verdict into pass or fail by
// re-running the items that carried the evidence (then more, if needed) and deciding
// again, until the verdict concludes or a budget is spent: extra item-runs, dollars, or
// wall-clock time, whichever comes first.
//
// Run is the whole procedure, pure over two interfaces: a Decider (score, compare and
// gate with every re-run so far, at a given level) and a Rerunner (run some items once
// more). The command line drives it with the real pipeline and the config's `run:` or
// `rerun:` block; a simulator can drive it with models of its own.
//
// Looking several times would raise the false-block rate if every look tested at the
// gate's 5 %. Run spends the level instead (Lan and DeMets' alpha spending, with the
// Pocock-type function α(t) = α·ln(1 + (e − 1)·t) over the information fraction t: the
// candidate's item-runs so far over those it would have with the whole budget spent).
// Look k tests at α(t_k) − α(t_{k−1}), look 0 at α(t_0), so by the union bound the
// chance of any false block over every look is at most α(1) = α, whatever the
// correlation between looks. A look stopped early by a limit leaves its share unspent.
package settle
