//go:build !unix

package mmap

import (
	"io"
	"os"
)

// mapFile reads the size bytes of f into memory, where mmap is not
// available.
func mapFile(f *os.File, path string, size int) (*Mapping, error) {
	data := make([]byte, size)
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, &os.PathError{Op: "read", Path: path, Err: err}
	}
	return &Mapping{data: data}, nil
}

// unmap is never called: nothing is mapped.
func unmap([]byte) error { return nil }
