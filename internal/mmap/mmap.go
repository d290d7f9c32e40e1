package mmap

import (
	"fmt"
	"io/fs"
	"os"
)

// Mapping is a whole file held in memory, read-only. Its methods are safe
// for concurrent use except Close, which must not run while the bytes are
// in use.
type Mapping struct {
	data   []byte
	mapped bool       // data came from mmap and must be unmapped
	lease  *lease     // the read lease of MapFileLeased, or nil
	share  *sharedMap // the mapping of MapFileShared this one uses, or nil
}

// Map maps the file at path read-only. An empty file gives an empty
// mapping. The caller must call Close once the bytes are no longer used.
func Map(path string) (*Mapping, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return MapFile(f)
}

// MapFile maps the open file f read-only, as Map maps a path; errors name
// f.Name(). The mapping does not need f: the caller may close f at once,
// and must call Close once the bytes are no longer used.
func MapFile(f *os.File) (*Mapping, error) {
	path := f.Name()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := fi.Size()
	if !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "mmap", Path: path, Err: fmt.Errorf("not a regular file (%v)", fi.Mode().Type())}
	}
	if size < 0 || int64(int(size)) != size {
		return nil, &fs.PathError{Op: "mmap", Path: path, Err: fmt.Errorf("%d bytes do not fit in the address space", size)}
	}
	if size == 0 {
		return &Mapping{data: []byte{}}, nil
	}
	return mapFile(f, path, int(size))
}

// Leased reports whether m holds a read lease on its file (a mapping of
// MapFileLeased, or of MapFileShared that got one): a change to the file
// then leaves m's bytes as they were, and they never fault.
func (m *Mapping) Leased() bool {
	if m.share != nil {
		return m.share.m.lease != nil
	}
	return m.lease != nil
}

// Bytes returns the file's bytes. They alias the mapping: they must not
// be written, and must not be used after Close. After Close, Bytes
// returns nil.
func (m *Mapping) Bytes() []byte { return m.data }

// Close unmaps the file. Using the bytes afterwards faults. Closing twice
// returns nil.
func (m *Mapping) Close() error {
	data, mapped, l, share := m.data, m.mapped, m.lease, m.share
	m.data, m.mapped, m.lease, m.share = nil, false, nil, nil
	if share != nil {
		return share.release()
	}
	if !mapped {
		return nil
	}
	if l != nil {
		l.release() // first: a lease break must not remap what is unmapped
	}
	return unmap(data)
}
