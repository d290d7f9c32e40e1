//go:build linux || darwin || freebsd

package flightserve

import (
	"os"

	"golang.org/x/sys/unix"
)

// freeBytes returns the bytes available to the server on the file system
// of the open directory d, and whether it could tell.
func freeBytes(d *os.File) (int64, bool) {
	var st unix.Statfs_t
	if err := unix.Fstatfs(int(d.Fd()), &st); err != nil {
		return 0, false
	}
	free := uint64(st.Bavail) * uint64(st.Bsize)
	return int64(min(free, 1<<62)), true
}
