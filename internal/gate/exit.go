package gate

import (
	"errors"
	"io/fs"
	"net"
)

// Exit codes of every evalgate command, the action's step included: the one table.
// Later cases are added here and nowhere else.
//
//	| code | when                                                            |
//	|------|-----------------------------------------------------------------|
//	| 0    | pass, warn, accepted, inconclusive with `inconclusive: warn`    |
//	|      | (and, in the action, a failure that `fail-on` ignores)          |
//	| 1    | fail, inconclusive with `inconclusive: block`                   |
//	| 1    | the baseline the config names is missing and required           |
//	|      | (`require_baseline: true`, or the action's `require-baseline`), |
//	|      | except on the pull request that adds evalgate                   |
//	| 2    | bad usage or bad input (nothing was decided)                    |
//	| 3    | could not run: I/O, network or an internal error (nothing was   |
//	|      | decided; running again may succeed)                             |
const (
	ExitPass        = 0
	ExitFail        = 1
	ExitBadInput    = 2
	ExitCouldNotRun = 3
)

// ExitCode is the process exit code for the verdict.
func (v *Verdict) ExitCode() int {
	if v.Blocks {
		return ExitFail
	}
	return ExitPass
}

// CouldNotRun is implemented by errors that say evalgate could not run (a service that
// did not answer, a file that could not be written), as opposed to bad input. Any error
// in the chain that implements it and returns true makes ErrorExitCode 3.
type CouldNotRun interface{ CouldNotRun() bool }

// ErrorExitCode is the exit code for an error that ended a command before a verdict:
// ExitCouldNotRun for a network error, an I/O error other than a missing path (a file
// that cannot be read or written for lack of permission or space, a device error), or an
// error marked CouldNotRun; ExitBadInput for everything else (a bad flag, file, line or
// item: the user's to fix).
func ErrorExitCode(err error) int {
	var cnr CouldNotRun
	var ne net.Error
	var pe *fs.PathError
	switch {
	case err == nil:
		return ExitPass
	case errors.As(err, &cnr) && cnr.CouldNotRun():
		return ExitCouldNotRun
	case errors.As(err, &pe):
		// A path that is not there, or not a directory where one is wanted, is the
		// user's to fix; anything else the file system says is not. (Before net.Error:
		// a syscall.Errno inside a PathError implements that too.)
		if errors.Is(pe.Err, fs.ErrNotExist) || errors.Is(pe.Err, fs.ErrInvalid) || isPathShape(pe.Err) {
			return ExitBadInput
		}
		return ExitCouldNotRun
	case errors.As(err, &ne):
		return ExitCouldNotRun
	}
	return ExitBadInput
}
