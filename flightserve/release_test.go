package flightserve_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/flightserve"
)

// TestDoGetReleases reads a mapped IPC file of 28.8 MB, more than the
// flow control windows hold, and checks that the server closes the file
// (unmapping it) and releases every batch once the stream ends: read to
// its end, cancelled by the client after one batch, an expression's
// batches (allocated) cancelled so, and the client's connection closed
// after one batch. gRPC frees the buffers it wrote and most of those of a
// cancelled stream; the batches of buffers it drops (queued on a closed
// connection, or for a stream it cleaned up already) are released once
// the garbage collector finds them, which waitQueriesClosed runs.
func TestDoGetReleases(t *testing.T) {
	dir := testDir(t)
	bigFile(t, filepath.Join(dir, "big.arrow"), 20)
	for _, tc := range []struct {
		name  string
		expr  string
		end   string // "read", "cancel" or "close"
		batch int    // BatchBytes
	}{
		{"read to the end", "", "read", 0},
		{"cancel after one batch", "", "cancel", 0},
		{"cancel after one batch, batches of one row", "", "cancel", 1},
		{"cancel an expression's batches", "x * 2", "cancel", 0},
		{"close the connection after one batch", "", "close", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			t.Cleanup(func() { mem.AssertSize(t, 0) })
			s, addr := startServer(t, flightserve.Config{Dir: dir, Allocator: mem, BatchBytes: tc.batch})
			c, err := flightserve.Dial(addr)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			ctx, cancel := context.WithCancel(testCtx(t))
			defer cancel()
			r, err := c.Get(ctx, flightserve.Ticket{Path: "big.arrow", Expr: tc.expr})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Release()
			if !r.Next() {
				t.Fatal(r.Err())
			}
			switch tc.end {
			case "read":
				for r.Next() {
				}
				if err := r.Err(); err != nil {
					t.Fatal(err)
				}
			case "cancel":
				cancel()
			case "close":
				c.Close()
			}
			waitQueriesClosed(t, s)
		})
	}
}
