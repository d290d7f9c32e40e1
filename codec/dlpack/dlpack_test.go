//go:build cgo

package dlpack_test

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/fstensor/fstensor"
	"github.com/fstensor/fstensor/codec/dlpack"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/google/go-cmp/cmp"
)

// TestSeedVectors checks the C struct ABI, the dtype codes and imports of
// what NumPy exports.
func TestSeedVectors(t *testing.T) {
	types := map[string]arrow.DataType{"int8": arrow.PrimitiveTypes.Int8, "int64": arrow.PrimitiveTypes.Int64,
		"float16": arrow.FixedWidthTypes.Float16, "float32": arrow.PrimitiveTypes.Float32, "float64": arrow.PrimitiveTypes.Float64}
	for _, c := range testvec.Seeds(t, "dlpack") {
		t.Run(c.ID, func(t *testing.T) {
			switch {
			case c.ID == "dlpack-layout-lp64":
				var e struct {
					Sizes map[string]int `json:"sizes"`
					T     map[string]int `json:"DLTensor_offsets"`
					L     map[string]int `json:"DLManagedTensor_offsets"`
					V     map[string]int `json:"DLManagedTensorVersioned_offsets"`
				}
				if err := json.Unmarshal(c.Expected, &e); err != nil {
					t.Fatal(err)
				}
				got := dlpack.CLayout()
				want := map[string]int{}
				for k, v := range e.Sizes {
					want[k] = v
				}
				for k, v := range map[string]int{"t.data": e.T["data"], "t.device": e.T["device.device_type"], "t.ndim": e.T["ndim"],
					"t.dtype": e.T["dtype.code"], "t.shape": e.T["shape"], "t.strides": e.T["strides"], "t.byte_offset": e.T["byte_offset"],
					"l.manager_ctx": e.L["manager_ctx"], "l.deleter": e.L["deleter"], "v.manager_ctx": e.V["manager_ctx"],
					"v.deleter": e.V["deleter"], "v.flags": e.V["flags"], "v.dl_tensor": e.V["dl_tensor"]} {
					want[k] = v
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("ABI (-want +got):\n%s", diff)
				}
			case len(c.ID) > 13 && c.ID[:13] == "dlpack-dtype-":
				var in struct{ Type string }
				var e struct {
					Code, Bits, Lanes int
					Hex               string
				}
				_ = json.Unmarshal(c.Input, &in)
				_ = json.Unmarshal(c.Expected, &e)
				d := dlpack.DataType{Code: dlpack.Code(e.Code), Bits: uint8(e.Bits), Lanes: uint16(e.Lanes)}
				b, _ := d.AppendBinary(nil)
				if got := hex.EncodeToString(b); got != e.Hex {
					t.Errorf("bytes = %s, want %s", got, e.Hex)
				}
				dt, ok := types[in.Type]
				got, err := d.ArrowType()
				if !ok {
					if !errors.Is(err, arrow.ErrInvalid) {
						t.Errorf("ArrowType(%s) error = %v, want arrow.ErrInvalid", in.Type, err)
					}
					return
				}
				if err != nil || !arrow.TypeEqual(got, dt) {
					t.Errorf("ArrowType = %v, %v; want %v", got, err, dt)
				}
				back, err := dlpack.DataTypeOf(dt)
				if err != nil || back != d {
					t.Errorf("DataTypeOf(%v) = %v, %v; want %v", dt, back, err, d)
				}
			default: // what numpy exports: import it
				var e struct {
					Shape   []int64
					Strides []int64
					Dtype   []int
					Device  []int32
				}
				_ = json.Unmarshal(c.Expected, &e)
				l := dlpack.Layout{Device: dlpack.Device{Type: dlpack.DeviceType(e.Device[0]), ID: e.Device[1]},
					DataType: dlpack.DataType{Code: dlpack.Code(e.Dtype[0]), Bits: uint8(e.Dtype[1]), Lanes: uint16(e.Dtype[2])},
					Shape:    e.Shape, Strides: e.Strides}
				p, err := dlpack.PlanImport(l, false, false)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(toInts(e.Shape), p.Type.Shape()); diff != "" || p.Copy || p.Type.Metadata().HasPermutation() {
					t.Errorf("plan %+v, shape diff %s", p, diff)
				}
			}
		})
	}
}

func toInts(s []int64) []int {
	out := make([]int, len(s))
	for i, v := range s {
		out[i] = int(v)
	}
	return out
}

