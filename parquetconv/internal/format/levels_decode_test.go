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

// TestRepWalkerRLERows walks RLE repetition levels as the writer
// encodes them, whose whole rows Walk recognises by their bytes (blocks
// of 256 rows, then row by row), and compares the walk with one that
// consumes a level at a time: rows of n elements (more than a block,
// fewer, with count stopping inside a row or a block), a row cut short
// or too long among them, a walk that starts inside a row.
func TestRepWalkerRLERows(t *testing.T) {
	many := func(n, rows int) []int {
		c := make([]int, rows)
		for i := range c {
			c[i] = n
		}
		return c
	}
	for _, tt := range []struct {
		name   string
		n      int
		lead   int // 1s ending a row begun before the walk
		counts []int
		drop   int // levels of count left out at the end
	}{
		{"n=768 1000 rows", 768, 0, many(768, 1000), 0},
		{"n=2 600 rows", 2, 0, many(2, 600), 0},
		{"n=64 3 rows", 64, 0, many(64, 3), 0},
		{"n=768 count ends in a row", 768, 0, many(768, 600), 100},
		{"n=768 count ends a row early", 768, 0, many(768, 600), 768},
		{"n=200 row 300 too short", 200, 0, append(append(many(200, 300), 150), many(200, 10)...), 0},
		{"n=200 row 520 too long", 200, 0, append(append(many(200, 520), 250), many(200, 10)...), 0},
		{"n=300 in a row", 300, 100, many(300, 700), 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var e format.LevelEncoder
			e.Reset(1)
			e.Put(1, tt.lead)
			levels := make([]uint8, tt.lead)
			for i := range levels {
				levels[i] = 1
			}
			levels = append(levels, rowLevels(tt.counts...)...)
			for _, c := range tt.counts {
				e.Put(0, 1)
				e.Put(1, c-1)
			}
			levels = levels[:len(levels)-tt.drop]
			ref := format.RepWalker{N: tt.n, Pos: (tt.n - tt.lead) % tt.n}
			var refErr error
			for _, v := range levels {
				if refErr = ref.Run(uint64(v), 1); refErr != nil {
					break
				}
			}
			want := walkState{ref.Rows, ref.Pos, refErr != nil}
			b := e.Bytes()
			if tt.lead == 0 {
				// The rows recognised by their bytes: the leading rows
				// of n elements that count holds whole.
				wantRows := 0
				for wantRows < len(tt.counts) && tt.counts[wantRows] == tt.n && (wantRows+1)*tt.n <= len(levels) {
					wantRows++
				}
				rows, used := format.WholeRows(b, tt.n, len(levels)/tt.n)
				if rowBytes := len(rowLevelBytes(tt.n)); rows != wantRows || used != rows*rowBytes {
					t.Errorf("wholeRows = %d rows, %d bytes; want %d rows of %d bytes", rows, used, wantRows, rowBytes)
				}
			}
			got := format.RepWalker{N: tt.n, Pos: (tt.n - tt.lead) % tt.n}
			err := got.Walk(b, len(levels))
			if want.Err {
				want.Rows, want.Pos = 0, 0
				got.Rows, got.Pos = 0, 0
			}
			if diff := cmp.Diff(want, walkState{got.Rows, got.Pos, err != nil}); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// rowLevelBytes returns the encoding of one row of n elements.
func rowLevelBytes(n int) []byte {
	var e format.LevelEncoder
	e.Reset(1)
	e.Put(0, 1)
	e.Put(1, n-1)
	return e.Bytes()
}
