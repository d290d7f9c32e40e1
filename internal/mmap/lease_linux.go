package mmap

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// MapFileLeased maps the open file f read-only as MapFile does, under a
// read lease on the file (fcntl F_SETLEASE, F_RDLCK) that the mapping
// holds until Close.
//
// A process (this one included) that then opens the file for writing,
// truncates it or removes its last link waits (open(2), truncate(2)):
// the kernel signals this process (SIGIO), and before the lease is given
// back the mapping's pages are replaced, at the same addresses, by a
// read-only copy of the file's bytes in memory. The bytes, and every
// slice of them, keep their values and never fault, however the file
// changes afterwards; the copy takes memory the size of the file (once
// for all the mappings of the file) until the last of them is closed.
// The kernel waits for the copy at most /proc/sys/fs/lease-break-time
// seconds (45 by default) before breaking the lease itself.
//
// The system grants a lease only to the file's owner (or a process with
// CAP_LEASE), for a regular file on a local file system that no process
// has open for writing: otherwise MapFileLeased returns an error wrapping
// ErrNoLease, and the caller may map the file without a lease or read it.
// Each lease holds a file descriptor until Close: past a quarter of the
// process's limit of open files (RLIMIT_NOFILE, at most 4,096 leases),
// and out of descriptors, MapFileLeased returns ErrNoLease too, so that
// leases never starve the process of descriptors. So it does when the
// files leased at once would take more than a quarter of the machine's
// memory (or more than a break can copy in half the lease-break-time at
// 1 GB/s), which a break of all of them would copy.
// f must be open read-only; the caller may close it at once.
func MapFileLeased(f *os.File) (*Mapping, error) {
	// The lease lives on a descriptor of its own: past maxLeases, or out
	// of descriptors (EMFILE), a file is mapped without one.
	leases.Lock()
	full := len(leases.set) >= maxLeases()
	leases.Unlock()
	if full {
		return nil, &fs.PathError{Op: "lease", Path: f.Name(), Err: fmt.Errorf("%w: %d leases held already", ErrNoLease, maxLeases())}
	}
	fd, err := unix.FcntlInt(f.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "lease", Path: f.Name(), Err: fmt.Errorf("%w: %w", ErrNoLease, err)}
	}
	startWatch()
	// The lease comes first: the size read next cannot change under it.
	if _, err := unix.FcntlInt(uintptr(fd), unix.F_SETLEASE, unix.F_RDLCK); err != nil {
		unix.Close(fd)
		return nil, &fs.PathError{Op: "lease", Path: f.Name(), Err: fmt.Errorf("%w: %w", ErrNoLease, err)}
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unlease(fd)
		return nil, &fs.PathError{Op: "stat", Path: f.Name(), Err: err}
	}
	// A break copies the file into memory: the files leased at once may
	// take at most leaseBudget bytes.
	leases.Lock()
	over := leases.bytes+st.Size > leaseBudget()
	if !over {
		leases.bytes += st.Size
	}
	leases.Unlock()
	if over {
		unlease(fd)
		return nil, &fs.PathError{Op: "lease", Path: f.Name(), Err: fmt.Errorf("%w: %d bytes, and the leased files may take %d bytes at most (the memory a copy of them takes)", ErrNoLease, st.Size, leaseBudget())}
	}
	m, err := MapFile(f)
	if err != nil || !m.mapped { // an error, or an empty file: nothing to keep
		unreserve(st.Size)
		unlease(fd)
		return m, err
	}
	l := &lease{fd: fd, data: m.data, size: st.Size, key: fileKey{dev: uint64(st.Dev), ino: uint64(st.Ino), n: len(m.data)}}
	leases.Lock()
	leases.set[l] = struct{}{}
	leases.Unlock()
	m.lease = l
	// A break that began before l was registered signalled a scan that
	// did not see it: answer it now.
	breakAsked([]*lease{l})
	return m, nil
}

// ErrNoLease is the error MapFileLeased wraps when the system grants no
// lease on the file.
var ErrNoLease = errors.New("no lease on the file")

// maxLeases returns the number of leases held at most: a quarter of the
// limit of open files, at most 4,096.
var maxLeases = sync.OnceValue(func() int {
	var r unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &r); err != nil || r.Cur == unix.RLIM_INFINITY {
		return 4096
	}
	return int(min(r.Cur/4, 4096))
})

// leaseBudget returns the bytes that the files leased at once may take:
// a quarter of the machine's memory, and at most what a break copies
// in half the kernel's lease-break-time at 1 GB/s (45 s by default:
// 22.5 GB), so that a copy is done before the kernel stops waiting.
var leaseBudget = sync.OnceValue(func() int64 {
	budget := int64(1) << 62
	var si unix.Sysinfo_t
	if err := unix.Sysinfo(&si); err == nil {
		budget = min(budget, int64(si.Totalram)*int64(si.Unit)/4)
	}
	breakTime := int64(45)
	if b, err := os.ReadFile("/proc/sys/fs/lease-break-time"); err == nil {
		if v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && v > 0 {
			breakTime = v
		}
	}
	return min(budget, breakTime*1e9/2)
})

