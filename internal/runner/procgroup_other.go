//go:build !unix

package runner

import "os/exec"

// ownProcessGroup is a no-op where process groups do not exist: cancellation kills the
// command itself, and WaitDelay stops waiting for children that hold its pipes.
func ownProcessGroup(*exec.Cmd) {}
