package gate_test

// Seed 004 (FlowMCP Grading-Spec, gradingSystem/1.0.0): the weighted mean of per-answer
// values on 1.0–5.0 (pass = 5.0, fail = 1.0, n/a and stale excluded; all excluded →
// pending) is banded ≥ 4.5 A, ≥ 3.5 B, ≥ 2.5 C, ≥ 1.5 D, else F; the band is trimmed to
// the tier maximum (autonomous → B, group-bound → A) keeping rawGrade; a categorical
// veto overrides everything with REJECTED.

import (
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/gate"
)

// grades validates a grades block the way the config loader does (filling seed 004's
// default bands and tier trim) and returns it.
func grades(t *testing.T, g *gate.Grades) *gate.Grades {
	t.Helper()
	s := &gate.System{Version: "gradingSystem/1.0.0", Grades: g}
	if err := s.Validate("$.grading", func(string) bool { return true }, nil, []string{"imports_scan"}); err != nil {
		t.Fatal(err)
	}
	return s.Grades
}

func TestSeed004Bands(t *testing.T) {
	g := grades(t, &gate.Grades{})
	cases := []struct {
		mean float64
		want string
	}{
		{5.0, "A"},
		{4.5, "A"},  // ≥ 4.5
		{4.49, "B"}, // just below
		{3.5, "B"},
		{3.49, "C"},
		{2.5, "C"},
		{2.49, "D"},
		{1.5, "D"},  // ≥ 1.5
		{1.49, "F"}, // < 1.5
		{1.0, "F"},  // every answer failed
	}
	for _, c := range cases {
		res := g.Band(c.mean, true, "")
		if res.Grade != c.want || res.RawGrade != c.want {
			t.Errorf("mean %v: grade %q (raw %q); want %q", c.mean, res.Grade, res.RawGrade, c.want)
		}
	}
	// A mean computed as 4.4999999999 in floating point is 4.5 to a reader: A.
	if res := g.Band(4.5-1e-12, true, ""); res.Grade != "A" {
		t.Errorf("4.5 − 1e-12: %q; want A", res.Grade)
	}
}

func TestSeed004TierTrim(t *testing.T) {
	auto := grades(t, &gate.Grades{Tier: "autonomous"})
	// "A score that would band to A on an autonomous-tier node is recorded as B (the
	// pre-trim band is preserved as rawGrade)."
	if res := auto.Band(4.8, true, ""); res.Grade != "B" || res.RawGrade != "A" || res.Tier != "autonomous" {
		t.Errorf("autonomous 4.8: %+v; want B, rawGrade A", res)
	}
	// Grades at or below the cap are not touched.
	for mean, want := range map[float64]string{4.0: "B", 3.0: "C", 1.2: "F"} {
		if res := auto.Band(mean, true, ""); res.Grade != want || res.RawGrade != want {
			t.Errorf("autonomous %v: %+v; want %s", mean, res, want)
		}
	}
	// group-bound → A: an A stays an A.
	group := grades(t, &gate.Grades{Tier: "group-bound"})
	if res := group.Band(4.8, true, ""); res.Grade != "A" || res.RawGrade != "A" {
		t.Errorf("group-bound 4.8: %+v; want A, rawGrade A", res)
	}
	// No tier: no trim.
	if res := grades(t, &gate.Grades{}).Band(4.8, true, ""); res.Grade != "A" {
		t.Errorf("no tier 4.8: %+v; want A", res)
	}
}

func TestSeed004VetoAndPending(t *testing.T) {
	g := grades(t, &gate.Grades{Tier: "autonomous"})
	// "A Categorical Veto overrides the entire computation with REJECTED."
	if res := g.Band(5, true, "imports_scan"); res.Grade != gate.Rejected || res.VetoedBy != "imports_scan" || res.RawGrade != "" {
		t.Errorf("veto: %+v; want REJECTED by imports_scan", res)
	}
	// "An all-excluded set yields no grade, i.e. a pending node."
	if res := g.Band(0, false, ""); res.Grade != gate.Pending {
		t.Errorf("all excluded: %+v; want pending", res)
	}
	// The veto wins over pending too.
	if res := g.Band(0, false, "imports_scan"); res.Grade != gate.Rejected {
		t.Errorf("veto, all excluded: %+v; want REJECTED", res)
	}
}

// flowmcpScoring is a seed 004 scoring system: two pass/fail/n/a/stale dimensions and
// two 1–5 dimensions.
const flowmcpScoring = `
scoring:
  version: scoringSystem/1.1.0
  dimensions:
    - {name: http_status, weight: 0.25, scorer: recorded, scale: pass_fail}
    - {name: llm_answer, weight: 0.35, scorer: recorded, scale: 1-5}
    - {name: documentation_match, weight: 0.25, scorer: recorded, scale: 1-5}
    - {name: imports_scan, weight: 0.15, scorer: recorded, scale: pass_fail}
`

