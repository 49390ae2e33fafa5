package ghaction

import (
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/github"
)

// The fault-injection suite: the action against a GitHub that fails in every way seen
// in practice. Budgets are test-sized (8 s for all API calls, 1 s per request; the real
// defaults are 3 min and 30 s): wide enough that the calls a scenario expects to succeed
// (reads of the base commit on a machine loaded by other tests) do, yet small enough
// that the scenarios whose GitHub never answers run out of budget quickly. In every
// scenario the verdict is enforced by the exit code and the outputs, the job summary is
// written, and no comment is written twice.

const (
	faultBudget  = 8 * time.Second
	faultTimeout = time.Second
	// faultHang bounds a scenario's wall time: far above the budget, so only a run that
	// ignores its budget (a hang) crosses it, never a slow machine.
	faultHang = 10 * faultBudget
)

// faults are fakeOptions.fault functions.
var faults = struct {
	status      func(code int, header map[string]string, only func(*http.Request) bool) func(http.ResponseWriter, *http.Request, func(http.ResponseWriter, *http.Request)) bool
	neverAnswer func(only func(*http.Request) bool) func(http.ResponseWriter, *http.Request, func(http.ResponseWriter, *http.Request)) bool
}{
	// status answers code (with header) to every request only selects.
	status: func(code int, header map[string]string, only func(*http.Request) bool) func(http.ResponseWriter, *http.Request, func(http.ResponseWriter, *http.Request)) bool {
		return func(w http.ResponseWriter, r *http.Request, _ func(http.ResponseWriter, *http.Request)) bool {
			if !only(r) {
				return false
			}
			for k, v := range header {
				w.Header().Set(k, v)
			}
			w.WriteHeader(code)
			io.WriteString(w, `{"message":"`+http.StatusText(code)+`"}`)
			return true
		}
	},
	// neverAnswer holds every request only selects until the client gives up.
	neverAnswer: func(only func(*http.Request) bool) func(http.ResponseWriter, *http.Request, func(http.ResponseWriter, *http.Request)) bool {
		return func(w http.ResponseWriter, r *http.Request, _ func(http.ResponseWriter, *http.Request)) bool {
			if !only(r) {
				return false
			}
			// The server notices the client hang up only once the body is read.
			io.Copy(io.Discard, r.Body)
			select {
			case <-r.Context().Done():
			case <-time.After(2 * faultHang): // a bound, should the client never hang up
			}
			return true
		}
	},
}

func every(*http.Request) bool        { return true }
func writesOnly(r *http.Request) bool { return r.Method != http.MethodGet }

// halfOpen processes a POST (GitHub did the work: a comment exists), then never
// answers and never closes the connection, as when the network drops the way back.
func halfOpen(t *testing.T) func(http.ResponseWriter, *http.Request, func(http.ResponseWriter, *http.Request)) bool {
	var mu sync.Mutex
	var held []net.Conn
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range held {
			c.Close()
		}
	})
	return func(w http.ResponseWriter, r *http.Request, serve func(http.ResponseWriter, *http.Request)) bool {
		if r.Method != http.MethodPost {
			return false
		}
		serve(httptest.NewRecorder(), r) // done, but the answer is lost
		conn, _, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Error(err)
			return true
		}
		mu.Lock()
		held = append(held, conn)
		mu.Unlock()
		return true
	}
}

// resetPOST reads each POST whole, then resets the connection (TCP RST) unanswered.
func resetPOST(t *testing.T) func(http.ResponseWriter, *http.Request, func(http.ResponseWriter, *http.Request)) bool {
	return func(w http.ResponseWriter, r *http.Request, _ func(http.ResponseWriter, *http.Request)) bool {
		if r.Method != http.MethodPost {
			return false
		}
		io.Copy(io.Discard, r.Body)
		conn, _, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Error(err)
			return true
		}
		conn.(*net.TCPConn).SetLinger(0)
		conn.Close()
		return true
	}
}

