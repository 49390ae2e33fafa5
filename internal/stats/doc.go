// Package stats holds the measurements behind evalgate's regression gate: means and
// sample standard deviations, percentiles, a paired bootstrap confidence interval, a
// paired sign-flip permutation test, the plain drop (MeasureDrop) and the item-by-item
// evidence of a drop (EvidenceAccumulator, MeasureEvidence). It measures; package gate
// decides.
//
// Everything here is pure: no I/O, no evalgate imports, and every random procedure
// draws from a PCG generator with a fixed seed (42, 42 unless told otherwise), so the
// same input always gives the same output, on every machine and every rerun.
//
// Paired data are per-item differences, candidate − baseline, in points of the 0–1
// score: a negative difference means the candidate got worse on that item.
//
// docs/gate-trust.md reports the simulation of the gate built on this package: how
// often each decision method blocks when nothing changed and when the mean truly
// dropped.
package stats
