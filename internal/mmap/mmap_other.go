//go:build !unix

package mmap

import (
	"io"
	"os"
)

// Mapped reports whether Map maps files (true) or reads them whole
// into memory (false); here a Mapping holds a copy of the file, read whole by Map.
const Mapped = false

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
