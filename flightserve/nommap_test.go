package flightserve_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/flightserve"
)

// TestNoMmapTruncated truncates a file that a NoMmap server is sending:
// the call fails with an error before the file's end, and the server
// goes on serving other calls.
func TestNoMmapTruncated(t *testing.T) {
	const rows = 400_000 // about 70 MB: more than gRPC's windows hold
	dir := t.TempDir()
	path := filepath.Join(dir, "big.arrow")
	writeTestFile(t, path, rows, 4_000)
	writeTestFile(t, filepath.Join(dir, "small.arrow"), 23, 10)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	addr := serve(t, flightserve.Config{Dir: dir, NoMmap: true, Allocator: mem})
	c := dial(t, addr)
	r, err := c.Get(testCtx(t), flightserve.Ticket{Path: "big.arrow"})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Next() {
		t.Fatalf("no first batch: %v", r.Err())
	}
	if err := os.Truncate(path, 4096); err != nil {
		t.Fatal(err)
	}
	n := r.RecordBatch().NumRows()
	for r.Next() {
		n += r.RecordBatch().NumRows()
	}
	err = r.Err()
	r.Release()
	if err == nil || n >= rows {
		t.Fatalf("read %d rows of a file truncated while sent, error %v; want fewer than %d and an error", n, err, rows)
	}
	r, err = c.Get(testCtx(t), flightserve.Ticket{Path: "small.arrow"})
	if err != nil {
		t.Fatalf("the server stopped serving: %v", err)
	}
	defer r.Release()
	n = 0
	for r.Next() {
		n += r.RecordBatch().NumRows()
	}
	if r.Err() != nil || n != 23 {
		t.Fatalf("after the truncated file: %d rows, error %v; want 23 rows", n, r.Err())
	}
}
