package runner_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/evalgate/evalgate/internal/progress"
	"github.com/evalgate/evalgate/internal/runner"
)

// ignoreLatency leaves latency out of comparisons; tests check it on its own.
var ignoreLatency = cmpopts.IgnoreFields(runner.Result{}, "LatencyE2EMs")

func item(id, mode string) runner.Item {
	return runner.Item{ID: id, Fields: map[string]any{"id": id, "mode": mode, "prompt": "Say <hi> & \"bye\""}}
}

// sleepTimesOut is a fake Timeout clock for an Exec over testdata/sut.sh: an item whose id
// starts with "s" (mode sleep) times out as soon as its sleeping child has written its pid
// to pidFile; no other item ever times out. So no outcome depends on how fast a loaded
// machine starts a shell.
func sleepTimesOut(t *testing.T, sut *runner.Exec, pidFile string) {
	t.Helper()
	runner.SetDeadline(sut, func(ctx context.Context, id string) (context.Context, context.CancelFunc) {
		cctx, cancel := context.WithCancel(ctx)
		if strings.HasPrefix(id, "s") {
			go func() {
				for end := time.Now().Add(20 * time.Second); time.Now().Before(end) && cctx.Err() == nil; time.Sleep(10 * time.Millisecond) {
					if b, err := os.ReadFile(pidFile); err == nil && strings.HasSuffix(string(b), "\n") {
						break
					}
				}
				cancel()
			}()
		}
		return cctx, cancel
	})
}

func TestExecRun(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "sleep.pid") // the sleeping child's, for the timeout case
	sut := &runner.Exec{Command: []string{"testdata/sut.sh"}, Timeout: time.Hour, Env: []string{"SUT_PID_FILE=" + pidFile}}
	sleepTimesOut(t, sut, pidFile)
	tests := []struct {
		name string
		it   runner.Item
		want runner.Result
	}{
		{
			// The item arrives on stdin as compact JSON with sorted keys; stdout loses
			// only its final newline.
			name: "echo",
			it:   item("e1", "echo"),
			want: runner.Result{ID: "e1", Output: `{"id":"e1","mode":"echo","prompt":"Say \u003chi\u003e \u0026 \"bye\""}`},
		},
		{
			name: "item id in the environment",
			it:   item("env-7", "env"),
			want: runner.Result{ID: "env-7", Output: "env-7"},
		},
		{
			name: "non-zero exit keeps stdout and the end of stderr",
			it:   item("f1", "fail"),
			want: runner.Result{ID: "f1", Output: "partial answer", Error: "exit status 3: warming up\nboom: the model file is missing"},
		},
		{
			name: "sleep past the timeout",
			it:   item("s1", "sleep"),
			want: runner.Result{ID: "s1", TimedOut: true},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			got, err := sut.Run(context.Background(), tt.it)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, ignoreLatency); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
			el := time.Since(start)
			if got.LatencyE2EMs <= 0 || got.LatencyE2EMs > float64(el.Milliseconds()+1) {
				t.Errorf("latency %.3f ms; want within (0, %d] ms, the time Run took", got.LatencyE2EMs, el.Milliseconds()+1)
			}
			if tt.want.TimedOut {
				// The script's child sleeps 30 s. Killing the process group ends it;
				// killing only the shell would leave it running (holding stdout until
				// the 2 s WaitDelay). Whatever the machine's load, it must be gone.
				b, err := os.ReadFile(pidFile)
				if err != nil {
					t.Fatal(err)
				}
				pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
				if err != nil {
					t.Fatal(err)
				}
				if runtime.GOOS != "linux" {
					t.Log("no /proc: the child's end is not checked here")
				} else if !processGone(pid, 20*time.Second) {
					t.Errorf("the timed-out item's child (pid %d) still runs: the process group was not killed", pid)
				}
				if el > 40*time.Second {
					t.Errorf("timed-out item took %s", el)
				}
			}
		})
	}
}

