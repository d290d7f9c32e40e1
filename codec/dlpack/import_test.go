//go:build cgo

package dlpack_test

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor"
	"github.com/fstensor/fstensor/codec/dlpack"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/google/go-cmp/cmp"
)

var f32 = dlpack.DataType{Code: dlpack.CodeFloat, Bits: 32, Lanes: 1}
var cpu = dlpack.Device{Type: dlpack.CPU}

// floats returns n little-endian float32 bytes 0, 1, 2, ...
func floats(n int) []byte {
	b := make([]byte, 0, 4*n)
	for i := range n {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(i)))
	}
	return b
}

func TestImport(t *testing.T) {
	tests := []struct {
		name      string
		l         dlpack.Layout
		elems     int // elements of producer data
		opts      []dlpack.ImportOption
		wantShape []int
		wantPerm  []int
		want      []float32 // logical values of all tensors
		wantErr   error
	}{
		{name: "NULL strides", l: dlpack.Layout{Device: cpu, DataType: f32, Shape: []int64{2, 3}}, elems: 6,
			wantShape: []int{2, 3}, want: []float32{0, 1, 2, 3, 4, 5}},
		{name: "nil allocator", l: dlpack.Layout{Device: cpu, DataType: f32, Shape: []int64{2, 3}}, elems: 6,
			opts: []dlpack.ImportOption{dlpack.WithAllocator(nil)}, wantErr: fstensor.ErrOption},
		{name: "zero max copy size", l: dlpack.Layout{Device: cpu, DataType: f32, Shape: []int64{2, 3}}, elems: 6,
			opts: []dlpack.ImportOption{dlpack.WithCopy(true), dlpack.WithMaxCopySize(0)}, wantErr: fstensor.ErrOption},
		{name: "negative max copy size", l: dlpack.Layout{Device: cpu, DataType: f32, Shape: []int64{2, 3}, Strides: []int64{0, 1}}, elems: 3,
			opts: []dlpack.ImportOption{dlpack.WithCopy(true), dlpack.WithMaxCopySize(-1)}, wantErr: fstensor.ErrOption},
		{name: "0-D", l: dlpack.Layout{Device: cpu, DataType: f32, Shape: []int64{}}, elems: 1, wantShape: []int{}, want: []float32{0}},
		{name: "transposed", l: dlpack.Layout{Device: cpu, DataType: f32, Shape: []int64{2, 3}, Strides: []int64{1, 2}}, elems: 6,
			wantShape: []int{2, 3}, wantPerm: []int{1, 0}, want: []float32{0, 2, 4, 1, 3, 5}},
		{name: "3-cycle", l: dlpack.Layout{Device: cpu, DataType: f32, Shape: []int64{2, 3, 4}, Strides: []int64{1, 8, 2}}, elems: 24,
			wantShape: []int{2, 3, 4}, wantPerm: []int{2, 0, 1}},
		{name: "column", l: dlpack.Layout{Device: cpu, DataType: f32, Shape: []int64{2, 2}, Strides: []int64{2, 1}}, elems: 4,
			opts: []dlpack.ImportOption{dlpack.WithColumn(true)}, wantShape: []int{2}, want: []float32{0, 1, 2, 3}},
		{name: "byte offset", l: dlpack.Layout{Device: cpu, DataType: f32, Shape: []int64{2}, ByteOffset: 8}, elems: 4,
			wantShape: []int{2}, want: []float32{2, 3}},
		{name: "gapped without copy", l: dlpack.Layout{Device: cpu, DataType: f32, Shape: []int64{3}, Strides: []int64{2}}, elems: 5, wantErr: arrow.ErrInvalid},
		{name: "gapped with copy", l: dlpack.Layout{Device: cpu, DataType: f32, Shape: []int64{3}, Strides: []int64{2}}, elems: 5,
			opts: []dlpack.ImportOption{dlpack.WithCopy(true)}, wantShape: []int{3}, want: []float32{0, 2, 4}},
		{name: "overlapping with copy", l: dlpack.Layout{Device: cpu, DataType: f32, Shape: []int64{2, 2}, Strides: []int64{0, 1}}, elems: 2,
			opts: []dlpack.ImportOption{dlpack.WithCopy(true)}, wantShape: []int{2, 2}, want: []float32{0, 1, 0, 1}},
		{name: "negative stride with copy", l: dlpack.Layout{Device: cpu, DataType: f32, Shape: []int64{3}, Strides: []int64{-1}, ByteOffset: 8}, elems: 3,
			opts: []dlpack.ImportOption{dlpack.WithCopy(true)}, wantShape: []int{3}, want: []float32{2, 1, 0}},
		{name: "column batch not outermost", l: dlpack.Layout{Device: cpu, DataType: f32, Shape: []int64{2, 2}, Strides: []int64{1, 2}}, elems: 4,
			opts: []dlpack.ImportOption{dlpack.WithColumn(true)}, wantErr: arrow.ErrInvalid},
		{name: "0-D column", l: dlpack.Layout{Device: cpu, DataType: f32, Shape: []int64{}}, elems: 1, opts: []dlpack.ImportOption{dlpack.WithColumn(true)}, wantErr: arrow.ErrInvalid},
		{name: "CUDA", l: dlpack.Layout{Device: dlpack.Device{Type: 2}, DataType: f32, Shape: []int64{2}}, elems: 2, wantErr: arrow.ErrInvalid},
		{name: "two lanes", l: dlpack.Layout{Device: cpu, DataType: dlpack.DataType{Code: dlpack.CodeFloat, Bits: 32, Lanes: 2}, Shape: []int64{2}}, elems: 4, wantErr: arrow.ErrInvalid},
		{name: "bfloat16", l: dlpack.Layout{Device: cpu, DataType: dlpack.DataType{Code: dlpack.CodeBfloat, Bits: 16, Lanes: 1}, Shape: []int64{2}}, elems: 1, wantErr: arrow.ErrInvalid},
		{name: "unknown code", l: dlpack.Layout{Device: cpu, DataType: dlpack.DataType{Code: 99, Bits: 32, Lanes: 1}, Shape: []int64{2}}, elems: 2, wantErr: arrow.ErrInvalid},
		{name: "empty column, zero strides", l: dlpack.Layout{Device: cpu, DataType: f32, Shape: []int64{0, 3}, Strides: []int64{0, 0}}, elems: 0,
			opts: []dlpack.ImportOption{dlpack.WithColumn(true)}, wantShape: []int{3}, want: []float32(nil)},
		{name: "empty column, gapped strides", l: dlpack.Layout{Device: cpu, DataType: f32, Shape: []int64{0, 2, 3}, Strides: []int64{7, 1, 5}}, elems: 0,
			opts: []dlpack.ImportOption{dlpack.WithColumn(true)}, wantShape: []int{2, 3}, want: []float32(nil)},
		{name: "size-0 dimension", l: dlpack.Layout{Device: cpu, DataType: f32, Shape: []int64{3, 0}}, elems: 0, wantErr: arrow.ErrNotImplemented},
		{name: "negative dimension", l: dlpack.Layout{Device: cpu, DataType: f32, Shape: []int64{-1}}, elems: 0, wantErr: arrow.ErrInvalid},
		{name: "overflowing shape", l: dlpack.Layout{Device: cpu, DataType: f32, Shape: []int64{1 << 40, 1 << 40}}, elems: 0, wantErr: arrow.ErrInvalid},
		{name: "broadcast copy above MaxCopySize", l: dlpack.Layout{Device: cpu, DataType: f32, Shape: []int64{1 << 20, 1 << 10}, Strides: []int64{0, 0}}, elems: 1,
			opts: []dlpack.ImportOption{dlpack.WithCopy(true), dlpack.WithMaxCopySize(1 << 20)}, wantErr: arrow.ErrInvalid},
		{name: "broadcast copy at MaxCopySize", l: dlpack.Layout{Device: cpu, DataType: f32, Shape: []int64{2, 2}, Strides: []int64{0, 1}}, elems: 2,
			opts: []dlpack.ImportOption{dlpack.WithCopy(true), dlpack.WithMaxCopySize(16)}, wantShape: []int{2, 2}, want: []float32{0, 1, 0, 1}},
		{name: "overflowing strides", l: dlpack.Layout{Device: cpu, DataType: f32, Shape: []int64{3, 3}, Strides: []int64{1 << 62, 1}}, elems: 0,
			opts: []dlpack.ImportOption{dlpack.WithCopy(true)}, wantErr: arrow.ErrInvalid},
		{name: "byte span overflows int", l: dlpack.Layout{Device: cpu, DataType: f32, Shape: []int64{3}, Strides: []int64{1 << 61}}, elems: 0,
			opts: []dlpack.ImportOption{dlpack.WithCopy(true)}, wantErr: arrow.ErrInvalid},
		{name: "negative byte span overflows int", l: dlpack.Layout{Device: cpu, DataType: f32, Shape: []int64{3}, Strides: []int64{-(1 << 61)}}, elems: 0,
			opts: []dlpack.ImportOption{dlpack.WithCopy(true)}, wantErr: arrow.ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			before := dlpack.SyntheticDeletes()
			m := dlpack.NewSynthetic(tt.l, 4*tt.elems, floats(tt.elems))
			a, err := dlpack.ImportVersioned(m, append([]dlpack.ImportOption{dlpack.WithAllocator(mem)}, tt.opts...)...)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) || !errors.Is(err, arrow.ErrInvalid) {
					t.Fatalf("error = %v, want %v", err, tt.wantErr)
				}
				if d := dlpack.SyntheticDeletes() - before; d != 0 {
					t.Errorf("deleter ran %d times after a failed import", d)
				}
				m.Delete()
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			typ := a.TensorType()
			if diff := cmp.Diff(tt.wantShape, typ.Shape()); diff != "" {
				t.Errorf("shape (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantPerm, permOrNil(typ)); diff != "" {
				t.Errorf("permutation (-want +got):\n%s", diff)
			}
			c, err := fixedshape.ColumnOf[float32](a)
			if err != nil {
				t.Fatal(err)
			}
			var got []float32
			for i := range c.Len() {
				got = c.Tensor(i).AppendLogical(got)
			}
			if tt.want != nil {
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("values (-want +got):\n%s", diff)
				}
			}
			a.Release()
			if d := dlpack.SyntheticDeletes() - before; d != 1 {
				t.Errorf("deleter ran %d times, want 1", d)
			}
		})
	}
}

