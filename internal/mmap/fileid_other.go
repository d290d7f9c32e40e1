//go:build !unix

package mmap

import "io/fs"

// fileID returns zeros: without inode numbers, files are told apart by
// size and modification time only, and MapFileShared shares nothing
// (nothing is mapped without mmap).
func fileID(fs.FileInfo) (dev, ino uint64) { return 0, 0 }
