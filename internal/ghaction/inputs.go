package ghaction

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/github"
	"github.com/sethvargo/go-githubactions"
)

// Mode says what the action does.
type Mode string

// Modes, as the action's mode input spells them.
const (
	ModeCheck    Mode = "check"    // score a pull request or push and gate it
	ModeBaseline Mode = "baseline" // refresh the baseline (on release: published)
)

// FailOn is the fail-on input: which verdicts fail the step (gate.FailOn owns its values
// and meaning). The check run's conclusion does not depend on it.
type FailOn = gate.FailOn

// FailOn values (gate's).
const (
	FailOnHard  = gate.FailOnHard
	FailOnSoft  = gate.FailOnSoft
	FailOnNever = gate.FailOnNever
)

// Refresh says how baseline mode delivers the new baseline.
type Refresh string

// Refresh values.
const (
	RefreshPR   Refresh = "pr"   // commit it on a branch and open (or update) a pull request
	RefreshFile Refresh = "file" // only write the file, for a later step
)

// Inputs are the action's inputs (action.yml), validated.
type Inputs struct {
	Config  string
	Results []string // patterns, as given: one a line or comma separated
	// Report holds patterns (as Results) of an already scored JSON report to gate on
	// (or, in mode baseline, to make the baseline from) instead of scoring results: the
	// report of `evalgate merge`, or every shard's partial report. Never with Results.
	Report           []string
	Baseline         string
	Token            string
	Comment          github.CommentMode
	CheckName        string
	FailOn           FailOn
	Mode             Mode
	WorkingDirectory string
	RefreshToken     string
	Refresh          Refresh
	AcceptLabel      string
	// CommentAuthor is the login whose comments are the action's own; "" means the
	// token's identity (github-actions[bot] for GITHUB_TOKEN).
	CommentAuthor string
	// RequestTimeout bounds each GitHub API request; PublishBudget all of them
	// together (base-commit reads, check run, comment, refresh), scoring excluded.
	RequestTimeout time.Duration
	PublishBudget  time.Duration
	// RequireBaseline fails the check when the baseline the config names is missing
	// (like grading.regression.require_baseline), except on the pull request that adds
	// evalgate.
	RequireBaseline bool
	// RequireBaseConfig refuses a first adoption: a pull request whose base commit has no
	// evalgate config at the path its own workflow names fails instead of being judged
	// by the gate it brings.
	RequireBaseConfig bool
	// MaxCostUSD caps what each judge's calls may cost (the judges' max_cost_usd);
	// 0: the config's.
	MaxCostUSD float64
	// Settle is the settle input: auto (settle an inconclusive verdict when the config
	// has a `run:` or `rerun:` block) or off.
	Settle string
}

// inputDefaults are the defaults action.yml declares, applied when an input is unset
// (as when the binary runs outside GitHub). TestInputDefaultsMatchActionYAML keeps them
// in step with action.yml.
var inputDefaults = map[string]string{
	"config":              "evalgate.yaml",
	"results":             "",
	"results-format":      "",
	"report":              "",
	"baseline":            "",
	"github-token":        "",
	"comment":             "always",
	"check-name":          "evalgate",
	"fail-on":             "hard",
	"mode":                "check",
	"working-directory":   ".",
	"refresh-token":       "",
	"refresh":             "pr",
	"accept-label":        "evalgate/accept",
	"comment-author":      "",
	"request-timeout":     "30s",
	"publish-budget":      "3m",
	"require-baseline":    "false",
	"require-base-config": "false",
	"max-cost-usd":        "",
	"settle":              "auto",
}

// maxDurationInput bounds request-timeout and publish-budget: a job runs 6 hours at most.
const maxDurationInput = 6 * time.Hour

// InputError is a bad input value.
type InputError struct {
	Input string // the input's name in action.yml
	Value string
	Msg   string // what is wrong, with the valid choices
}

func (e *InputError) Error() string {
	return fmt.Sprintf("input %q: %q %s", e.Input, e.Value, e.Msg)
}

