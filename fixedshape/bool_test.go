package fixedshape_test

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/stride"
)

// TestBool checks bool columns: FromBools packs bits, BoolAt reads the
// logical element, Equal compares logically (across layouts and for
// sliced columns), and the column survives an IPC round trip.
func TestBool(t *testing.T) {
	tests := []struct {
		name        string
		shape, perm []int
		valid       []bool
	}{
		{"0-D", []int{}, nil, nil},
		{"non-square", []int{3, 5}, nil, nil},
		{"3-cycle", []int{2, 3, 4}, []int{2, 0, 1}, nil},
		{"null tensors", []int{4, 2}, []int{1, 0}, []bool{true, false, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := testvec.CheckedMem(t)
			m := metadata.MustNew(tt.shape, nil, tt.perm)
			typ, err := fixedshape.NewType(arrow.FixedWidthTypes.Boolean, m)
			if err != nil {
				t.Fatal(err)
			}
			if typ.ElemWidth() != 0 {
				t.Errorf("ElemWidth = %d, want 0", typ.ElemWidth())
			}
			size := m.Size()
			vals := make([]bool, 3*size)
			for i := range vals {
				vals[i] = (i*5+i/4)%3 == 0
			}
			col, err := fixedshape.FromBools(mem, typ, vals, tt.valid)
			if err != nil {
				t.Fatal(err)
			}
			defer col.Release()
			if err := col.Validate(); err != nil {
				t.Fatal(err)
			}
			if col.ValueBytes() != nil {
				t.Error("ValueBytes of a bool column is not nil")
			}
			// BoolAt reads the logical element of the physical data.
			for i := range col.Len() {
				k := 0
				for off := range stride.Offsets(m.Shape(), m.ElemStrides()) {
					idx := unravel(k, m.Shape())
					if got, want := col.BoolAt(i, idx...), vals[i*size+off]; got != want {
						t.Fatalf("BoolAt(%d, %v) = %v, want %v", i, idx, got, want)
					}
					k++
				}
			}

			// The same logical values in row-major layout are Equal.
			logical := make([]bool, 0, len(vals))
			for i := range col.Len() {
				for off := range stride.Offsets(m.Shape(), m.ElemStrides()) {
					logical = append(logical, vals[i*size+off])
				}
			}
			dense := fixedshape.MustNewType(arrow.FixedWidthTypes.Boolean, metadata.MustNew(tt.shape, nil, nil))
			dcol, err := fixedshape.FromBools(mem, dense, logical, tt.valid)
			if err != nil {
				t.Fatal(err)
			}
			defer dcol.Release()
			if !fixedshape.Equal(col, dcol) {
				t.Error("column differs from its row-major copy")
			}
			sa, sb := array.NewSlice(col, 1, 3).(*fixedshape.Array), array.NewSlice(dcol, 1, 3).(*fixedshape.Array)
			defer sa.Release()
			defer sb.Release()
			if !fixedshape.Equal(sa, sb) {
				t.Error("slices differ")
			}
			flipped := append([]bool{}, logical...)
			flipped[2*size+size-1] = !flipped[2*size+size-1]
			fcol, _ := fixedshape.FromBools(mem, dense, flipped, tt.valid)
			defer fcol.Release()
			if fixedshape.Equal(fcol, dcol) {
				t.Error("a changed element is Equal")
			}

			schema := arrow.NewSchema([]arrow.Field{{Name: "mask", Type: typ, Nullable: true}}, nil)
			rec := array.NewRecordBatch(schema, []arrow.Array{sa}, int64(sa.Len()))
			defer rec.Release()
			back := ipcRoundTrip(t, mem, rec)
			got, ok := back.Column(0).(*fixedshape.Array)
			if !ok || !arrow.TypeEqual(got.DataType(), typ) || !fixedshape.Equal(got, sa) {
				t.Errorf("IPC round trip: %v, want %v", back.Column(0), sa)
			}
			if diff := cmp.Diff(sa.NullN(), got.NullN()); diff != "" {
				t.Errorf("nulls (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("errors", func(t *testing.T) {
		mem := testvec.CheckedMem(t)
		typ := fixedshape.MustNewType(arrow.FixedWidthTypes.Boolean, metadata.MustNew([]int{2}, nil, nil))
		f32 := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{2}, nil, nil))
		for _, c := range []struct {
			name  string
			typ   *fixedshape.Type
			data  []bool
			valid []bool
		}{
			{"not whole tensors", typ, []bool{true}, nil},
			{"validity length", typ, []bool{true, false}, []bool{true, true}},
			{"float elements", f32, []bool{true, false}, nil},
		} {
			if _, err := fixedshape.FromBools(mem, c.typ, c.data, c.valid); !errors.Is(err, arrow.ErrInvalid) {
				t.Errorf("%s: err = %v, want arrow.ErrInvalid", c.name, err)
			}
		}
	})
}
