package npy

import (
	"io"
	"os"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/mmap"
)

// MapColumn memory-maps the .npy file at path and decodes it as
// [DecodeColumn] does. When the file is little-endian (or 1-byte),
// C-ordered (or holds at most one tensor) and its data is aligned, which
// is the case for every file numpy.save writes on a little-endian host,
// the column's values buffer points into the mapping: nothing is copied,
// and pages are read from disk as they are touched. The returned Closer
// then unmaps the file; the column (and every slice or view of it) must
// not be used after Close, which faults, and the caller releases the
// column, then closes. Otherwise (big-endian, Fortran order with
// several tensors) the data is copied into memory from [WithAllocator], the
// file is unmapped at once and Close does nothing; callers should not
// rely on that and should treat every result alike. Where mmap is not
// available (not unix) the file is read into memory whole.
//
// On Linux the mapping holds a read lease on the file where the system
// grants one (the file's owner, a local file system, the file open for
// writing nowhere): a process that truncates or writes the file then
// waits while the mapping becomes a copy of the file in memory, and the
// column keeps its values. Without a lease, the file must not be
// truncated while mapped (reading lost pages raises SIGBUS) and writes to
// it by other processes show through the column.
// Errors are those of [DecodeColumn], and those of opening and mapping
// the file as they come (*fs.PathError).
func MapColumn(path string, opts ...ReadOption) (*fixedshape.Array, io.Closer, error) {
	c, err := newReadConfig(opts)
	if err != nil {
		return nil, nil, err
	}
	return mapFile(path, false, c)
}

// MapTensor is [MapColumn] for a file holding one tensor, as
// [DecodeTensor]: a Fortran-order array becomes the reversed permutation
// and stays a view of the mapping.
func MapTensor(path string, opts ...ReadOption) (*fixedshape.Array, io.Closer, error) {
	c, err := newReadConfig(opts)
	if err != nil {
		return nil, nil, err
	}
	return mapFile(path, true, c)
}

func mapFile(path string, whole bool, o *readConfig) (*fixedshape.Array, io.Closer, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	m, err := mmap.MapFileShared(f, false) // under a lease where granted
	if err != nil {
		return nil, nil, err
	}
	a, err := decode(m.Bytes(), whole, o)
	if err != nil {
		m.Close()
		return nil, nil, err
	}
	if m.Contains(a.ValueBytes()) {
		return a, m, nil
	}
	// A copy: the mapping is no longer needed.
	if err := m.Close(); err != nil {
		a.Release()
		return nil, nil, err
	}
	return a, nopCloser{}, nil
}

// nopCloser is the Closer of a result that does not alias a mapping.
type nopCloser struct{}

func (nopCloser) Close() error { return nil }
