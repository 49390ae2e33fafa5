package cli

import "fmt"

func (c *CLI) action(args []string) int {
	fmt.Fprintln(c.Stderr, "evalgate action: not wired yet")
	return ExitBadInput
}