func flowmcpGrading(tier string) string {
	return `
grading:
  version: gradingSystem/1.0.0
  grades: {basis: native, tier: ` + tier + `, veto: [imports_scan]}
`
}

func flowmcpRecord(id, http, llm, doc, imports string) string {
	return `{"id": "` + id + `", "output": "x", "scores": {"http_status": ` + http + `, "llm_answer": ` + llm +
		`, "documentation_match": ` + doc + `, "imports_scan": ` + imports + `}}` + "\n"
}

const flowmcpSuite = "items:\n  - {id: t1}\n  - {id: t2}\n  - {id: t3}\n  - {id: t4}\n"

// The native weighted mean through the whole pipeline.
func TestSeed004NativeMean(t *testing.T) {
	run := flowmcpRecord("t1", `"pass"`, "5", "5", `"pass"`) +
		flowmcpRecord("t2", `"pass"`, "4", "4.5", `"pass"`) +
		flowmcpRecord("t3", `"fail"`, `"n/a"`, "4", `"pass"`) +
		flowmcpRecord("t4", `"stale"`, "5", `"stale"`, `"n/a"`)
	_, sc, v := checked(t, flowmcpScoring+flowmcpGrading("autonomous"), flowmcpSuite, run)

	// Per answer, weight × native value (pass = 5, fail = 1), over weights not excluded:
	//   t1: 0.25·5 + 0.35·5 + 0.25·5   + 0.15·5 = 5.000        (weights 1.00)
	//   t2: 0.25·5 + 0.35·4 + 0.25·4.5 + 0.15·5 = 4.525        (weights 1.00)
	//   t3: 0.25·1 + (n/a)  + 0.25·4   + 0.15·5 = 2.000        (weights 0.65)
	//   t4: (stale) + 0.35·5 + (stale) + (n/a)   = 1.750        (weights 0.35)
	// mean = (5 + 4.525 + 2 + 1.75) / (1 + 1 + 0.65 + 0.35) = 13.275 / 3 = 4.425 → B.
	if v.Grade == nil {
		t.Fatal("no grade")
	}
	if v.Grade.Mean != 4.425 || v.Grade.Grade != "B" || v.Grade.RawGrade != "B" || v.Grade.Basis != "native" {
		t.Errorf("grade %+v; want mean 4.425, B (raw B), basis native", v.Grade)
	}
	// n/a and stale leave the per-item score too: t3 renormalizes over 0.65 of weight:
	// (0.25·0 + 0.25·0.75 + 0.15·1) / 0.65 = 0.3375 / 0.65.
	if got, want := sc.Items[2].Score, 0.3375/0.65; !near(got, want) {
		t.Errorf("t3 score %v; want %v", got, want)
	}
	// t4 has a score from its one numeric answer: llm_answer 5 → 1.0.
	if got := sc.Items[3].Score; got != 1 || sc.Items[3].Pending {
		t.Errorf("t4 score %v, pending %v; want 1, false", got, sc.Items[3].Pending)
	}

	// Raise t2 to all 5s: (5 + 5 + 2 + 1.75) / 3 = 4.5833 → band A, trimmed to B on an
	// autonomous node; a group-bound node keeps the A.
	run = strings.Replace(run, flowmcpRecord("t2", `"pass"`, "4", "4.5", `"pass"`), flowmcpRecord("t2", `"pass"`, "5", "5", `"pass"`), 1)
	_, _, v = checked(t, flowmcpScoring+flowmcpGrading("autonomous"), flowmcpSuite, run)
	if v.Grade.Grade != "B" || v.Grade.RawGrade != "A" || !near(v.Grade.Mean, 13.75/3) {
		t.Errorf("autonomous: %+v; want B, rawGrade A, mean 4.5833", v.Grade)
	}
	_, _, v = checked(t, flowmcpScoring+flowmcpGrading("group-bound"), flowmcpSuite, run)
	if v.Grade.Grade != "A" || v.Grade.RawGrade != "A" {
		t.Errorf("group-bound: %+v; want A, rawGrade A", v.Grade)
	}
	if v.Status != gate.Pass {
		t.Errorf("verdict %q (%s); want pass", v.Status, v.Reason)
	}
}

