package cli

import "fmt"

func (c *CLI) runCmd(args []string) int {
	fmt.Fprintln(c.Stderr, "evalgate run: not wired yet")
	return ExitBadInput
}

func (c *CLI) action(args []string) int {
	fmt.Fprintln(c.Stderr, "evalgate action: not wired yet")
	return ExitBadInput
}
