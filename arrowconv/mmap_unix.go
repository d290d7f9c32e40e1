//go:build unix

package arrowconv

import (
	"os"
	"syscall"
)

// mapping is a read-only memory mapping of a whole file.
type mapping struct {
	data []byte
}

// mapFile maps the file at path read-only. An empty file gives an empty
// mapping (mmap refuses length 0).
func mapFile(path string) (*mapping, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := fi.Size()
	if size == 0 {
		return &mapping{data: []byte{}}, nil
	}
	if int64(int(size)) != size {
		return nil, errorf("%s: %d bytes do not fit in memory", path, size)
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, err
	}
	return &mapping{data: data}, nil
}

// Close unmaps the file.
func (m *mapping) Close() error {
	if len(m.data) == 0 {
		return nil
	}
	data := m.data
	m.data = nil
	return syscall.Munmap(data)
}
