package ghaction

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sethvargo/go-githubactions"
)

// actionWith returns an Action whose environment holds inputs (by input name).
func actionWith(inputs map[string]string) *githubactions.Action {
	env := map[string]string{}
	for k, v := range inputs {
		env["INPUT_"+strings.ToUpper(k)] = v
	}
	return githubactions.New(githubactions.WithGetenv(func(k string) string { return env[k] }), githubactions.WithWriter(&strings.Builder{}))
}

func TestReadInputs(t *testing.T) {
	t.Parallel()
	got, err := readInputs(actionWith(map[string]string{
		"github-token": "ghs_x",
		"results":      "runs/a.jsonl, runs/b.jsonl\nruns/c/*.jsonl\n\n",
		"fail-on":      "soft",
		"comment":      "on-failure",
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := Inputs{
		Config: "evalgate.yaml", Results: []string{"runs/a.jsonl", "runs/b.jsonl", "runs/c/*.jsonl"},
		Token: "ghs_x", Comment: "on-failure", CheckName: "evalgate", FailOn: FailOnSoft, Mode: ModeCheck,
		WorkingDirectory: ".", Refresh: RefreshPR, AcceptLabel: "evalgate/accept",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("readInputs (-want +got):\n%s", diff)
	}
}

func TestReadInputsErrors(t *testing.T) {
	t.Parallel()
	_, err := readInputs(actionWith(map[string]string{
		"fail-on": "sometimes", "mode": "release", "comment": "loud", "refresh": "push",
	}))
	var got []string
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		var ie *InputError
		if !errors.As(e, &ie) {
			t.Errorf("%v is not an *InputError", e)
		}
		got = append(got, e.Error())
	}
	want := []string{
		`input "comment": "loud" is not one of always, on-change, on-failure, never`,
		`input "fail-on": "sometimes" is not one of hard, soft, never`,
		`input "mode": "release" is not one of check, baseline`,
		`input "refresh": "push" is not one of pr, file`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}
