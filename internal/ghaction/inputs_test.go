package ghaction

import (
	"errors"
	"strings"
	"testing"
	"time"

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
		RequestTimeout: 30 * time.Second, PublishBudget: 3 * time.Minute, Settle: "auto",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("readInputs (-want +got):\n%s", diff)
	}
}

func TestReadInputsErrors(t *testing.T) {
	t.Parallel()
	_, err := readInputs(actionWith(map[string]string{
		"fail-on": "sometimes", "mode": "release", "comment": "loud", "refresh": "push",
		"request-timeout": "0s", "publish-budget": "forever",
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
		`input "request-timeout": "0s" is not a duration between 1ms and 6h, such as 30s, 3m or 90 (seconds)`,
		`input "publish-budget": "forever" is not a duration between 1ms and 6h, such as 30s, 3m or 90 (seconds)`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}

func TestDurationInputs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want time.Duration // 0: refused
	}{
		{"30s", 30 * time.Second},
		{"2m30s", 150 * time.Second},
		{" 90 ", 90 * time.Second},
		{"0.5", 500 * time.Millisecond},
		{"6h", 6 * time.Hour},
		{"6h1s", 0},
		{"21601", 0}, // seconds: just over 6 h
		{"-5s", 0},
		{"0", 0},
		{"NaN", 0},
		{"1e400", 0},
		{"soon", 0},
	}
	for _, tt := range tests {
		var errs []error
		got := durationInput(func(string) string { return tt.in }, "publish-budget", &errs)
		if got != tt.want || (len(errs) > 0) != (tt.want == 0) {
			t.Errorf("%q: %s with errors %v, want %s", tt.in, got, errs, tt.want)
		}
	}
}

// The duration inputs come from the workflow: any value is a duration in range or an
// error, never a panic or a value out of range.
func FuzzDurationInput(f *testing.F) {
	for _, s := range []string{"30s", "3m", "90", "0.5", "-1", "NaN", "Inf", "1e400", "6h0m1s", "9223372036854775807ns", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		var errs []error
		d := durationInput(func(string) string { return v }, "publish-budget", &errs)
		if len(errs) == 0 && (d <= 0 || d > maxDurationInput) {
			t.Fatalf("durationInput(%q) = %s without an error", v, d)
		}
		if len(errs) > 0 && d != 0 {
			t.Fatalf("durationInput(%q) = %s with an error", v, d)
		}
	})
}

// TestReadInputsReport: the report input takes patterns as results does, and refuses
// what cannot go with a report already scored: results files, their format.
func TestReadInputsReport(t *testing.T) {
	t.Parallel()
	in, err := readInputs(actionWith(map[string]string{"report": "merged.json"}))
	if err != nil || !cmp.Equal(in.Report, []string{"merged.json"}) {
		t.Fatalf("report input: %v, %v; want [merged.json]", in.Report, err)
	}
	in, err = readInputs(actionWith(map[string]string{"report": "shards/a.json, shards/b.json\nshards/c-*.json"}))
	if err != nil || !cmp.Equal(in.Report, []string{"shards/a.json", "shards/b.json", "shards/c-*.json"}) {
		t.Fatalf("report patterns: %v, %v", in.Report, err)
	}
	_, err = readInputs(actionWith(map[string]string{"report": "merged.json", "results": "r.jsonl", "results-format": "promptfoo", "mode": "baseline"}))
	var got []string
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		got = append(got, e.Error())
	}
	want := []string{
		`input "report": "merged.json" gates on a report already scored: leave the results input empty (the shards scored the results)`,
		`input "results-format": "promptfoo" reads results files; with the report input there are none (leave it empty)`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}

// FuzzReadInputs: the action's inputs come from the workflow; any values give inputs or
// a joined list of *InputError, never a panic: accepted results patterns are non-empty,
// trimmed, one pattern each, and an accepted max-cost-usd is a finite positive amount.
func FuzzReadInputs(f *testing.F) {
	f.Add("runs/a.jsonl, runs/b.jsonl\nruns/c/*.jsonl\n\n", "5", "soft", "30s")
	f.Add("", "$0.50", "hard", "90")
	f.Add(",,\n ,", "NaN", "never", "Inf")
	f.Add("r/**/*.jsonl", "1e13", "sometimes", "-1s")
	f.Fuzz(func(t *testing.T, results, maxCost, failOn, timeout string) {
		in, err := readInputs(actionWith(map[string]string{
			"results": results, "max-cost-usd": maxCost, "fail-on": failOn, "request-timeout": timeout,
		}))
		if err != nil {
			for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
				if ie := (*InputError)(nil); !errors.As(e, &ie) {
					t.Fatalf("%v is not an *InputError", e)
				}
			}
			return
		}
		for _, p := range in.Results {
			if p == "" || p != strings.TrimSpace(p) || strings.ContainsAny(p, ",\n") {
				t.Fatalf("results %q gives pattern %q", results, p)
			}
		}
		if in.MaxCostUSD != 0 && !(in.MaxCostUSD > 0 && in.MaxCostUSD <= 1e12) {
			t.Fatalf("max-cost-usd %q accepted as %v", maxCost, in.MaxCostUSD)
		}
	})
}
