//go:build unix

package atomicfile

import (
	"errors"
	"syscall"
)

// alive reports whether a process pid exists: kill(pid, 0) succeeds, or
// fails with EPERM (the process of another user). Only ESRCH counts as
// gone.
func alive(pid int) bool {
	return !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
