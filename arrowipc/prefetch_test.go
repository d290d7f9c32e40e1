package arrowipc_test

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/arrowipc"
)

// rangesSource is a source that prefetches several ranges at once, as
// an object of package objstore does: it records the calls.
type rangesSource struct {
	*bytes.Reader
	calls [][][2]int64
}

func (s *rangesSource) PrefetchRanges(ranges [][2]int64) error {
	s.calls = append(s.calls, ranges)
	return nil
}

// TestPrefetch asks a reader over a source that prefetches several
// ranges for batches of a file of 70: the metadata of batches (their
// first bytes), or the batches whole (their metadata and body, up to the
// next batch), 64 at most at once; over a plain source Prefetch asks
// nothing.
func TestPrefetch(t *testing.T) {
	mem := checkedMem(t)
	defer mem.AssertSize(t, 0)
	var recs []arrow.RecordBatch
	for range 70 {
		recs = append(recs, testRecord(t, mem, 3, false))
	}
	data := writeIPC(t, true, recs)
	for _, r := range recs {
		r.Release()
	}
	src := &rangesSource{Reader: bytes.NewReader(data)}
	fr, err := arrowipc.NewIPCFileReader(src)
	if err != nil {
		t.Fatal(err)
	}
	defer fr.Close()
	all := make([]int, 70)
	for i := range all {
		all[i] = i
	}
	tests := []struct {
		name  string
		is    []int
		body  bool
		n     int // returned
		asked int // ranges asked
	}{
		{"none", nil, false, 0, 0},
		{"metadata", []int{3, 1, 7}, false, 3, 3},
		{"whole", []int{5, 6}, true, 2, 2},
		{"64 at most", all, true, 64, 64},
		{"out of range", []int{69, 70, 2}, false, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src.calls = nil
			if n := fr.Prefetch(tt.is, tt.body); n != tt.n {
				t.Errorf("Prefetch = %d, want %d", n, tt.n)
			}
			var asked int
			for _, c := range src.calls {
				asked += len(c)
			}
			if asked != tt.asked || len(src.calls) > 1 {
				t.Fatalf("%d calls asking %d ranges, want one asking %d", len(src.calls), asked, tt.asked)
			}
		})
	}
	t.Run("ranges", func(t *testing.T) {
		src.calls = nil
		fr.Prefetch([]int{0, 1}, true)
		fr.Prefetch([]int{0}, false)
		if len(src.calls) != 2 {
			t.Fatalf("%d calls, want 2", len(src.calls))
		}
		whole, meta := src.calls[0], src.calls[1][0]
		if whole[0][0]+whole[0][1] != whole[1][0] {
			t.Errorf("batch 0 asked as %v, batch 1 at %d: want batch 0 whole, up to batch 1", whole[0], whole[1][0])
		}
		if meta[0] != whole[0][0] || meta[1] <= 0 || meta[1] >= whole[0][1] {
			t.Errorf("metadata of batch 0 asked as %v, want its first bytes of %v", meta, whole[0])
		}
	})
	t.Run("plain source", func(t *testing.T) {
		fr, err := arrowipc.NewIPCFileReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		defer fr.Close()
		if diff := cmp.Diff(3, fr.Prefetch([]int{1, 2, 3}, true)); diff != "" {
			t.Errorf("Prefetch (-want +got):\n%s", diff)
		}
	})
}