func TestExecShell(t *testing.T) {
	t.Parallel()
	sut := &runner.Exec{Command: []string{"tr", "a-z", "A-Z", "|", "cut", "-c1-9"}, Shell: true}
	got, err := sut.Run(context.Background(), runner.Item{ID: "x", Fields: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	// stdin is {"id":"x"}; upper-cased and cut to 9 characters.
	if got.Output != `{"ID":"X"` {
		t.Errorf("output %q; want the item JSON upper-cased by the pipeline", got.Output)
	}
}

func TestExecCannotStart(t *testing.T) {
	t.Parallel()
	sut := &runner.Exec{Command: []string{"testdata/no-such-program"}}
	if _, err := sut.Run(context.Background(), item("a", "echo")); err == nil || !strings.Contains(err.Error(), "no-such-program") {
		t.Errorf("err = %v; want a run-ending error naming the program", err)
	}
}

func TestRunWritesJSONL(t *testing.T) {
	t.Parallel()
	var out lineRecorder
	pidFile := filepath.Join(t.TempDir(), "sleep.pid")
	sut := &runner.Exec{Command: []string{"testdata/sut.sh"}, Timeout: time.Hour, Env: []string{"SUT_PID_FILE=" + pidFile}}
	sleepTimesOut(t, sut, pidFile)
	items := []runner.Item{item("a", "echo"), item("b", "fail"), item("s", "sleep"), item("d", "env")}
	var prog bytes.Buffer
	p := progress.NewBar(&prog, nil, "run", len(items))
	sum, err := runner.Run(context.Background(), sut, items, &out, runner.Options{Concurrency: 4, Progress: p})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(runner.Summary{Items: 4, Written: 4, TimedOut: 1, Errors: 1}, sum); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	// Four items: a plain line per item (each is a tenth or more), the last at 4/4.
	if !strings.HasSuffix(prog.String(), "run: 4/4 (100%)\n") || strings.Count(prog.String(), "\n") != 4 {
		t.Errorf("progress:\n%s\nwant 4 lines ending with run: 4/4 (100%%)", prog.String())
	}
	lines := out.lines()
	var ids []string
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		// Every line carries every key, null when unknown.
		var keys []string
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		want := []string{"cached_input_tokens", "error", "id", "input_tokens", "latency_e2e_ms", "latency_model_ms", "model", "output", "output_tokens", "timed_out"}
		if diff := cmp.Diff(want, keys); diff != "" {
			t.Errorf("keys of %q (-want +got):\n%s", l, diff)
		}
		ids = append(ids, m["id"].(string))
	}
	slices.Sort(ids)
	if diff := cmp.Diff([]string{"a", "b", "d", "s"}, ids); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
}

func TestRunInterruptedKeepsFinishedLines(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Cancel as soon as the first line is written: the fast item is kept, the item
	// still sleeping is dropped, not recorded as a failure.
	out := &lineRecorder{onWrite: cancel}
	sut := &runner.Exec{Command: []string{"testdata/sut.sh"}}
	start := time.Now()
	sum, err := runner.Run(ctx, sut, []runner.Item{item("slow", "sleep"), item("fast", "echo")}, out, runner.Options{Concurrency: 2})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v; want context.Canceled", err)
	}
	lines := out.lines()
	if len(lines) != 1 || !strings.Contains(lines[0], `"id":"fast"`) || sum.Written != 1 {
		t.Errorf("lines %q, summary %+v; want only the fast item", lines, sum)
	}
	// The slow item sleeps 30 s; the cancel must kill it well before (20 s is roomy for
	// any load).
	if el := time.Since(start); el > 20*time.Second {
		t.Errorf("interrupted run took %s", el)
	}
}

// lineRecorder is an io.Writer that keeps each Write and checks it is one whole line.
type lineRecorder struct {
	mu      sync.Mutex
	writes  []string
	onWrite func()
}

func (r *lineRecorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	r.writes = append(r.writes, string(p))
	r.mu.Unlock()
	if r.onWrite != nil {
		r.onWrite()
	}
	return len(p), nil
}

func (r *lineRecorder) lines() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, w := range r.writes {
		if !strings.HasSuffix(w, "\n") || strings.Count(w, "\n") != 1 {
			panic("a write is not exactly one line: " + w)
		}
		out = append(out, strings.TrimSuffix(w, "\n"))
	}
	return out
}

func TestCompletedAndResume(t *testing.T) {
	t.Parallel()
	path := t.TempDir() + "/results.jsonl"
	// Two whole lines and a third cut short by a kill.
	prior := `{"id":"a","output":"x"}` + "\n" + `{"id":"b","output":"y"}` + "\n" + `{"id":"c","out`
	if err := writeFile(path, prior); err != nil {
		t.Fatal(err)
	}
	f, done, err := runner.OpenResume(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]bool{"a": true, "b": true}, done); diff != "" {
		t.Errorf("done (-want +got):\n%s", diff)
	}
	if _, err := f.WriteString(`{"id":"c","output":"z"}` + "\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	got, _ := readFile(path)
	want := `{"id":"a","output":"x"}` + "\n" + `{"id":"b","output":"y"}` + "\n" + `{"id":"c","output":"z"}` + "\n"
	if got != want {
		t.Errorf("file after resume:\n%s\nwant:\n%s", got, want)
	}
	again, err := runner.Completed(bytes.NewReader([]byte(got)))
	if err != nil || len(again) != 3 {
		t.Errorf("Completed = %v, %v; want 3 ids", again, err)
	}
}

// processGone waits up to limit for pid to end (Linux: read from /proc): no such
// process, or a zombie (ended, not yet reaped by whoever adopted it).
func processGone(pid int, limit time.Duration) bool {
	for end := time.Now().Add(limit); ; time.Sleep(20 * time.Millisecond) {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return true
		}
		// The state follows the command name in parentheses: "pid (comm) S ...".
		if i := bytes.LastIndexByte(stat, ')'); i >= 0 && i+2 < len(stat) && stat[i+2] == 'Z' {
			return true
		}
		if time.Now().After(end) {
			return false
		}
	}
}
