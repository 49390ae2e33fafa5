package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/evalgate/evalgate/internal/judge/chat"
)

// stderrTail is how much of a failing command's stderr goes into Result.Error: the end,
// where the reason usually is.
const stderrTail = 512

// waitDelay is how long Wait waits, after the command is killed, for pipes that a
// stray process (one that left the process group) still holds open.
const waitDelay = 2 * time.Second

// maxOutput bounds the stdout kept per item, as evalgate bounds one results line.
const maxOutput = 16 << 20

// Exec runs a command per item: the item's fields as one JSON object on stdin, the
// answer on stdout. The command is run directly (no shell) unless Shell is set.
//
// Its yaml names are those of the `exec:` block of a `run:` config.
type Exec struct {
	// Command is the argv, e.g. ["python3", "sut.py"]. With Shell, it is joined with
	// spaces and run by `sh -c`, for pipes and redirections.
	Command []string `yaml:"command" json:"command"`
	Shell   bool     `yaml:"shell" json:"shell,omitempty"`
	// Dir is the working directory; empty means the current one.
	Dir string `yaml:"dir" json:"dir,omitempty"`
	// Env adds NAME=value entries to the inherited environment. EVALGATE_ITEM_ID is
	// always set to the item's id.
	Env []string `yaml:"env" json:"env,omitempty"`
	// Timeout bounds each item; at the limit the command's process group is killed and
	// the item is recorded with timed_out: true. Zero means no limit.
	Timeout time.Duration `yaml:"timeout" json:"timeout,omitempty"`
	// RequestsPerMinute spaces out item starts; 0 means no limit.
	RequestsPerMinute int `yaml:"requests_per_minute" json:"requests_per_minute,omitempty"`

	limiterOnce sync.Once
	limiter     *chat.Limiter
	// deadline, when set, replaces the Timeout clock: the item times out when its context
	// ends. Tests set it (export_test.go) to time an item out when they choose, not when a
	// real clock races a busy machine.
	deadline func(ctx context.Context, id string) (context.Context, context.CancelFunc)
}

// Run runs the command for one item.
func (e *Exec) Run(ctx context.Context, it Item) (Result, error) {
	if len(e.Command) == 0 {
		return Result{}, errors.New("runner: exec: no command")
	}
	e.limiterOnce.Do(func() { e.limiter = chat.NewLimiter(e.RequestsPerMinute, 0) })
	if err := e.limiter.Wait(ctx, 0); err != nil {
		return Result{}, err
	}
	stdin, err := itemJSON(it)
	if err != nil {
		return Result{}, err
	}
	cctx := ctx
	if e.Timeout > 0 {
		var cancel context.CancelFunc
		if e.deadline != nil {
			cctx, cancel = e.deadline(ctx, it.ID)
		} else {
			cctx, cancel = context.WithTimeout(ctx, e.Timeout)
		}
		defer cancel()
	}
	argv := e.Command
	if e.Shell {
		argv = []string{"sh", "-c", strings.Join(e.Command, " ")}
	}
	cmd := exec.CommandContext(cctx, argv[0], argv[1:]...)
	cmd.Dir = e.Dir
	cmd.Env = append(append(os.Environ(), e.Env...), "EVALGATE_ITEM_ID="+it.ID)
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr limitedBuffer
	stdout.max, stderr.max = maxOutput, maxOutput
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	Contain(cmd)

	start := time.Now()
	if err := cmd.Start(); err != nil {
		// A command that cannot start will not start for the next item either.
		return Result{}, fmt.Errorf("runner: exec %q: %w", argv[0], err)
	}
	werr := cmd.Wait()
	r := Result{ID: it.ID, LatencyE2EMs: millis(time.Since(start))}
	switch {
	case ctx.Err() != nil:
		return Result{}, ctx.Err() // interrupted: this item is not recorded
	case cctx.Err() != nil:
		r.TimedOut = true
		return r, nil
	case werr != nil:
		r.Output = trimNewline(stdout.String())
		r.Error = werr.Error()
		if tail := tailOf(stderr.String()); tail != "" {
			r.Error += ": " + tail
		}
		return r, nil
	case stdout.truncated:
		r.Error = fmt.Sprintf("output is over %d bytes", maxOutput)
		return r, nil
	}
	r.Output = trimNewline(stdout.String())
	return r, nil
}

// itemJSON is the item as one JSON object, its id included.
func itemJSON(it Item) ([]byte, error) {
	m := make(map[string]any, len(it.Fields)+1)
	for k, v := range it.Fields {
		m[k] = v
	}
	m["id"] = it.ID
	b, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("runner: item %q: %w", it.ID, err)
	}
	return b, nil
}

// trimNewline drops the one line ending a program prints after its answer.
func trimNewline(s string) string {
	s = strings.TrimSuffix(s, "\n")
	return strings.TrimSuffix(s, "\r")
}

// tailOf returns the last stderrTail bytes of s, trimmed, marked when cut.
func tailOf(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > stderrTail {
		s = "..." + s[len(s)-stderrTail:]
	}
	return s
}

// limitedBuffer keeps the first max bytes written and notes that more came.
type limitedBuffer struct {
	bytes.Buffer
	max       int
	truncated bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); len(p) > room {
		b.truncated = true
		b.Buffer.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return b.Buffer.Write(p)
}
