package runner

import (
	"errors"
	"fmt"
)

// Modes of Config.Mode.
const (
	ModeExec   = "exec"
	ModeOpenAI = "openai"
)

// Config is the `run:` block of evalgate.yaml: which system under test to run and
// how many items at once. Exactly one of Exec and OpenAI is set; Mode may say which
// and must agree.
//
//	run:
//	  concurrency: 4
//	  exec:
//	    command: [python3, sut.py]
//	    timeout: 30s
type Config struct {
	Mode        string `yaml:"mode" json:"mode,omitempty"`
	Concurrency int    `yaml:"concurrency" json:"concurrency,omitempty"`
	// MaxCostUSD caps what one `evalgate run` spends (openai mode; --max-cost-usd
	// overrides it): see Options.Budget. 0: no cap.
	MaxCostUSD float64       `yaml:"max_cost_usd" json:"max_cost_usd,omitempty"`
	Exec       *Exec         `yaml:"exec" json:"exec,omitempty"`
	OpenAI     *OpenAIConfig `yaml:"openai" json:"openai,omitempty"`
}

// System checks the config and builds the system under test; getenv (os.Getenv when
// nil) supplies the openai mode's base URL and key.
func (c *Config) System(getenv func(string) string) (System, error) {
	mode := c.Mode
	switch {
	case c.Exec != nil && c.OpenAI != nil:
		return nil, errors.New("run: both exec and openai are set; keep one")
	case mode == "" && c.Exec != nil:
		mode = ModeExec
	case mode == "" && c.OpenAI != nil:
		mode = ModeOpenAI
	}
	if c.MaxCostUSD < 0 {
		return nil, fmt.Errorf("run: max_cost_usd is %v; want a positive amount of US dollars (0: no cap)", c.MaxCostUSD)
	}
	if c.Concurrency < 0 {
		return nil, fmt.Errorf("run: concurrency is %d; want 0 (the default, %d) or more", c.Concurrency, DefaultConcurrency)
	}
	switch mode {
	case ModeExec:
		if c.Exec == nil || len(c.Exec.Command) == 0 {
			return nil, errors.New("run: exec mode needs exec.command, e.g. [python3, sut.py]")
		}
		if c.Exec.Timeout < 0 {
			return nil, fmt.Errorf("run: exec.timeout is %s; want a positive duration", c.Exec.Timeout)
		}
		return c.Exec, nil
	case ModeOpenAI:
		if c.OpenAI == nil {
			return nil, errors.New("run: openai mode needs an openai block with at least a model")
		}
		return NewOpenAI(*c.OpenAI, getenv, c.concurrency())
	case "":
		return nil, errors.New("run: no system under test; add an exec or an openai block")
	}
	return nil, fmt.Errorf("run: unknown mode %q; want %s or %s", mode, ModeExec, ModeOpenAI)
}

func (c *Config) concurrency() int {
	if c.Concurrency > 0 {
		return c.Concurrency
	}
	return DefaultConcurrency
}
