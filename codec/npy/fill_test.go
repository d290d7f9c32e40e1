package npy_test

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/float16"

	"github.com/fstensor/fstensor/codec/npy"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// TestFillFloat16Rounds: the fill value of null float16 tensors is the
// nearest float16 (1 + 3*2^-12 lies 3/4 of the way from 1 to the next
// float16, 0x3c01; a truncating conversion gives 0x3c00).
func TestFillFloat16Rounds(t *testing.T) {
	typ := fixedshape.MustNewType(arrow.FixedWidthTypes.Float16, metadata.MustNew([]int{2}, nil, nil))
	col, err := fixedshape.FromSlice(typ, []float16.Num{float16.FromBits(0x3c00), float16.FromBits(0x4000), {}, {}}, []bool{true, false})
	if err != nil {
		t.Fatal(err)
	}
	defer col.Release()
	var buf bytes.Buffer
	if err := npy.WriteColumn(&buf, col, &npy.WriteOptions{FillNulls: true, Fill: 1 + 3.0/4096}); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	data := b[len(b)-8:]
	for k, want := range []uint16{0x3c00, 0x4000, 0x3c01, 0x3c01} {
		if got := binary.LittleEndian.Uint16(data[2*k:]); got != want {
			t.Errorf("element %d = %#04x, want %#04x", k, got, want)
		}
	}
}
