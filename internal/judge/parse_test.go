package judge_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/evalgate/evalgate/internal/judge"
)

func TestParseVerdictSeed001(t *testing.T) {
	t.Parallel()
	words80 := strings.TrimSpace(strings.Repeat("word ", 80))
	words81 := words80 + " more"
	tests := []struct {
		name    string
		reply   string
		want    judge.Parsed
		wantErr string // "" = accepted
	}{
		{
			name:  "valid",
			reply: `{"accuracy_score": 2, "faithfulness_score": 1, "rationale": "Correct, one unsupported claim."}`,
			want:  judge.Parsed{Scores: map[string]int{"accuracy_score": 2, "faithfulness_score": 1}, Rationale: "Correct, one unsupported claim."},
		},
		{
			name:  "surrounding whitespace and extra keys are fine",
			reply: "\n  {\"accuracy_score\": 0, \"faithfulness_score\": 0, \"rationale\": \"Wrong.\", \"confidence\": 0.9}\n",
			want:  judge.Parsed{Scores: map[string]int{"accuracy_score": 0, "faithfulness_score": 0}, Rationale: "Wrong."},
		},
		{
			name:  "exactly 80 words",
			reply: `{"accuracy_score": 1, "faithfulness_score": 2, "rationale": "` + words80 + `"}`,
			want:  judge.Parsed{Scores: map[string]int{"accuracy_score": 1, "faithfulness_score": 2}, Rationale: words80},
		},
		{name: "81 words", reply: `{"accuracy_score": 1, "faithfulness_score": 2, "rationale": "` + words81 + `"}`, wantErr: "has 81 words; at most 80"},
		{name: "malformed", reply: `{"accuracy_score": 2, "faithfulness_score": 1, "rationale": "x"`, wantErr: "not a JSON object"},
		{name: "markdown fence", reply: "```json\n{\"accuracy_score\": 2, \"faithfulness_score\": 1, \"rationale\": \"x\"}\n```", wantErr: "not a JSON object"},
		{name: "prose after", reply: `{"accuracy_score": 2, "faithfulness_score": 1, "rationale": "x"} Hope this helps!`, wantErr: "text after the JSON object"},
		{name: "two objects", reply: `{"accuracy_score": 2, "faithfulness_score": 1, "rationale": "x"}{}`, wantErr: "text after the JSON object"},
		{name: "array", reply: `[2, 1]`, wantErr: "not a JSON object"},
		{name: "null", reply: `null`, wantErr: "not a JSON object"},
		{name: "empty", reply: ``, wantErr: "not a JSON object"},
		{name: "missing key", reply: `{"accuracy_score": 2, "rationale": "x"}`, wantErr: `missing key "faithfulness_score"`},
		{name: "out of range high", reply: `{"accuracy_score": 3, "faithfulness_score": 1, "rationale": "x"}`, wantErr: `key "accuracy_score" is 3; want an integer in 0..2`},
		{name: "out of range low", reply: `{"accuracy_score": -1, "faithfulness_score": 1, "rationale": "x"}`, wantErr: `is -1`},
		{name: "fraction", reply: `{"accuracy_score": 1.5, "faithfulness_score": 1, "rationale": "x"}`, wantErr: `is 1.5`},
		{name: "float spelling of an int", reply: `{"accuracy_score": 2.0, "faithfulness_score": 1, "rationale": "x"}`, wantErr: `is 2.0`},
		{name: "string score", reply: `{"accuracy_score": "2", "faithfulness_score": 1, "rationale": "x"}`, wantErr: `is "2"`},
		{name: "null score", reply: `{"accuracy_score": null, "faithfulness_score": 1, "rationale": "x"}`, wantErr: `is null`},
		{name: "missing rationale", reply: `{"accuracy_score": 2, "faithfulness_score": 1}`, wantErr: `missing key "rationale"`},
		{name: "blank rationale", reply: `{"accuracy_score": 2, "faithfulness_score": 1, "rationale": "   "}`, wantErr: `key "rationale" is empty`},
		{name: "rationale not a string", reply: `{"accuracy_score": 2, "faithfulness_score": 1, "rationale": 7}`, wantErr: `not a string`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := judge.ParseVerdict(judge.AccuracyFaithfulness(), tt.reply)
			checkErr(t, err, tt.wantErr)
			var pe *judge.ParseError
			if err != nil && !errors.As(err, &pe) {
				t.Errorf("error %T; want *judge.ParseError", err)
			}
			if tt.wantErr == "" {
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("parsed (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestParseVerdictSeed003(t *testing.T) {
	t.Parallel()
	const valid = `{"accuracy": 9, "relevance": 10, "completeness": 7, "conciseness": 8, "clarity": 9, "notes": "Accurate and direct."}`
	tests := []struct {
		name, reply, wantErr string
	}{
		{"valid", valid, ""},
		{"missing dimension", `{"accuracy": 9, "relevance": 10, "completeness": 7, "clarity": 9, "notes": "x"}`, `missing key "conciseness"`},
		// Seed 003 scores start at 1: a 0 is out of range, as is 11.
		{"zero", strings.Replace(valid, `"clarity": 9`, `"clarity": 0`, 1), `key "clarity" is 0; want an integer in 1..10`},
		{"eleven", strings.Replace(valid, `"accuracy": 9`, `"accuracy": 11`, 1), `key "accuracy" is 11`},
		{"no notes", `{"accuracy": 9, "relevance": 10, "completeness": 7, "conciseness": 8, "clarity": 9}`, `missing key "notes"`},
	}
	for _, tt := range tests {
		_, err := judge.ParseVerdict(judge.Rubric(), tt.reply)
		t.Run(tt.name, func(t *testing.T) { checkErr(t, err, tt.wantErr) })
	}
}
