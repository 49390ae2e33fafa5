package settle

import (
	"errors"
	"fmt"
	"time"
)

// Config is the config's `settle:` block: the limits of `check --settle` (its flags
// override them).
//
//	settle:
//	  budget: 10         # extra item-runs (default: 20 % of the suite, rounded up, at least 8)
//	  timeout: 10m       # wall-clock limit of the re-runs, not of the scoring (default: none)
//	  max_cost_usd: 0.50 # dollars the re-runs may cost (default: none)
type Config struct {
	Budget     int           `yaml:"budget" json:"budget,omitempty"`
	Timeout    time.Duration `yaml:"timeout" json:"timeout,omitempty"`
	MaxCostUSD float64       `yaml:"max_cost_usd" json:"max_cost_usd,omitempty"`
}

// Validate checks the limits (a nil Config has none).
func (c *Config) Validate() error {
	switch {
	case c == nil:
		return nil
	case c.Budget < 0:
		return fmt.Errorf("budget is %d; want a number of extra item-runs (0: 20 %% of the suite, at least 8)", c.Budget)
	case c.Timeout < 0:
		return fmt.Errorf("timeout is %s; want a positive duration such as 10m", c.Timeout)
	case c.MaxCostUSD < 0:
		return fmt.Errorf("max_cost_usd is %v; want a positive amount of US dollars (0: no cap)", c.MaxCostUSD)
	}
	return nil
}

// Command is the config's `rerun:` template: the command that re-runs some items with
// the tool that made the results, as a list of arguments or one string split at
// spaces (quotes group). {ids} stands for the items, in the tool's own terms, and {out}
// for the results file it must write. It runs directly, never through a shell.
type Command []string

// UnmarshalYAML reads a list of arguments, or one string split into them.
func (c *Command) UnmarshalYAML(unmarshal func(any) error) error {
	var list []string
	if err := unmarshal(&list); err == nil {
		*c = list
		return c.validate()
	}
	var s string
	if err := unmarshal(&s); err != nil {
		return errors.New("rerun: want a command: a list of arguments, or one string")
	}
	args, err := Split(s)
	if err != nil {
		return fmt.Errorf("rerun: %w", err)
	}
	*c = args
	return c.validate()
}

func (c Command) validate() error {
	if len(c) == 0 {
		return errors.New("rerun: the command is empty; want e.g. [promptfoo, eval, --filter-pattern, \"{ids}\", -o, \"{out}\"]")
	}
	var ids, out bool
	for _, a := range c {
		ids = ids || containsPlaceholder(a, PlaceholderIDs)
		out = out || containsPlaceholder(a, PlaceholderOut)
	}
	if !ids || !out {
		return fmt.Errorf("rerun: the command must hold %s (the items to re-run) and %s (the results file to write)", PlaceholderIDs, PlaceholderOut)
	}
	return nil
}
