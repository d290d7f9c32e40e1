//go:build !linux

package mmap

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// MapFileLeased returns an error wrapping ErrNoLease: leases (fcntl
// F_SETLEASE) are Linux's. On Linux it maps f under a read lease, so that
// a file changed in place never faults its readers.
func MapFileLeased(f *os.File) (*Mapping, error) {
	return nil, &fs.PathError{Op: "lease", Path: f.Name(), Err: fmt.Errorf("%w: leases are Linux's", ErrNoLease)}
}

// ErrNoLease is the error MapFileLeased wraps when the system grants no
// lease on the file.
var ErrNoLease = errors.New("no lease on the file")

// lease is Linux's; none is ever held here.
type lease struct{}

func (*lease) release() {}

func (*lease) wasBroken() bool { return false }

func leasesHeld() int { return 0 }
