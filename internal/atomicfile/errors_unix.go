//go:build unix

package atomicfile

import (
	"errors"
	"syscall"
)

// isInvalid reports the EINVAL some file systems return for a directory
// fsync.
func isInvalid(err error) bool { return errors.Is(err, syscall.EINVAL) }