// readInputs reads and validates the inputs through a. All problems are reported at
// once, joined, each an *InputError.
func readInputs(a *githubactions.Action) (Inputs, error) {
	get := func(name string) string {
		if v := a.GetInput(name); v != "" {
			return v
		}
		return inputDefaults[name]
	}
	var errs []error
	oneOf := func(name string, valid ...string) string {
		v := get(name)
		for _, ok := range valid {
			if v == ok {
				return v
			}
		}
		errs = append(errs, &InputError{Input: name, Value: v, Msg: "is not one of " + strings.Join(valid, ", ")})
		return v
	}
	in := Inputs{
		Config:            get("config"),
		Results:           splitPatterns(get("results")),
		Report:            splitPatterns(get("report")),
		Baseline:          get("baseline"),
		Token:             get("github-token"),
		Comment:           github.CommentMode(oneOf("comment", "always", "on-change", "on-failure", "never")),
		CheckName:         get("check-name"),
		FailOn:            FailOn(oneOf("fail-on", "hard", "soft", "never")),
		Mode:              Mode(oneOf("mode", "check", "baseline")),
		WorkingDirectory:  get("working-directory"),
		RefreshToken:      get("refresh-token"),
		Refresh:           Refresh(oneOf("refresh", "pr", "file")),
		AcceptLabel:       get("accept-label"),
		CommentAuthor:     strings.TrimSpace(get("comment-author")),
		RequireBaseline:   oneOf("require-baseline", "true", "false") == "true",
		RequireBaseConfig: oneOf("require-base-config", "true", "false") == "true",
		Settle:            oneOf("settle", "auto", "off"),
	}
	in.RequestTimeout = durationInput(get, "request-timeout", &errs)
	in.PublishBudget = durationInput(get, "publish-budget", &errs)
	if v := strings.TrimSpace(get("max-cost-usd")); v != "" {
		f, err := strconv.ParseFloat(strings.TrimPrefix(v, "$"), 64)
		if err != nil || !(f > 0) || f > 1e12 {
			errs = append(errs, &InputError{Input: "max-cost-usd", Value: v, Msg: "is not a positive amount of US dollars, e.g. 5 or 0.50"})
		}
		in.MaxCostUSD = f
	}
	if in.Config == "" {
		errs = append(errs, &InputError{Input: "config", Msg: "is empty; want the path of the evalgate config"})
	}
	if len(in.Report) > 0 && len(in.Results) > 0 {
		errs = append(errs, &InputError{Input: "report", Value: get("report"), Msg: "gates on a report already scored: leave the results input empty (the shards scored the results)"})
	}
	if len(in.Report) > 0 && get("results-format") != "" {
		errs = append(errs, &InputError{Input: "results-format", Value: get("results-format"), Msg: "reads results files; with the report input there are none (leave it empty)"})
	}
	if strings.ContainsAny(in.CheckName, "\r\n") || in.CheckName == "" {
		errs = append(errs, &InputError{Input: "check-name", Value: in.CheckName, Msg: "must be one non-empty line"})
	}
	return in, errors.Join(errs...)
}

// splitPatterns splits the results input: one pattern a line, or comma separated.
func splitPatterns(s string) []string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		for _, p := range strings.Split(line, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// durationInput reads input name as a Go duration ("30s", "2m30s") or a number of
// seconds ("30"), greater than zero and at most maxDurationInput.
func durationInput(get func(string) string, name string, errs *[]error) time.Duration {
	v := strings.TrimSpace(get(name))
	d, err := time.ParseDuration(v)
	if err != nil {
		// A bare number is seconds; NaN and huge values fail the range check below.
		if s, ferr := strconv.ParseFloat(v, 64); ferr == nil && s > 0 && s <= maxDurationInput.Seconds() {
			d, err = time.Duration(s*float64(time.Second)), nil
		}
	}
	if err != nil || d <= 0 || d > maxDurationInput {
		*errs = append(*errs, &InputError{Input: name, Value: v, Msg: "is not a duration between 1ms and 6h, such as 30s, 3m or 90 (seconds)"})
		return 0
	}
	return d
}
