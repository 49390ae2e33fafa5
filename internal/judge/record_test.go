package judge_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/evalgate/evalgate/internal/judge"
	"github.com/evalgate/evalgate/internal/testdata/chattest"
)

func TestRecordThenReplay(t *testing.T) {
	t.Parallel()
	srv := chattest.New(t, "/v1", chattest.Always(chattest.Reply{Content: valid}))
	dir := t.TempDir()
	rec, _ := newJudge(t, srv, func(c *judge.Config) { c.CacheDir = dir })
	scripted := judge.Judgment{
		Scores:    map[string]*float64{"accuracy_score": score(2), "faithfulness_score": score(0)},
		Rationale: "Scripted: the answer cites a source the context lacks.",
		Model:     "scripted-judge",
	}
	if err := rec.Record(req("a"), scripted); err != nil {
		t.Fatal(err)
	}
	replay, _ := newJudge(t, srv, func(c *judge.Config) { c.CacheDir = dir; c.Replay = true })
	got, st, err := replay.Evaluate(context.Background(), []judge.Request{req("a")})
	if err != nil {
		t.Fatal(err)
	}
	want := scripted
	want.Cached = true
	if diff := cmp.Diff([]judge.Judgment{want}, got); diff != "" {
		t.Errorf("replayed (-want +got):\n%s", diff)
	}
	if srv.Calls() != 0 || st.Calls != 0 {
		t.Errorf("%d server calls, %d in stats; a recorded verdict needs none", srv.Calls(), st.Calls)
	}
}

func TestRecordRefusesMisfits(t *testing.T) {
	t.Parallel()
	srv := chattest.New(t, "/v1", chattest.Always(chattest.Reply{Content: valid}))
	j, _ := newJudge(t, srv, nil)
	tests := []struct {
		name    string
		v       judge.Judgment
		wantErr string
	}{
		{"missing key", judge.Judgment{Scores: map[string]*float64{"accuracy_score": score(1)}}, `no score for key "faithfulness_score"`},
		{"out of range", judge.Judgment{Scores: map[string]*float64{"accuracy_score": score(3), "faithfulness_score": score(1)}}, `key "accuracy_score" is 3; want an integer in 0..2`},
		{"fraction", judge.Judgment{Scores: map[string]*float64{"accuracy_score": score(1.5), "faithfulness_score": score(1)}}, `is 1.5`},
		{"extra key", judge.Judgment{Scores: map[string]*float64{"accuracy_score": score(1), "faithfulness_score": score(1), "tone": score(1)}}, "keys the template accuracy-faithfulness lacks"},
		{"null without error", judge.Judgment{Scores: map[string]*float64{"accuracy_score": nil, "faithfulness_score": nil}}, "need all keys null and an evaluator_error"},
		{"error with scores", judge.Judgment{Scores: map[string]*float64{"accuracy_score": score(1), "faithfulness_score": score(1)}, EvaluatorError: judge.ErrorParse}, "an error verdict has null scores"},
		{"parse error", judge.Judgment{Scores: map[string]*float64{"accuracy_score": nil, "faithfulness_score": nil}, EvaluatorError: judge.ErrorParse}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			checkErr(t, j.Record(req(tt.name), tt.v), tt.wantErr)
		})
	}
}
