//go:build unix

package runner

import (
	"os/exec"
	"syscall"
)

// ownProcessGroup puts the command in a new process group and makes cancellation kill
// the whole group: a shell script's children (a `sleep`, a model server client) die
// with it instead of holding stdout open and the run hostage.
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