func permOrNil(typ *fixedshape.Type) []int {
	if !typ.Metadata().HasPermutation() {
		return nil
	}
	return typ.Permutation()
}

func TestImportCorrupt(t *testing.T) {
	m := dlpack.NewSynthetic(dlpack.Layout{Device: cpu, DataType: f32, Shape: []int64{2}}, 8, nil)
	defer m.Delete()
	dlpack.SetVersion(m, 2, 0)
	if _, err := dlpack.ImportVersioned(m); !errors.Is(err, arrow.ErrInvalid) || !errors.Is(err, arrow.ErrNotImplemented) {
		t.Errorf("version 2.0: error = %v, want arrow.ErrInvalid and arrow.ErrNotImplemented", err)
	}
	dlpack.SetVersion(m, 1, 0)
	dlpack.SetNDim(m, -1)
	if _, err := dlpack.ImportVersioned(m); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("ndim -1: error = %v", err)
	}
	dlpack.SetNDim(m, 1)
	if _, err := dlpack.ImportVersioned(nil); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("nil: error = %v", err)
	}
}

// FuzzImport imports synthetic producer structs built from fuzz input:
// never a panic, errors wrap arrow.ErrInvalid, the deleter runs exactly
// once after a successful import and never after a failed one.
func FuzzImport(f *testing.F) {
	f.Add(uint8(2), uint8(32), uint16(1), int32(1), []byte{2, 3}, []byte{}, true, false, false)
	f.Add(uint8(2), uint8(32), uint16(1), int32(1), []byte{2, 3, 4}, []byte{1, 8, 2}, true, false, false)
	f.Add(uint8(0), uint8(8), uint16(1), int32(1), []byte{3}, []byte{0xfe}, true, true, true)
	f.Add(uint8(1), uint8(64), uint16(2), int32(2), []byte{}, []byte{}, false, false, false)
	f.Fuzz(func(t *testing.T, code, bits uint8, lanes uint16, dev int32, dims, strides []byte, useStrides, column, allowCopy bool) {
		if len(dims) > 5 {
			dims = dims[:5]
		}
		l := dlpack.Layout{Device: dlpack.Device{Type: dlpack.DeviceType(dev)}, DataType: dlpack.DataType{Code: dlpack.Code(code), Bits: bits, Lanes: lanes}}
		l.Shape = make([]int64, len(dims))
		for i, d := range dims {
			l.Shape[i] = int64(int8(d))
		}
		if useStrides {
			l.Strides = make([]int64, len(dims))
			for i := range l.Strides {
				if i < len(strides) {
					l.Strides[i] = int64(int8(strides[i]))
				}
			}
		}
		// Size the producer's buffer from the plan, as a real producer's
		// memory covers every element its strides reach.
		width := max(int(bits)/8, 1)
		bytes := 0
		if p, err := dlpack.PlanImport(l, column, allowCopy); err == nil {
			l.ByteOffset = uint64(-p.Lo * width)
			bytes = (p.Hi - p.Lo) * width
			if bytes > 1<<20 {
				return
			}
		}
		before := dlpack.SyntheticDeletes()
		m := dlpack.NewSynthetic(l, bytes, nil)
		a, err := dlpack.ImportVersioned(m, dlpack.WithColumn(column), dlpack.WithCopy(allowCopy), dlpack.WithMaxCopySize(1<<24))
		if err != nil {
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("error %v does not wrap arrow.ErrInvalid", err)
			}
			if dlpack.SyntheticDeletes() != before {
				t.Fatal("deleter ran after a failed import")
			}
			m.Delete()
			return
		}
		if err := a.Validate(); err != nil {
			t.Fatal(err)
		}
		a.Release()
		if d := dlpack.SyntheticDeletes() - before; d != 1 {
			t.Fatalf("deleter ran %d times", d)
		}
	})
}
