//go:build unix

package mmap

import (
	"io/fs"
	"os"
	"syscall"
)

// Mapped reports whether Map maps files (true) or reads them whole
// into memory (false); here the bytes of a Mapping are the page cache's, mapped: nothing is read until it is touched.
const Mapped = true

// mapFile maps size bytes of f with mmap(2).
func mapFile(f *os.File, path string, size int) (*Mapping, error) {
	data, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, &fs.PathError{Op: "mmap", Path: path, Err: err}
	}
	return &Mapping{data: data, mapped: true}, nil
}

// unmap gives data back to the system.
func unmap(data []byte) error {
	return syscall.Munmap(data)
}
