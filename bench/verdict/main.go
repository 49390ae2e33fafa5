// Command verdict measures the regression verdict through the real evalgate binary:
// for each cell (a noise model, a change, the pull request's runs, settle or not) it
// draws suites, baseline runs and pull-request runs, runs `evalgate baseline` and
// `evalgate check` (with --settle where the cell says so, re-running items through an
// exec `run:` block that draws from the same model), and prints false-block and
// detection rates with Wilson 95 % intervals, interval coverage, and settle's cost.
//
//	go run ./bench/verdict                       # 20 trials a cell (quick)
//	go run ./bench/verdict -trials 400           # the documented figures
//	go run ./bench/verdict -cells flaky4-3runs -trials 100 -parallel 2
//
// See bench/verdict/README.md.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"
)

func main() {
	if len(os.Args) == 3 && os.Args[1] == "rerun-item" {
		if err := rerunItem(os.Args[2]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "verdict:", err)
		os.Exit(2)
	}
}

// options are the command line's settings.
type options struct {
	trials   int
	cells    string
	parallel int
	seed     uint64
	maxDrop  float64
	bin      string
	work     string
	keep     bool
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("verdict", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	fs.IntVar(&o.trials, "trials", 20, "trials per cell (the documented figures use 400)")
	fs.StringVar(&o.cells, "cells", "all", "comma-separated cells to run (see README)")
	fs.IntVar(&o.parallel, "parallel", runtime.GOMAXPROCS(0), "trials run at once")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of every draw; the same seed gives the same trials")
	fs.Float64Var(&o.maxDrop, "max-drop", 0.02, "the gate's max_drop (0.02 = 2 pts)")
	fs.StringVar(&o.bin, "evalgate", "", "evalgate binary to measure (default: built from ./cmd/evalgate into the work folder)")
	fs.StringVar(&o.work, "work", "", "work folder (default: a new temporary folder, removed at the end)")
	fs.BoolVar(&o.keep, "keep", false, "keep every trial's files in the work folder")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if o.trials < 1 || o.parallel < 1 {
		return errors.New("-trials and -parallel must be at least 1")
	}
	chosen, err := pick(cells(), o.cells)
	if err != nil {
		return err
	}
	if o.work == "" {
		if o.work, err = os.MkdirTemp("", "evalgate-verdict-"); err != nil {
			return err
		}
		if !o.keep {
			defer os.RemoveAll(o.work)
		}
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	if o.bin == "" {
		o.bin = filepath.Join(o.work, "evalgate")
		fmt.Fprintln(stderr, "verdict: building ./cmd/evalgate")
		cmd := exec.CommandContext(ctx, "go", "build", "-o", o.bin, "./cmd/evalgate")
		cmd.Stdout, cmd.Stderr = stderr, stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("go build ./cmd/evalgate (run from the repository's root): %w", err)
		}
	}
	h := harness{bin: []string{o.bin}, rerun: []string{self, "rerun-item"}, maxDrop: o.maxDrop, keep: o.keep}
	fmt.Fprintf(stdout, "evalgate verdict harness · %s · commit %s · seed %d · %d trials a cell · max_drop %.1f pts\n\n",
		time.Now().UTC().Format("2006-01-02 15:04 UTC"), commit(), o.seed, o.trials, 100*o.maxDrop)
	for _, c := range chosen {
		start := time.Now()
		res, err := measure(ctx, h, c, o)
		if err != nil {
			return fmt.Errorf("cell %s: %w", c.name, err)
		}
		printCell(stdout, c, res, time.Since(start))
	}
	return nil
}

// measure runs a cell's trials, o.parallel at once.
func measure(ctx context.Context, h harness, c cell, o options) ([]trialOut, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	outs := make([]trialOut, o.trials)
	next := make(chan int)
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		ferr error
	)
	for range min(o.parallel, o.trials) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range next {
				dir := filepath.Join(o.work, c.name, fmt.Sprintf("trial%04d", t+1))
				out, err := h.trial(ctx, c, seedOf(o.seed, c.name, t+1), dir)
				if err != nil {
					mu.Lock()
					if ferr == nil {
						ferr = fmt.Errorf("trial %d (%s): %w", t+1, dir, err)
						cancel()
					}
					mu.Unlock()
					continue
				}
				outs[t] = out
			}
		}()
	}
	for t := range o.trials {
		select {
		case next <- t:
		case <-ctx.Done():
		}
	}
	close(next)
	wg.Wait()
	if ferr == nil && ctx.Err() != nil {
		ferr = ctx.Err()
	}
	return outs, ferr
}

// commit is the working tree's git commit, "unknown" outside a checkout.
func commit() string {
	b, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	c := strings.TrimSpace(string(b))
	if st, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(st) > 0 {
		c += "+dirty"
	}
	return c
}
