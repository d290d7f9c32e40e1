package testvec

import (
	"os"
	"testing"
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
