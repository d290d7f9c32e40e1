package testvec

import (
	"errors"
	"os"
	"testing"

	"github.com/fstensor/fstensor/internal/mmap"
)

// DirNames returns the names in dir, hidden ones included, sorted (nil
// for an empty directory): what tests compare to see that a failed write
// left no file and no temporary file behind.
func DirNames(t testing.TB, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// Leases reports whether the system grants a read lease on the file at
// path (mmap.MapFileLeased), logging why not: a file mapped under one
// keeps its bytes when the file is truncated, and tests of that skip or
// expect the unleased behaviour otherwise.
func Leases(t testing.TB, path string) bool {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := mmap.MapFileLeased(f)
	if errors.Is(err, mmap.ErrNoLease) {
		t.Logf("no lease on %s: %v", path, err)
		return false
	}
	if err != nil {
		t.Fatal(err)
	}
	m.Close()
	return true
}
