package gate

import (
	"math"
	"testing"
)

// The evidence statistic under a judge's noise: a 10-pt estimated drop whose evidence
// z is 4 (one-sided p = 3.17e-5) reads its own standard error as 0.10/4 = 0.025. A
// judge SE of 0.019 widens it to √(0.025² + 0.019²) = 0.031401, so z = 0.10/0.031401 =
// 3.1846 and p = 7.25e-4: still a block at α 0.05. (The interval, 9 to 11 pts, has a
// se of 0.0051; scaling z by it, 4 × 0.0051/√(0.0051² + 0.019²) = 1.04, read p = 0.15
// and turned the block inconclusive, however large the drop.)
func TestJudgeNoiseWidensTheEvidenceStatistic(t *testing.T) {
	p := 0.5 * math.Erfc(4/math.Sqrt2)
	d := RegressionDecision{Method: MethodEvidence, Value: 0.10, Threshold: 0.02, PValue: &p, Alpha: 0.05,
		Rejects: true, Exceeded: true, Outcome: Fail}
	d.Interval.Lo, d.Interval.Hi, d.Interval.Level = 0.09, 0.11, 0.95
	widen(&d, 0.019)
	want := 0.5 * math.Erfc(0.10/math.Sqrt(0.025*0.025+0.019*0.019)/math.Sqrt2)
	if math.Abs(*d.PValue-want) > 1e-12 || math.Abs(want-7.25e-4) > 5e-6 {
		t.Errorf("p = %.6g; want %.6g (≈ 7.25e-4)", *d.PValue, want)
	}
	if d.Outcome != Fail || !d.Rejects {
		t.Errorf("outcome %s, rejects %v; want a block", d.Outcome, d.Rejects)
	}
}