// pass = 5.0 and fail = 1.0: a run of only pass/fail answers grades on their share.
func TestSeed004PassFailMapping(t *testing.T) {
	yml := `
scoring:
  version: scoringSystem/1.0.0
  dimensions:
    - {name: check, weight: 1, scorer: recorded, scale: pass_fail}
grading:
  version: gradingSystem/1.0.0
  grades: {basis: native}
`
	rec := func(id, v string) string {
		return `{"id": "` + id + `", "output": "x", "scores": {"check": "` + v + `"}}` + "\n"
	}
	suite := "items:\n  - {id: a}\n  - {id: b}\n  - {id: c}\n  - {id: d}\n"
	cases := []struct {
		run  string
		mean float64
		want string
	}{
		{rec("a", "pass") + rec("b", "pass") + rec("c", "pass") + rec("d", "pass"), 5, "A"},
		{rec("a", "fail") + rec("b", "fail") + rec("c", "fail") + rec("d", "fail"), 1, "F"},
		// 3 pass, 1 fail: (5 + 5 + 5 + 1) / 4 = 4.0 → B.
		{rec("a", "pass") + rec("b", "pass") + rec("c", "pass") + rec("d", "fail"), 4, "B"},
		// 1 pass, 1 fail, 2 excluded: (5 + 1) / 2 = 3.0 → C.
		{rec("a", "pass") + rec("b", "fail") + rec("c", "n/a") + rec("d", "stale"), 3, "C"},
	}
	for _, c := range cases {
		_, _, v := checked(t, yml, suite, c.run)
		if v.Grade.Mean != c.mean || v.Grade.Grade != c.want {
			t.Errorf("%q: grade %+v; want mean %v, %s", c.run, v.Grade, c.mean, c.want)
		}
	}
}

// All answers n/a or stale: every item is pending, the run has no grade.
func TestSeed004AllExcludedIsPending(t *testing.T) {
	run := flowmcpRecord("t1", `"n/a"`, `"stale"`, `"n/a"`, `"stale"`) +
		flowmcpRecord("t2", `"stale"`, `"stale"`, `"stale"`, `"stale"`) +
		flowmcpRecord("t3", `"n/a"`, `"n/a"`, `"n/a"`, `"n/a"`) +
		flowmcpRecord("t4", `"stale"`, `"n/a"`, `"stale"`, `"n/a"`)
	_, sc, v := checked(t, flowmcpScoring+flowmcpGrading("autonomous"), flowmcpSuite, run)
	if v.Grade == nil || v.Grade.Grade != gate.Pending {
		t.Fatalf("grade %+v; want pending", v.Grade)
	}
	for _, it := range sc.Items {
		if !it.Pending || it.Pass {
			t.Errorf("%s: pending %v, pass %v; want pending, not passing", it.Item.ID, it.Pending, it.Pass)
		}
	}
	if sc.Metrics["pending_items"] != 4 || sc.Metrics["scored_items"] != 0 {
		t.Errorf("pending_items %v, scored_items %v; want 4, 0", sc.Metrics["pending_items"], sc.Metrics["scored_items"])
	}
}

// One failed imports scan anywhere: REJECTED, whatever the mean, and the verdict fails.
func TestSeed004CategoricalVeto(t *testing.T) {
	run := flowmcpRecord("t1", `"pass"`, "5", "5", `"pass"`) +
		flowmcpRecord("t2", `"pass"`, "5", "5", `"fail"`) +
		flowmcpRecord("t3", `"pass"`, "5", "5", `"pass"`) +
		flowmcpRecord("t4", `"pass"`, "5", "5", `"pass"`)
	_, _, v := checked(t, flowmcpScoring+flowmcpGrading("group-bound"), flowmcpSuite, run)
	if v.Grade.Grade != gate.Rejected || v.Grade.VetoedBy != "imports_scan" {
		t.Fatalf("grade %+v; want REJECTED by imports_scan", v.Grade)
	}
	if v.Status != gate.Fail || !strings.Contains(v.Reason, "grade REJECTED: imports_scan vetoed") {
		t.Errorf("verdict %q (%s); want fail, REJECTED", v.Status, v.Reason)
	}
	// An n/a or stale imports scan is not a failure: no veto.
	run = strings.Replace(run, `"imports_scan": "fail"`, `"imports_scan": "stale"`, 1)
	_, _, v = checked(t, flowmcpScoring+flowmcpGrading("group-bound"), flowmcpSuite, run)
	if v.Grade.Grade != "A" {
		t.Errorf("grade %+v; want A", v.Grade)
	}
}

// Basis score: the 0–1 mean score is banded with the configured bands.
func TestGradesOnScore(t *testing.T) {
	yml := binaryScoring + `
grading:
  version: gradingSystem/1.0.0
  grades:
    basis: score
    bands: [{min: 0.5, grade: C}, {min: 0.9, grade: A}, {min: 0.7, grade: B}, {min: 0, grade: F}]
`
	for _, c := range []struct {
		outs []any
		want string
	}{
		{[]any{"yes", 1, "yes", 1}, "A"}, // 1.0
		{[]any{"yes", 1, "no", 1}, "C"},  // 0.5, at the band's minimum
		{[]any{"no", 1, "no", 1}, "F"},   // 0
		{[]any{"yes", 1, "yes", 1, "no", 1, "no", 1, "yes", 1, "yes", 1, "yes", 1, "no", 1, "yes", 1, "yes", 1}, "B"}, // 0.7
	} {
		suite, run := binaryRun(c.outs...)
		_, _, v := checked(t, yml, suite, run)
		if v.Grade == nil || v.Grade.Grade != c.want || v.Grade.Basis != "score" {
			t.Errorf("%v: grade %+v; want %s on basis score", c.outs, v.Grade, c.want)
		}
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }
