package npy_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math"
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
	if err := npy.WriteColumn(&buf, col, npy.WithFillNulls(1+3.0/4096)); err != nil {
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

// TestFillRefused: a fill value the element type cannot hold exactly
// (NaN or an infinity for an integer or bool, a fraction for an integer,
// a value out of range, a finite value that overflows a float type) fails
// the write with ErrFill before a byte is written; values the type holds,
// and any value for float64, are written.
func TestFillRefused(t *testing.T) {
	i16, u8, i64, u64 := arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Uint64
	f16, f32, f64, b := arrow.FixedWidthTypes.Float16, arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64, arrow.FixedWidthTypes.Boolean
	tests := []struct {
		name string
		dt   arrow.DataType
		fill float64
		ok   bool
	}{
		{"int16 NaN", i16, math.NaN(), false},
		{"int16 +Inf", i16, math.Inf(1), false},
		{"int16 1e9", i16, 1e9, false},
		{"int16 -1.5", i16, -1.5, false},
		{"int16 -32768", i16, -32768, true},
		{"int16 32767", i16, 32767, true},
		{"int16 32768", i16, 32768, false},
		{"int16 0", i16, 0, true},
		{"uint8 -1", u8, -1, false},
		{"uint8 255", u8, 255, true},
		{"int64 2^63", i64, math.Exp2(63), false},
		{"int64 -2^63", i64, -math.Exp2(63), true},
		{"uint64 2^64", u64, math.Exp2(64), false},
		{"bool 1", b, 1, true},
		{"bool 2", b, 2, false},
		{"bool NaN", b, math.NaN(), false},
		{"float16 1e9", f16, 1e9, false},
		{"float16 -Inf", f16, math.Inf(-1), true},
		{"float16 NaN", f16, math.NaN(), true},
		{"float16 0.1 rounds", f16, 0.1, true},
		{"float32 1e300", f32, 1e300, false},
		{"float32 NaN", f32, math.NaN(), true},
		{"float64 NaN", f64, math.NaN(), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := metadata.MustNew([]int{2, 3}, nil, nil)
			col := fromLogical(t, tt.dt, m, patternValues(tt.dt, 12), []bool{true, false})
			defer col.Release()
			var buf bytes.Buffer
			err := npy.WriteColumn(&buf, col, npy.WithFillNulls(tt.fill))
			if tt.ok {
				if err != nil {
					t.Fatalf("WriteColumn: %v", err)
				}
				if err := npy.CheckFill(tt.dt, tt.fill); err != nil {
					t.Errorf("CheckFill: %v", err)
				}
				return
			}
			if !errors.Is(err, npy.ErrFill) || !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("WriteColumn error %v; want ErrFill and arrow.ErrInvalid", err)
			}
			if buf.Len() != 0 {
				t.Errorf("%d bytes written before the error", buf.Len())
			}
			var zbuf bytes.Buffer
			err = npy.WriteNPZ(&zbuf, []string{"x"}, []*fixedshape.Array{col}, npy.WithFillNulls(tt.fill))
			if !errors.Is(err, npy.ErrFill) || zbuf.Len() != 0 {
				t.Errorf("WriteNPZ: %v after %d bytes; want ErrFill before any byte", err, zbuf.Len())
			}
		})
	}
}

// TestNullTensorError: a null tensor without FillNulls is an error
// wrapping ErrNullTensor, also inside a .npz member.
func TestNullTensorError(t *testing.T) {
	col := fromLogical(t, arrow.PrimitiveTypes.Int16, metadata.MustNew([]int{2}, nil, nil), patternValues(arrow.PrimitiveTypes.Int16, 4), []bool{true, false})
	defer col.Release()
	err := npy.WriteColumn(io.Discard, col)
	if !errors.Is(err, npy.ErrNullTensor) || !errors.Is(err, arrow.ErrInvalid) || errors.Is(err, npy.ErrFill) {
		t.Errorf("WriteColumn: %v; want ErrNullTensor", err)
	}
	err = npy.WriteNPZ(io.Discard, []string{"x"}, []*fixedshape.Array{col})
	if !errors.Is(err, npy.ErrNullTensor) {
		t.Errorf("WriteNPZ: %v; want ErrNullTensor", err)
	}
}
