package flightserve_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/flightserve"
	"github.com/fstensor/fstensor/tensorio"
)

// Rows of the file outside the served directory in TestSymlinkRace: ids
// from secretID on, a row count no inside file has.
const (
	secretID   = 1_000_000
	secretRows = 7
)

// raceDuration is how long TestSymlinkRace swaps: 10 s in CI (the
// environment variable CI set), 1.5 s otherwise.
func raceDuration() time.Duration {
	if os.Getenv("CI") != "" {
		return 10 * time.Second
	}
	return 1500 * time.Millisecond
}

// TestSymlinkRace swaps a served file, and separately a served
// directory, for symbolic links to a file and a directory outside the
// served directory and back, in a loop, while clients call DoGet and
// GetFlightInfo on loopback. No row of the outside file may come back.
func TestSymlinkRace(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	writeTestFile(t, filepath.Join(dir, ".real.arrow"), 23, 10)
	writeTestFile(t, filepath.Join(dir, "sub", "data.arrow"), 23, 10)
	w := func(path string) {
		t.Helper()
		wr, err := tensorio.Create(path, testSchema())
		if err != nil {
			t.Fatal(err)
		}
		rec := testBatch(t, memory.DefaultAllocator, secretID, secretID+secretRows)
		defer rec.Release()
		if err := wr.Write(rec); err != nil {
			t.Fatal(err)
		}
		if err := wr.Close(); err != nil {
			t.Fatal(err)
		}
	}
	w(filepath.Join(outside, "data.arrow"))
	if err := os.Link(filepath.Join(dir, ".real.arrow"), filepath.Join(dir, "race.arrow")); err != nil {
		t.Fatal(err)
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	addr := serve(t, flightserve.Config{Dir: dir, Allocator: mem})

	ctx, cancel := context.WithTimeout(testCtx(t), raceDuration())
	defer cancel()
	var wg sync.WaitGroup
	var swaps atomic.Int64
	swap := func(step func() error) {
		defer wg.Done()
		for ctx.Err() == nil {
			if err := step(); err != nil {
				t.Error(err)
				return
			}
			swaps.Add(1)
		}
	}
	secret := filepath.Join(outside, "data.arrow")
	wg.Add(2)
	// The file: a link to the outside file renamed over it, then a hard
	// link of the inside file renamed back.
	go swap(func() error {
		tmp := filepath.Join(dir, ".swap-file")
		if err := os.Symlink(secret, tmp); err != nil {
			return err
		}
		if err := os.Rename(tmp, filepath.Join(dir, "race.arrow")); err != nil {
			return err
		}
		if err := os.Link(filepath.Join(dir, ".real.arrow"), tmp); err != nil {
			return err
		}
		return os.Rename(tmp, filepath.Join(dir, "race.arrow"))
	})
	// The directory: moved away and replaced by a link to the outside
	// directory, then moved back.
	go swap(func() error {
		sub, away := filepath.Join(dir, "sub"), filepath.Join(dir, ".sub-away")
		if err := os.Rename(sub, away); err != nil {
			return err
		}
		if err := os.Symlink(outside, sub); err != nil {
			return err
		}
		if err := os.Remove(sub); err != nil {
			return err
		}
		return os.Rename(away, sub)
	})

	var calls, served, leaks atomic.Int64
	const clients = 2
	wg.Add(2 * clients)
	for range clients {
		for _, path := range []string{"race.arrow", "sub/data.arrow"} {
			go func() {
				defer wg.Done()
				c := dial(t, addr)
				for ctx.Err() == nil && calls.Load() < 1_000_000 {
					calls.Add(2)
					if in, err := c.Info(ctx, flightserve.Ticket{Path: path}); err == nil {
						served.Add(1)
						if in.Rows == secretRows {
							leaks.Add(1)
						}
					}
					n, ok := getIDs(ctx, c, path)
					leaks.Add(n)
					if ok {
						served.Add(1)
					}
				}
			}()
		}
	}
	wg.Wait()
	t.Logf("%d swaps, %d calls, %d served", swaps.Load(), calls.Load(), served.Load())
	if n := leaks.Load(); n > 0 {
		t.Errorf("%d calls returned rows of the file outside the served directory", n)
	}
	if served.Load() == 0 {
		t.Error("no call succeeded: the test tested nothing")
	}
}

// getIDs calls DoGet on path and returns 1 if a row of the outside file
// came back, 0 otherwise, and whether the call succeeded.
func getIDs(ctx context.Context, c *flightserve.Client, path string) (int64, bool) {
	r, err := c.Get(ctx, flightserve.Ticket{Path: path, Columns: []string{"id"}})
	if err != nil {
		return 0, false
	}
	defer r.Release()
	var leak int64
	for r.Next() {
		ids := r.RecordBatch().Column(0).(*array.Int64)
		for _, id := range ids.Int64Values() {
			if id >= secretID {
				leak = 1
			}
		}
	}
	return leak, r.Err() == nil
}
