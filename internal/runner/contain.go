package runner

import "os/exec"

// Contain makes cancelling cmd's context stop all of it: cmd runs in its own process
// group, which cancellation kills whole (a wrapper script's children, a `sleep`, a tool
// that forks workers), and Wait stops waiting for pipes a stray process still holds
// open after waitDelay. Call it before cmd.Start. Every command evalgate runs for the
// user (the `run:` block's exec, settle's `rerun:` template) goes through it.
func Contain(cmd *exec.Cmd) {
	ownProcessGroup(cmd)
	cmd.WaitDelay = waitDelay
}
