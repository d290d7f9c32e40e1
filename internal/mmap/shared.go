package mmap

import (
	"errors"
	"os"
	"sync"
	"time"
)

// MapFileShared maps the open file f as MapFileLeased does (or, where
// the system grants no lease and leaseOnly is false, as MapFile does),
// but shares the mapping with the other mappings of MapFileShared of the
// same file still open: same device and inode, size and modification
// time, and a lease that no change to the file broke since. Each caller
// closes its own Mapping; the shared one is unmapped (its lease given
// back) when the last of them is closed. Concurrent readers of one file
// (a server's calls) then fault its pages in once, not once each, and
// unmap them once.
//
// With leaseOnly, a file the system grants no lease on fails with an
// error wrapping ErrNoLease, as in MapFileLeased. The bytes of a shared
// mapping are those of one mapping made at the first call: a mapping
// without a lease shows what others write to the file, as one of MapFile
// does.
func MapFileShared(f *os.File, leaseOnly bool) (*Mapping, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	key := sharedKey{size: fi.Size(), mtime: fi.ModTime()}
	key.dev, key.ino = fileID(fi)
	shared.Lock()
	defer shared.Unlock()
	for _, leased := range []bool{true, false} {
		key.leased = leased
		if !leased && leaseOnly {
			break
		}
		if e, ok := shared.m[key]; ok && e.usable() {
			e.refs++
			return &Mapping{data: e.m.data, mapped: true, share: e}, nil
		}
	}
	m, err := MapFileLeased(f)
	key.leased = err == nil
	if errors.Is(err, ErrNoLease) && !leaseOnly {
		m, err = MapFile(f)
	}
	if err != nil || !m.mapped {
		return m, err // an error, or an empty file: nothing to share
	}
	e := &sharedMap{key: key, m: m, refs: 1}
	shared.m[key] = e
	return &Mapping{data: m.data, mapped: true, share: e}, nil
}

// sharedKey tells the mappings of MapFileShared that may be shared.
type sharedKey struct {
	dev, ino uint64
	size     int64
	mtime    time.Time
	leased   bool
}

// sharedMap is a mapping of MapFileShared and the number of its users.
type sharedMap struct {
	key  sharedKey
	m    *Mapping
	refs int // guarded by shared
}

// shared holds the mappings of MapFileShared in use.
var shared = struct {
	sync.Mutex
	m map[sharedKey]*sharedMap
}{m: map[sharedKey]*sharedMap{}}

// usable reports whether e may serve a new user: its lease, if it has
// one, was not broken (its bytes would be a copy of an older file).
func (e *sharedMap) usable() bool {
	return e.m.lease == nil || !e.m.lease.wasBroken()
}

// release drops a user of e; the last one unmaps it.
func (e *sharedMap) release() error {
	shared.Lock()
	e.refs--
	last := e.refs == 0
	if last && shared.m[e.key] == e {
		delete(shared.m, e.key)
	}
	shared.Unlock()
	if !last {
		return nil
	}
	return e.m.Close()
}

// Held returns the number of shared mappings and of leases in use: both
// are zero once every Mapping of MapFileShared and MapFileLeased is
// closed, which tests of their users check.
func Held() (mappings, leased int) {
	shared.Lock()
	mappings = len(shared.m)
	shared.Unlock()
	return mappings, leasesHeld()
}
