// Package mmap maps whole files read-only into memory.
//
// # Overview
//
// [Map] (or [MapFile], of an open file) returns a [Mapping] whose
// [Mapping.Bytes] are the file's bytes and whose [Mapping.Close] gives
// them back. [MapFileLeased] maps a file under a read lease (Linux), so
// that a change to the file never reaches the bytes; [MapFileShared]
// shares one such mapping among the readers of a file open at the same
// time, and [Held] counts what is in use. On unix systems the file is
// mapped with mmap(2) (PROT_READ, MAP_SHARED), so pages are read from the
// page cache on first touch and nothing is copied; elsewhere the whole
// file is read into Go memory, which behaves the same apart from the copy
// and the memory it takes. [Mapped] tells which of the two a build does,
// for callers that map a file only to read part of it.
//
// # Layout
//
// Bytes start at a page boundary on unix (and at a Go allocation, aligned
// to at least 8 bytes, elsewhere), so data at an offset aligned in the
// file is aligned in memory.
//
// # Memory
//
// The bytes belong to the mapping: they must not be written (on unix the
// pages are read-only and a write faults), and neither they nor any slice
// of them may be used after Close, which unmaps them (a use then faults).
// Nothing unmaps a mapping but Close: a Mapping that is dropped without
// Close keeps its pages mapped until the process exits. The file may be
// closed, renamed or removed while it is mapped; if another process
// truncates it, reading the lost pages raises SIGBUS, and if it writes
// it, the bytes change under the reader. A mapping of MapFileLeased is
// the exception: such a change waits while its pages become a copy of
// the file in memory (the package then listens to SIGIO, the signal of a
// lease break); the files leased at once are kept within a quarter of the
// machine's memory, the most such copies may take.
//
// # Errors
//
// Map returns the errors of os.Open and os.File.Stat as they come
// (*fs.PathError), errors of mmap(2) wrapped in a *fs.PathError, and
// an error for files larger than the address space.
package mmap
