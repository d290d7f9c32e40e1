package flightserve

import (
	"path"
	"path/filepath"
	"sync/atomic"

	"google.golang.org/grpc/codes"
)

// DefaultMaxUploadBytes is the bound of one DoPut when
// Config.MaxUploadBytes is 0: 1 GiB.
const DefaultMaxUploadBytes = 1 << 30

// minFreeBytes is the free space DoPut leaves on the file system of the
// served directory: an upload does not start, and stops, when less would
// remain.
var minFreeBytes = func() *atomic.Int64 {
	var n atomic.Int64
	n.Store(256 << 20)
	return &n
}()

// uploadLimit returns the bound of one DoPut that Config.MaxUploadBytes
// n asks for.
func uploadLimit(n int64) (int64, error) {
	switch {
	case n < 0:
		return 0, optionError("Config.MaxUploadBytes", n, "want 0 for the default or 1 or more")
	case n == 0:
		return DefaultMaxUploadBytes, nil
	}
	return n, nil
}

// upload counts the bytes of one DoPut against the server's limits.
type upload struct {
	s        *Server
	rel      string // the new file
	received int64  // metadata and bodies of the messages
	written  int64  // decoded bytes of the batches written
}

// receive counts n bytes received.
func (u *upload) receive(n int) error {
	u.received += int64(n)
	if u.received > u.s.maxPut {
		return u.tooLarge("received")
	}
	return nil
}

// write counts n decoded bytes about to be written, and checks the free
// space left.
func (u *upload) write(n int64) error {
	u.written += n
	if u.written > u.s.maxPut {
		return u.tooLarge("decoded")
	}
	return u.checkFree()
}

func (u *upload) tooLarge(what string) error {
	return statusf(codes.ResourceExhausted, "flightserve: %q: upload over the limit of %d bytes (%d MiB) %s",
		clipString(u.rel), u.s.maxPut, u.s.maxPut>>20, what)
}

// checkFree refuses to go on when the file system of the new file's
// directory has less than minFreeBytes free. Systems that cannot tell
// pass.
func (u *upload) checkFree() error {
	d, err := u.s.dir.Open(filepath.FromSlash(path.Dir(u.rel)))
	if err != nil {
		return openError(path.Dir(u.rel), err)
	}
	free, ok := freeBytes(d)
	d.Close()
	if limit := minFreeBytes.Load(); ok && free < limit {
		return statusf(codes.ResourceExhausted, "flightserve: %q: the disk keeps %d MiB free, under the %d MiB the server leaves free",
			clipString(u.rel), free>>20, limit>>20)
	}
	return nil
}
