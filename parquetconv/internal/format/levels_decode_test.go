package format_test

import (
	"encoding/binary"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/parquetconv/internal/format"
)

// bitPacked returns levels (0 or 1) as one bit-packed run of the hybrid
// encoding, as Arrow C++ writes repetition levels.
func bitPacked(levels []uint8) []byte {
	groups := (len(levels) + 7) / 8
	b := binary.AppendUvarint(nil, uint64(groups)<<1|1)
	packed := make([]byte, groups)
	for i, v := range levels {
		packed[i/8] |= v << (i % 8)
	}
	return append(b, packed...)
}

// rowLevels returns the repetition levels of rows of the given element
// counts: a 0, then 1s.
func rowLevels(counts ...int) []uint8 {
	var out []uint8
	for _, c := range counts {
		out = append(out, 0)
		for range c - 1 {
			out = append(out, 1)
		}
	}
	return out
}

// walkState is what a walk ends with.
type walkState struct {
	Rows int64
	Pos  int
	Err  bool
}

// TestRepWalkerBitPacked walks bit-packed repetition levels of tensors
// of n elements, which Walk consumes 64 levels at a time inside a row,
// and compares the walk with one that consumes a level at a time (Run):
// rows of n elements, a row cut short, one too long, one starting in
// the middle of a 64-level word.
func TestRepWalkerBitPacked(t *testing.T) {
	for _, tt := range []struct {
		name   string
		n      int
		counts []int
	}{
		{"n=1", 1, []int{1, 1, 1}},
		{"n=65", 65, []int{65, 65, 65}},
		{"n=100 rows across words", 100, []int{100, 100, 100, 100, 100}},
		{"n=768", 768, []int{768, 768}},
		{"n=768 last row partial", 768, []int{768, 700}},
		{"n=130 row too long", 130, []int{130, 200, 130}},
		{"n=130 row too short", 130, []int{130, 70, 130}},
		{"n=200 first row partial", 200, []int{150}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			levels := rowLevels(tt.counts...)
			ref := format.RepWalker{N: tt.n}
			var refErr error
			for _, v := range levels {
				if refErr = ref.Run(uint64(v), 1); refErr != nil {
					break
				}
			}
			want := walkState{ref.Rows, ref.Pos, refErr != nil}
			got := format.RepWalker{N: tt.n}
			err := got.Walk(bitPacked(levels), len(levels))
			if want.Err {
				want.Rows, want.Pos = 0, 0 // the state after an error is not specified
				got.Rows, got.Pos = 0, 0
			}
			if diff := cmp.Diff(want, walkState{got.Rows, got.Pos, err != nil}); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}
