package objstore_test

import (
	"context"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/objstore"
)

// testPrefetch checks that the reads inside prefetched ranges cost no
// request, and that the oldest ranges go beyond the limit.
func testPrefetch(t *testing.T, data []byte) {
	restore := objstore.SetMaxPrefetch(100 << 10)
	defer restore()
	c := newClient(t)
	obj, err := c.Open(context.Background(), "s3://bkt/dir/data.bin")
	if err != nil {
		t.Fatal(err)
	}
	size := obj.Size()
	type step struct {
		prefetch bool // else ReadAt
		off, n   int64
		requests int64 // GETs made
	}
	steps := []struct {
		name string
		step
	}{
		{"prefetch", step{true, 1000, 60 << 10, 1}},
		{"inside", step{false, 1000, 10, 0}},
		{"to its end", step{false, 2000, 60<<10 - 1000, 0}},
		{"across its end", step{false, 60 << 10, 2000, 1}},
		{"inside again", step{true, 5000, 100, 0}},
		{"too large", step{true, 0, 100<<10 + 1, 0}},
		{"empty", step{true, 0, 0, 0}},
		{"beyond the object", step{true, size, 10, 0}},
		{"the tail", step{true, size - 30, 100, 1}},
		{"read the tail past the end", step{false, size - 30, 100, 0}},
		{"second range", step{true, 200 << 10, 50 << 10, 1}}, // 60 KiB + 30 + 50 KiB: the first goes
		{"first range gone", step{false, 1000, 10, 1}},
		{"second range kept", step{false, 210 << 10, 10, 0}},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			before := obj.Stats()
			if s.prefetch {
				if err := obj.Prefetch(s.off, s.n); err != nil {
					t.Fatal(err)
				}
			} else {
				p := make([]byte, s.n)
				n, err := obj.ReadAt(p, s.off)
				if err != nil && err != io.EOF {
					t.Fatal(err)
				}
				if diff := cmp.Diff(data[s.off:s.off+int64(n)], p[:n]); diff != "" {
					t.Errorf("bytes differ (-want +got):\n%.300s", diff)
				}
			}
			if got := obj.Stats().Requests - before.Requests; got != s.requests {
				t.Errorf("%d requests, want %d", got, s.requests)
			}
		})
	}
}

// testPrefetchRanges checks that PrefetchRanges reads each range once,
// skips the ones Prefetch would not read and those beyond the limit,
// and that the reads inside the ranges it held cost no request.
func testPrefetchRanges(t *testing.T, data []byte) {
	restore := objstore.SetMaxPrefetch(100 << 10)
	defer restore()
	c := newClient(t)
	obj, err := c.Open(context.Background(), "s3://bkt/dir/data.bin")
	if err != nil {
		t.Fatal(err)
	}
	size := obj.Size()
	ranges := [][2]int64{
		{0, 10 << 10}, {20 << 10, 10 << 10}, {40 << 10, 1}, // read
		{-1, 10}, {size, 10}, {5, 0}, // skipped: not in the object, empty
		{60 << 10, 90 << 10}, // beyond 100 KiB in all: not read, nor what follows
		{200 << 10, 10},
	}
	if err := obj.PrefetchRanges(ranges); err != nil {
		t.Fatal(err)
	}
	if got, want := obj.Stats().Requests, int64(1+3); got != want { // HEAD + 3 GETs
		t.Errorf("%d requests after PrefetchRanges, want %d", got, want)
	}
	reads := []struct {
		name     string
		off, n   int64
		requests int64
	}{
		{"first", 100, 1000, 0},
		{"second", 25 << 10, 100, 0},
		{"third", 40 << 10, 1, 0},
		{"not read: beyond the limit", 60 << 10, 10, 1},
		{"not read: after the limit", 200 << 10, 10, 1},
	}
	for _, r := range reads {
		t.Run(r.name, func(t *testing.T) {
			before := obj.Stats()
			p := make([]byte, r.n)
			if _, err := obj.ReadAt(p, r.off); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(data[r.off:r.off+r.n], p); diff != "" {
				t.Errorf("bytes differ (-want +got):\n%.300s", diff)
			}
			if got := obj.Stats().Requests - before.Requests; got != r.requests {
				t.Errorf("%d requests, want %d", got, r.requests)
			}
		})
	}
	if err := obj.PrefetchRanges(ranges[:3]); err != nil {
		t.Fatal(err)
	}
	t.Run("held ranges are not read again", func(t *testing.T) {
		before := obj.Stats()
		if err := obj.PrefetchRanges(ranges[:3]); err != nil {
			t.Fatal(err)
		}
		if got := obj.Stats().Requests - before.Requests; got != 0 {
			t.Errorf("%d requests, want 0", got)
		}
	})
}