// unreserve returns n bytes to the lease budget.
func unreserve(n int64) {
	leases.Lock()
	leases.bytes -= n
	leases.Unlock()
}

// leasesHeld returns the number of leases held.
func leasesHeld() int {
	leases.Lock()
	defer leases.Unlock()
	return len(leases.set)
}

// lease is the read lease of one mapping.
type lease struct {
	mu     sync.Mutex
	fd     int    // holds the lease; -1 once given back
	data   []byte // the mapping
	size   int64  // the file's size, reserved in the lease budget
	key    fileKey
	broken bool // the kernel asked the lease back
}

// wasBroken reports whether the kernel asked l back: the mapping then
// holds a copy of the file as it was.
func (l *lease) wasBroken() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.broken
}

// leases are the leases held, which a lease break signal asks about.
var leases = struct {
	sync.Mutex
	set   map[*lease]struct{}
	bytes int64 // the sizes of the files of set, and of those being leased
}{set: map[*lease]struct{}{}}

var watchOnce sync.Once

// startWatch starts, once, the goroutine that answers lease breaks.
func startWatch() {
	watchOnce.Do(func() {
		ch := make(chan os.Signal, 1)
		signal.Notify(ch, syscall.SIGIO)
		go func() {
			for range ch {
				breakLeases()
			}
		}()
	})
}

// breakLeases detaches the mappings of the leases the kernel asks back.
// The signal does not say which file (SIGIO carries no file without
// F_SETSIG, which os/signal cannot read), and signals of several breaks
// may merge into one, so every lease held is asked. The mappings of one
// file (one lease each; a break asks for all of them at once) share one
// copy.
func breakLeases() {
	leases.Lock()
	held := make([]*lease, 0, len(leases.set))
	for l := range leases.set {
		held = append(held, l)
	}
	leases.Unlock()
	breakAsked(held)
}

// breakAsked detaches the mappings of the leases of held that the kernel
// asks back.
func breakAsked(held []*lease) {
	copies := map[fileKey]*os.File{}
	defer func() {
		for _, c := range copies {
			if c != nil {
				c.Close() // the mappings keep the copy's memory
			}
		}
	}()
	for _, l := range held {
		l.breakIfAsked(copies)
	}
}

// fileKey names a file's bytes: its device and inode, and the length of
// the mappings of it (all equal while the file is leased).
type fileKey struct {
	dev, ino uint64
	n        int
}

// breakIfAsked detaches l's mapping and gives the lease back if the
// kernel asks it back: during a break, F_GETLEASE returns the type the
// lease is to become (F_UNLCK) rather than F_RDLCK.
func (l *lease) breakIfAsked(copies map[fileKey]*os.File) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.fd < 0 {
		return
	}
	if t, err := unix.FcntlInt(uintptr(l.fd), unix.F_GETLEASE, 0); err == nil && t == unix.F_RDLCK {
		return
	}
	c, ok := copies[l.key]
	if !ok {
		c = copyOf(l.fd, len(l.data))
		copies[l.key] = c
	}
	if c != nil {
		// MAP_FIXED replaces the file's pages by the copy's at once.
		_, _ = unix.MmapPtr(int(c.Fd()), 0, unsafe.Pointer(unsafe.SliceData(l.data)), uintptr(len(l.data)), unix.PROT_READ, unix.MAP_SHARED|unix.MAP_FIXED)
	}
	unlease(l.fd)
	l.fd, l.broken = -1, true
}

// copyOf returns a memory file (memfd_create) holding a copy of the n
// bytes of the file fd, or nil if the system refuses one: the file then
// stays mapped, and when the lease is gone and the file shrinks, reading
// the lost pages faults as without a lease. The kernel copies (sendfile),
// from the page cache to the memory file, without faulting in either
// mapping.
func copyOf(fd, n int) *os.File {
	mfd, err := unix.MemfdCreate("fstensor-lease-copy", unix.MFD_CLOEXEC)
	if err != nil {
		return nil
	}
	f := os.NewFile(uintptr(mfd), "fstensor-lease-copy")
	var off int64
	for off < int64(n) {
		k, err := unix.Sendfile(mfd, fd, &off, min(n-int(off), 1<<30))
		if err == unix.EINTR || err == unix.EAGAIN {
			continue
		}
		if err != nil || k == 0 {
			f.Close()
			return nil
		}
	}
	return f
}

// unlease gives the lease back and closes its descriptor.
func unlease(fd int) {
	_, _ = unix.FcntlInt(uintptr(fd), unix.F_SETLEASE, unix.F_UNLCK)
	_ = unix.Close(fd)
}

// release gives l back before its mapping is unmapped; a break that
// holds l.mu finishes first, and none detaches the mapping afterwards.
func (l *lease) release() {
	leases.Lock()
	delete(leases.set, l)
	leases.bytes -= l.size
	leases.Unlock()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.fd >= 0 {
		unlease(l.fd)
		l.fd = -1
	}
}