func makeColumn(t *testing.T, dt arrow.DataType, m metadata.Metadata, n int) *fixedshape.Array {
	t.Helper()
	typ := fixedshape.MustNewType(dt, m)
	vals := make([]float32, n*m.Size())
	for i := range vals {
		vals[i] = float32(i)
	}
	a, err := fixedshape.FromSlice(typ, vals, nil)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestExportImport exports columns and tensors of every layout kind,
// checks shape, strides, dtype and zero-copy, imports them back and
// checks the deleter runs exactly once.
func TestExportImport(t *testing.T) {
	f32 := arrow.PrimitiveTypes.Float32
	tests := []struct {
		name        string
		shape, perm []int
		n           int
		column      bool
		wantShape   []int64
		wantStrides []int64
	}{
		{name: "0-D tensor", shape: nil, n: 2, wantShape: []int64{}, wantStrides: []int64{}},
		{name: "column of 0-D", shape: nil, n: 3, column: true, wantShape: []int64{3}, wantStrides: []int64{1}},
		{name: "non-square", shape: []int{3, 4}, n: 1, wantShape: []int64{3, 4}, wantStrides: []int64{4, 1}},
		{name: "transposed", shape: []int{3, 4}, perm: []int{1, 0}, n: 1, wantShape: []int64{3, 4}, wantStrides: []int64{1, 3}},
		{name: "3-cycle", shape: []int{2, 3, 4}, perm: []int{2, 0, 1}, n: 1, wantShape: []int64{2, 3, 4}, wantStrides: []int64{1, 8, 2}},
		{name: "3-cycle column", shape: []int{2, 3, 4}, perm: []int{2, 0, 1}, n: 2, column: true, wantShape: []int64{2, 2, 3, 4}, wantStrides: []int64{24, 1, 8, 2}},
		{name: "empty column", shape: []int{2}, n: 0, column: true, wantShape: []int64{0, 2}, wantStrides: []int64{2, 1}},
	}
	for _, tt := range tests {
		for _, legacy := range []bool{false, true} {
			name := tt.name
			if legacy {
				name += "/legacy"
			}
			t.Run(name, func(t *testing.T) {
				m := metadata.MustNew(tt.shape, nil, tt.perm)
				a := makeColumn(t, f32, m, tt.n)
				defer a.Release()
				var l dlpack.Layout
				var data any
				var imp func(...dlpack.ImportOption) (*fixedshape.Array, error)
				if legacy {
					var x *dlpack.ManagedTensor
					var err error
					if tt.column {
						x, err = dlpack.ExportLegacy(a)
					} else {
						x, err = dlpack.ExportTensorLegacy(a, 0)
					}
					if err != nil {
						t.Fatal(err)
					}
					l, data = x.Layout(), x.Data()
					imp = func(o ...dlpack.ImportOption) (*fixedshape.Array, error) { return dlpack.Import(x, o...) }
				} else {
					var x *dlpack.ManagedTensorVersioned
					var err error
					if tt.column {
						x, err = dlpack.Export(a)
					} else {
						x, err = dlpack.ExportTensor(a, 0)
					}
					if err != nil {
						t.Fatal(err)
					}
					if maj, _ := x.Version(); maj != 1 || x.Flags()&1 == 0 {
						t.Errorf("version %d, flags %b; want 1.x, READ_ONLY", maj, x.Flags())
					}
					l, data = x.Layout(), x.Data()
					imp = func(o ...dlpack.ImportOption) (*fixedshape.Array, error) { return dlpack.ImportVersioned(x, o...) }
				}
				if dlpack.Outstanding() != 1 {
					t.Errorf("Outstanding = %d, want 1", dlpack.Outstanding())
				}
				want := dlpack.Layout{Device: dlpack.Device{Type: dlpack.CPU}, DataType: dlpack.DataType{Code: dlpack.CodeFloat, Bits: 32, Lanes: 1},
					Shape: tt.wantShape, Strides: tt.wantStrides}
				if diff := cmp.Diff(want, l); diff != "" {
					t.Errorf("layout (-want +got):\n%s", diff)
				}
				if vb := a.ValueBytes(); len(vb) > 0 && fmt.Sprintf("%p", data) != fmt.Sprintf("%p", &vb[0]) {
					t.Errorf("data pointer %p is not the array's buffer %p", data, &vb[0])
				}
				b, err := imp(dlpack.WithColumn(tt.column))
				if err != nil {
					t.Fatal(err)
				}
				wantMeta := m
				if !tt.column {
					wantMeta = metadata.MustNew(tt.shape, nil, tt.perm)
				}
				if !b.TensorType().Metadata().Equal(wantMeta) {
					t.Errorf("imported metadata %v, want %v", b.TensorType().Metadata(), wantMeta)
				}
				want0 := a
				if !tt.column {
					want0 = array1(a)
					defer want0.Release()
				}
				if !fixedshape.Equal(want0, b) {
					t.Errorf("imported values differ")
				}
				b.Release()
				if dlpack.Outstanding() != 0 {
					t.Errorf("after release Outstanding = %d, want 0", dlpack.Outstanding())
				}
			})
		}
	}
}

// array1 returns the first tensor of a as a column of length 1.
func array1(a *fixedshape.Array) *fixedshape.Array {
	return array.NewSlice(a, 0, 1).(*fixedshape.Array)
}

func TestExportNull(t *testing.T) {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Int8, metadata.MustNew([]int{2}, nil, nil))
	a, err := fixedshape.FromSlice(typ, []int8{1, 2, 3, 4}, []bool{true, false})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	if _, err := dlpack.Export(a); !errors.Is(err, arrow.ErrInvalid) || !errors.Is(err, fstensor.ErrNullTensor) {
		t.Errorf("Export(nulls) error = %v, want arrow.ErrInvalid and fstensor.ErrNullTensor", err)
	}
	if _, err := dlpack.ExportTensorLegacy(a, 1); !errors.Is(err, arrow.ErrInvalid) || !errors.Is(err, fstensor.ErrNullTensor) {
		t.Errorf("ExportTensorLegacy(null tensor) error = %v, want arrow.ErrInvalid and fstensor.ErrNullTensor", err)
	}
	if dlpack.Outstanding() != 0 {
		t.Errorf("Outstanding = %d after a failed export", dlpack.Outstanding())
	}
	// The valid tensor beside a null one exports.
	m, err := dlpack.ExportTensor(a, 0)
	if err != nil {
		t.Fatalf("ExportTensor(valid tensor): %v", err)
	}
	if diff := cmp.Diff([]int64{2}, m.Layout().Shape); diff != "" {
		t.Errorf("shape (-want +got):\n%s", diff)
	}
	m.Delete()
	if dlpack.Outstanding() != 0 {
		t.Errorf("Outstanding = %d after Delete", dlpack.Outstanding())
	}
}