func TestFaultInjection(t *testing.T) {
	t.Parallel()
	noBaseline := map[string]string{"evalgate.yaml": baseFiles["evalgate.yaml"]}
	// longComment is a report of 5,000 table rows: about 190,000 characters.
	longComment := "### ❌ evalgate: score dropped 10.0 pts\n\n| item | baseline | PR |\n|---|---|---|\n" +
		strings.Repeat("| t-0001 newly fails — ünïcödé | 0.91 | 0.81 |\n", 5000)
	tests := []struct {
		name  string
		api   func(t *testing.T) fakeOptions
		check func(CheckInput) (*Outcome, error)
		// inputs override the test-sized publish-budget and request-timeout.
		inputs map[string]string
		// wantExit and wantVerdict: the verdict enforced (a GitHub that cannot be read
		// fails closed: nothing judged, exit 3 (could not run), verdict "error").
		wantExit    int
		wantVerdict string
		wantFailed  string   // the failed-channels output
		wantSummary []string // what the job summary must say
		wantLog     []string
		// wantComments is how many comments exist at the end.
		wantComments int
		// wantConclusion is the last conclusion sent; "" when none got through.
		wantConclusion string
	}{{
		name: "500 on every call, forever",
		api: func(t *testing.T) fakeOptions {
			return fakeOptions{fault: faults.status(http.StatusInternalServerError, nil, every)}
		},
		check:       failing,
		wantExit:    ExitCouldNotRun,
		wantVerdict: "error", wantFailed: "check-run",
		wantSummary: []string{"evalgate could not judge this run", "reading evalgate.yaml at the base commit f95f852 through the GitHub API", "500 Internal Server Error", "Re-run the job"},
		wantLog:     []string{"::warning::evalgate: publishing the check run on GitHub failed"},
	}, {
		name:        "a response that never comes",
		api:         func(t *testing.T) fakeOptions { return fakeOptions{fault: faults.neverAnswer(every)} },
		check:       failing,
		wantExit:    ExitCouldNotRun,
		wantVerdict: "error", wantFailed: "check-run",
		wantSummary: []string{"evalgate could not judge this run", "reading evalgate.yaml at the base commit", "publish-budget", "no complete answer within " + faultTimeout.String()},
	}, {
		name:     "a half-open connection on POST: the comment is made once, and found again",
		api:      func(t *testing.T) fakeOptions { return fakeOptions{fault: halfOpen(t)} },
		check:    failing,
		wantExit: ExitGateFailed,
		// Neither create is sent again blindly: the check run and the comment that were
		// made are found again, and the run is concluded.
		wantVerdict: "fail", wantFailed: "",
		wantSummary:  []string{"### ❌ evalgate: score dropped 10.0 pts"},
		wantComments: 1, wantConclusion: "failure",
	}, {
		name: "502 after the comment is made: found again, not made twice",
		api: func(t *testing.T) fakeOptions {
			return fakeOptions{fault: func(w http.ResponseWriter, r *http.Request, serve func(http.ResponseWriter, *http.Request)) bool {
				if r.Method != http.MethodPost || r.URL.Path != prefix+"/issues/2/comments" {
					return false
				}
				serve(httptest.NewRecorder(), r)
				w.WriteHeader(http.StatusBadGateway)
				return true
			}}
		},
		check:       failing,
		wantExit:    ExitGateFailed,
		wantVerdict: "fail", wantFailed: "",
		wantSummary:  []string{"### ❌ evalgate: score dropped 10.0 pts"},
		wantComments: 1, wantConclusion: "failure",
	}, {
		// GitHub makes the check run but its answer has no body, so no id: the run is
		// found again by name, head sha and this attempt's external id, and concluded;
		// no second run is made, none stays in progress.
		name: "201 with an empty body on check-run create: found again, concluded, not made twice",
		api: func(t *testing.T) fakeOptions {
			return fakeOptions{fault: func(w http.ResponseWriter, r *http.Request, serve func(http.ResponseWriter, *http.Request)) bool {
				if r.Method != http.MethodPost || r.URL.Path != prefix+"/check-runs" {
					return false
				}
				serve(httptest.NewRecorder(), r)
				w.WriteHeader(http.StatusCreated)
				return true
			}}
		},
		check:       failing,
		wantExit:    ExitGateFailed,
		wantVerdict: "fail", wantFailed: "",
		wantSummary:  []string{"### ❌ evalgate: score dropped 10.0 pts"},
		wantComments: 1, wantConclusion: "failure",
	}, {
		// The request timeout is longer than the whole budget: the budget alone ends
		// each call, and each channel still gets its share of it.
		name:        "writes never answer and the budget runs out while publishing: the verdict, outputs and summary are still written",
		api:         func(t *testing.T) fakeOptions { return fakeOptions{fault: faults.neverAnswer(writesOnly)} },
		inputs:      map[string]string{"request-timeout": "1m"},
		check:       failing,
		wantExit:    ExitGateFailed,
		wantVerdict: "fail", wantFailed: "check-run,comment",
		wantSummary: []string{"failed-channels: `check-run,comment`", "the publish-budget of " + faultBudget.String() + " for all GitHub API calls ran out", "### ❌ evalgate: score dropped 10.0 pts"},
		wantLog:     []string{"file=suite.yaml"},
	}, {
		name: "502 on the base config read: fails closed, and the check run says so",
		api: func(t *testing.T) fakeOptions {
			return fakeOptions{fault: faults.status(http.StatusBadGateway, nil, func(r *http.Request) bool {
				return r.URL.Path == prefix+"/contents/evalgate.yaml"
			})}
		},
		check:       failing,
		wantExit:    ExitCouldNotRun,
		wantVerdict: "error", wantFailed: "",
		wantSummary:    []string{"reading evalgate.yaml at the base commit f95f852 through the GitHub API", "502 Bad Gateway", "a pull request is never judged by its own copy of the gate", "Re-run the job"},
		wantConclusion: "failure",
	}, {
		name: "malformed JSON for the base config: fails closed, with a summary and outputs",
		api: func(t *testing.T) fakeOptions {
			return fakeOptions{fault: func(w http.ResponseWriter, r *http.Request, _ func(http.ResponseWriter, *http.Request)) bool {
				if r.URL.Path != prefix+"/contents/evalgate.yaml" {
					return false
				}
				io.WriteString(w, `{"type": "file", "encoding": "base64", "content": "c3VpdGU6`)
				return true
			}}
		},
		check:       failing,
		wantExit:    ExitCouldNotRun,
		wantVerdict: "error", wantFailed: "",
		wantSummary:    []string{"evalgate could not judge this run", "reading evalgate.yaml at the base commit f95f852 through the GitHub API", "unexpected EOF"},
		wantConclusion: "failure",
	}, {
		name: "404 on the base baseline: no baseline yet, the other gates decide",
		api:  func(t *testing.T) fakeOptions { return fakeOptions{baseFiles: noBaseline} },
		check: func(in CheckInput) (*Outcome, error) {
			if in.BaselinePath != "" || in.BaseConfig == "" {
				return nil, errors.New("want the base config and no baseline")
			}
			return &Outcome{Suite: "tutor", Verdict: gate.Pass, Score: 0.93, CommentMarkdown: "### ✅ evalgate: no baseline yet\n"}, nil
		},
		wantExit:    ExitPass,
		wantVerdict: "pass", wantFailed: "",
		wantSummary:  []string{"### ✅ evalgate: no baseline yet"},
		wantComments: 1, wantConclusion: "success",
	}, {
		name:        "RST on every POST",
		api:         func(t *testing.T) fakeOptions { return fakeOptions{fault: resetPOST(t)} },
		check:       failing,
		wantExit:    ExitGateFailed,
		wantVerdict: "fail", wantFailed: "check-run,comment",
		wantSummary: []string{"failed-channels: `check-run,comment`", "the check run:", "the pull-request comment:", "### ❌ evalgate: score dropped 10.0 pts"},
		// Log annotations stand in for the check run's.
		wantLog: []string{"file=suite.yaml"},
	}, {
		name: "Retry-After: 3600 on every call: gives up at once and says so",
		api: func(t *testing.T) fakeOptions {
			return fakeOptions{fault: faults.status(http.StatusTooManyRequests, map[string]string{"Retry-After": "3600"}, every)}
		},
		check:       failing,
		wantExit:    ExitCouldNotRun,
		wantVerdict: "error", wantFailed: "check-run",
		wantSummary: []string{"asked to wait 1h0m0s before trying again", "gave up without waiting"},
	}, {
		name: "Retry-After: 3600 on writes: the verdict still fails the step",
		api: func(t *testing.T) fakeOptions {
			return fakeOptions{fault: faults.status(http.StatusForbidden, map[string]string{"Retry-After": "3600"}, writesOnly)}
		},
		check:       failing,
		wantExit:    ExitGateFailed,
		wantVerdict: "fail", wantFailed: "check-run,comment",
		wantSummary: []string{"failed-channels: `check-run,comment`", "asked to wait 1h0m0s", "### ❌ evalgate"},
	}, {
		name: "a comment over 65,536 characters is cut, the job summary keeps it whole",
		api:  func(t *testing.T) fakeOptions { return fakeOptions{} },
		check: func(in CheckInput) (*Outcome, error) {
			out, _ := failing(in)
			out.CommentMarkdown = longComment
			return out, nil
		},
		wantExit:    ExitGateFailed,
		wantVerdict: "fail", wantFailed: "",
		wantSummary:  []string{longComment},
		wantComments: 1, wantConclusion: "failure",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			o := tt.api(t)
			if o.baseFiles == nil {
				o.baseFiles = baseFiles
			}
			api := newFakeAPI(t, o)
			inputs := map[string]string{"publish-budget": faultBudget.String(), "request-timeout": faultTimeout.String()}
			for k, v := range tt.inputs {
				inputs[k] = v
			}
			env := newActionEnv(t, api.srv.URL, "pull_request", "pull_request.opened.json", nil, inputs)
			env.vars["GITHUB_RUN_ID"], env.vars["GITHUB_RUN_ATTEMPT"] = "9001", "2"
			start := time.Now()
			code := env.run(fakeCheck(&seen{}, tt.check), nil)
			if took := time.Since(start); took > faultHang {
				t.Errorf("took %s: the %s budget was not kept", took.Round(time.Millisecond), faultBudget)
			}
			log := env.stdout.String()
			if code != tt.wantExit {
				t.Errorf("exit code %d, want %d; log:\n%s", code, tt.wantExit, log)
			}
			outputs := env.readOutputs(t)
			if outputs["verdict"] != tt.wantVerdict || outputs["failed-channels"] != tt.wantFailed {
				t.Errorf("outputs verdict=%q failed-channels=%q, want %q and %q", outputs["verdict"], outputs["failed-channels"], tt.wantVerdict, tt.wantFailed)
			}
			summary := env.readSummary(t)
			if os.Getenv("FAULT_SHOW") != "" {
				t.Logf("summary:\n%.2500s\nlog:\n%s\nrequests: %q", summary, log, api.requests())
			}
			for _, want := range tt.wantSummary {
				if !strings.Contains(summary, want) {
					t.Errorf("summary lacks %.200q:\n%.3000s", want, summary)
				}
			}
			for _, want := range tt.wantLog {
				if !strings.Contains(log, want) {
					t.Errorf("log lacks %q:\n%s", want, log)
				}
			}
			api.mu.Lock()
			defer api.mu.Unlock()
			if n := len(api.comments); n != tt.wantComments {
				t.Errorf("%d comments, want %d", n, tt.wantComments)
			}
			if n := len(api.creates); n > 1 {
				t.Errorf("%d check runs made, want at most 1", n)
			}
			for _, c := range api.creates {
				if c.GetExternalID() != "evalgate/9001/2/evalgate: tutor" {
					t.Errorf("check run external id %q; want this run attempt's and suite's", c.GetExternalID())
				}
			}
			if n := len(api.creates); n == 1 && tt.wantConclusion != "" && (len(api.updates) == 0 || api.updates[len(api.updates)-1].GetStatus() != "completed") {
				t.Errorf("the check run made was left in progress")
			}
			for _, c := range api.comments {
				body := c.GetBody()
				stamp := "\n<!-- evalgate:run=9001.2 -->" // the hidden last line, after the cut
				if !strings.HasSuffix(body, stamp) {
					t.Errorf("comment does not end with the run stamp %q: ...%q", stamp, body[max(len(body)-100, 0):])
				}
				body = strings.TrimSuffix(body, stamp)
				if n := utf8.RuneCountInString(body); n >= 65536 {
					t.Errorf("comment of %d characters; GitHub takes fewer than 65,536", n)
				}
				if len(body) < len(longComment) && tt.wantSummary[0] == longComment && !strings.HasSuffix(body, github.TruncationNote) {
					t.Errorf("cut comment does not end with the truncation note: ...%q", body[len(body)-100:])
				}
			}
			conclusion := ""
			if n := len(api.updates); n > 0 {
				conclusion = api.updates[n-1].GetConclusion()
				if s := api.updates[n-1].GetOutput().GetSummary(); utf8.RuneCountInString(s) > 65535 {
					t.Errorf("check run summary of %d characters", utf8.RuneCountInString(s))
				}
			}
			if conclusion != tt.wantConclusion {
				t.Errorf("check conclusion %q, want %q", conclusion, tt.wantConclusion)
			}
		})
	}
}
