// Package cli is evalgate's command line: flags and wiring. It is the only package that
// imports every other one; each command has an options struct and a run function.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/eval"
	"github.com/evalgate/evalgate/internal/gate"
	"github.com/evalgate/evalgate/internal/suggest"
)

// Exit codes: the names of gate's one table (gate.ExitPass and the rest), so every
// command exits the same way for the same verdict.
const (
	ExitPass        = gate.ExitPass
	ExitGateFailed  = gate.ExitFail
	ExitBadInput    = gate.ExitBadInput
	ExitCouldNotRun = gate.ExitCouldNotRun
)

// CLI holds the process's streams and environment, so tests can run commands in-process.
type CLI struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	Now            func() time.Time
	// GitSHA returns the code version when GITHUB_SHA is unset; nil runs git.
	GitSHA func() string
}

// New returns a CLI on the real process.
func New() *CLI {
	return &CLI{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Now: time.Now}
}

type command struct {
	name, summary string
	// docs names the pages that document the command, repository paths with an
	// anchor where one section does; its --help ends with them.
	docs string
	run  func(c *CLI, args []string) int
}

func commands() []command {
	return []command{
		{"check", "score the results, compare with the baseline, decide the gates (the main job)", "README.md#commands, docs/gate-trust.md (the verdict), docs/settle.md (--settle), docs/cost.md (cost)", (*CLI).check},
		{"score", "score the results and print the breakdown (no baseline, always exit 0 on good input)", "README.md#commands, docs/sharding.md (--shard)", (*CLI).score},
		{"merge", "join the JSON reports of `score --shard i/n` into the whole suite's report and gate it", "docs/sharding.md", (*CLI).merge},
		{"compare", "compare two saved reports or baselines (a release-to-release diff)", "README.md#commands", (*CLI).compare},
		{"baseline", "write the stable distribution from N runs of a release", "README.md#concepts, docs/judge.md#judge-reliability (the judge flags), docs/sharding.md#the-baseline-of-a-sharded-release (--report)", (*CLI).baseline},
		{"history", "print the score's history: one line per baseline refresh", "README.md#commands", (*CLI).historyCmd},
		{"validate", "check a config (and its suite and results) without scoring", "README.md#commands, docs/judge.md#calibration-against-people (calibration:)", (*CLI).validate},
		{"judge-check", "re-judge a sample of outputs with the cache bypassed and report each judge's self-agreement (Krippendorff's α)", "docs/judge.md#judge-reliability", (*CLI).judgeCheck},
		{"init", "write a starter evalgate.yaml, a sample suite and the two GitHub workflows", "docs/getting-started.md, README.md#results-from-promptfoo-lm-eval-and-inspect-ai (--from)", (*CLI).initCmd},
		{"import", "convert promptfoo, lm-eval or Inspect AI results to evalgate's JSONL", "README.md#results-from-promptfoo-lm-eval-and-inspect-ai", (*CLI).importCmd},
		{"run", "run the system under test over the suite and write results", "docs/run.md, docs/sharding.md (--shard), docs/settle.md (--only)", (*CLI).runCmd},
		{"action", "the GitHub Action entrypoint (reads INPUT_* and GITHUB_* variables)", "docs/action.md", (*CLI).action},
	}
}

// Main runs evalgate with os.Args-style arguments and returns the exit code.
func (c *CLI) Main(args []string) int {
	if len(args) < 2 {
		c.usage(c.Stderr)
		return ExitBadInput
	}
	name := args[1]
	switch name {
	case "-h", "--help", "help":
		c.usage(c.Stdout)
		return ExitPass
	case "--version", "-version", "version":
		fmt.Fprintf(c.Stdout, "evalgate %s\n", EvalgateVersion())
		return ExitPass
	}
	for _, cmd := range commands() {
		if cmd.name == name {
			return cmd.run(c, args[2:])
		}
	}
	var names []string
	for _, cmd := range commands() {
		names = append(names, cmd.name)
	}
	hint := ""
	if h := suggest.DidYouMean(name, names); h != "" {
		hint = "; " + strings.TrimSpace(h)
	}
	fmt.Fprintf(c.Stderr, "evalgate: unknown command %q%s\n\n", name, hint)
	c.usage(c.Stderr)
	return ExitBadInput
}

func (c *CLI) usage(w io.Writer) {
	fmt.Fprintf(w, "evalgate gates pull requests on the quality of an LLM system.\n\nUsage:\n  evalgate <command> [flags]\n\nCommands:\n")
	width := 0
	for _, cmd := range commands() {
		width = max(width, len(cmd.name))
	}
	for _, cmd := range commands() {
		fmt.Fprintf(w, "  %-*s %s\n", width+1, cmd.name, cmd.summary)
	}
	fmt.Fprintf(w, "\nRun `evalgate <command> -h` for a command's flags and its docs page, `evalgate --version` for the version.\nDocs: README.md and docs/ in %s; from an empty repository to a gated pull request: docs/getting-started.md.\n\nExit codes: 0 pass, warn, accepted, or inconclusive (regression.inconclusive: warn); 1 fail, or inconclusive with regression.inconclusive: block; 2 bad usage or bad input; 3 could not run (I/O, network, internal error).\n", docsRepo)
}

// fail prints an error and returns its exit code (gate.ErrorExitCode): 3 when evalgate
// could not run (I/O, network), else 2 (bad input, mismatched baselines).
func (c *CLI) fail(err error) int {
	var ie *eval.InputError
	var me *baseline.MismatchError
	switch {
	case errors.As(err, &ie):
		fmt.Fprintf(c.Stderr, "%s\n", ie.Error())
	case errors.As(err, &me):
		fmt.Fprintf(c.Stderr, "evalgate: %s\n", me.Msg)
	default:
		fmt.Fprintf(c.Stderr, "evalgate: %v\n", err)
	}
	return gate.ErrorExitCode(err)
}

func (c *CLI) codeVersion() string {
	if sha := c.Getenv("GITHUB_SHA"); sha != "" {
		return sha
	}
	if c.GitSHA != nil {
		return c.GitSHA()
	}
	out, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
