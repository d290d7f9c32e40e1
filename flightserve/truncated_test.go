package flightserve_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/flightserve"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
)

// TestTruncatedWhileSent truncates a file the server is sending. A
// mapped file (the default) is mapped under a read lease: the truncation
// waits while the server copies the mapping, and the call sends the whole
// file as it was. Without a lease (the file system grants none) or with
// NoMmap, the server reads the file, and the call fails before the file's
// end. Either way the server goes on serving; without the lease, a mapped
// file would fault in gRPC's writer and kill the test binary.
func TestTruncatedWhileSent(t *testing.T) {
	const rows = 400_000 // about 70 MB: more than gRPC's windows hold
	for _, tt := range []struct {
		name   string
		noMmap bool
	}{{"mapped", false}, {"NoMmap", true}} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "big.arrow")
			writeTestFile(t, path, rows, 4_000)
			writeTestFile(t, filepath.Join(dir, "small.arrow"), 23, 10)
			whole := !tt.noMmap && testvec.Leases(t, path)
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			addr := serve(t, flightserve.Config{Dir: dir, NoMmap: tt.noMmap, Allocator: mem})
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
			n, bad := 0, -1
			for {
				ids := r.RecordBatch().Column(0).(*array.Int64)
				for i := range ids.Len() {
					if ids.Value(i) != int64(n+i) && bad < 0 {
						bad = n + i
					}
				}
				n += ids.Len()
				if !r.Next() {
					break
				}
			}
			err = r.Err()
			r.Release()
			switch {
			case bad >= 0:
				t.Fatalf("row %d holds another row's id", bad)
			case whole && (err != nil || n != rows):
				t.Fatalf("read %d rows of a leased file truncated while sent, error %v; want all %d", n, err, rows)
			case !whole && (err == nil || n >= rows):
				t.Fatalf("read %d rows of a file truncated while sent, error %v; want fewer than %d and an error", n, err, rows)
			}
			checkServes(t, c)
		})
	}
}

// checkServes checks that the server still serves small.arrow.
func checkServes(t *testing.T, c *flightserve.Client) {
	t.Helper()
	r, err := c.Get(testCtx(t), flightserve.Ticket{Path: "small.arrow"})
	if err != nil {
		t.Fatalf("the server stopped serving: %v", err)
	}
	defer r.Release()
	n := 0
	for r.Next() {
		n += int(r.RecordBatch().NumRows())
	}
	if r.Err() != nil || n != 23 {
		t.Fatalf("after the truncated file: %d rows, error %v; want 23 rows", n, r.Err())
	}
}
