package npy_test

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/codec/internal/codectest"
	"github.com/fstensor/fstensor/codec/npy"
	"github.com/fstensor/fstensor/metadata"
	"github.com/google/go-cmp/cmp"
)

func TestRoundTrip(t *testing.T) {
	tests := []struct {
		name      string
		shape     []int
		perm      []int
		n         int
		valid     []bool
		fill      *float64
		wantErr   error
		wantOrder bool // WriteTensor writes Fortran order
	}{
		{name: "0-D", shape: nil, n: 3},
		{name: "vector", shape: []int{5}, n: 2},
		{name: "non-square", shape: []int{3, 4}, n: 3},
		{name: "transposed", shape: []int{3, 4}, perm: []int{1, 0}, n: 2, wantOrder: true},
		{name: "3-cycle", shape: []int{2, 3, 4}, perm: []int{2, 0, 1}, n: 2},
		{name: "reversed 3-D", shape: []int{2, 3, 4}, perm: []int{2, 1, 0}, n: 2, wantOrder: true},
		{name: "size-1 axes moved", shape: []int{1, 4}, perm: []int{1, 0}, n: 2},
		{name: "null without fill", shape: []int{2, 2}, n: 2, valid: []bool{true, false}, wantErr: arrow.ErrInvalid},
		{name: "null with fill", shape: []int{2, 2}, n: 2, valid: []bool{false, true}, fill: new(float64)},
		{name: "null with fill, 3-cycle", shape: []int{2, 3, 4}, perm: []int{2, 0, 1}, n: 2, valid: []bool{true, false}, fill: new(float64)},
	}
	for _, tt := range tests {
		for _, dt := range elemTypes {
			for _, big := range []bool{false, true} {
				t.Run(tt.name+"/"+dt.String()+map[bool]string{false: "/le", true: "/be"}[big], func(t *testing.T) {
					mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
					defer mem.AssertSize(t, 0)
					m := metadata.MustNew(tt.shape, nil, tt.perm)
					vals := patternValues(dt, tt.n*m.Size())
					a := fromLogical(t, dt, m, vals, tt.valid)
					defer a.Release()
					want := append([]float64(nil), vals...)
					wo := []npy.WriteOption{npy.WithBigEndian(big)}
					if tt.fill != nil {
						fill := 7.0
						if dt.ID() == arrow.BOOL {
							fill = 1 // a bool holds 0 and 1 only
						}
						wo = append(wo, npy.WithFillNulls(fill))
						for i, ok := range tt.valid {
							if !ok {
								for k := range m.Size() {
									want[i*m.Size()+k] = fill
								}
							}
						}
					}
					ro := []npy.ReadOption{npy.WithAllocator(mem)}
					var col bytes.Buffer
					err := npy.WriteColumn(&col, a, wo...)
					if codectest.WantError(t, "WriteColumn", err, tt.wantErr) {
						return
					}
					got, err := npy.ReadColumn(&col, ro...)
					if err != nil {
						t.Fatal(err)
					}
					if diff := cmp.Diff(want, logical(t, got)); diff != "" {
						t.Errorf("column values (-want +got):\n%s", diff)
					}
					if diff := cmp.Diff(m.Shape(), got.TensorType().Shape()); diff != "" {
						t.Errorf("column tensor shape (-want +got):\n%s", diff)
					}
					got.Release()

					// One tensor: a permutation that is the full reversal
					// survives as Fortran order and reads back zero-copy.
					var one bytes.Buffer
					if err := npy.WriteTensor(&one, a, 0, wo...); err != nil {
						t.Fatal(err)
					}
					h, err := npy.ParseHeader(one.Bytes(), 0)
					if err != nil {
						t.Fatal(err)
					}
					if h.FortranOrder != tt.wantOrder {
						t.Errorf("fortran_order = %v, want %v", h.FortranOrder, tt.wantOrder)
					}
					b := one.Bytes()
					tg, err := npy.DecodeTensor(b, ro...)
					if err != nil {
						t.Fatal(err)
					}
					defer tg.Release()
					if diff := cmp.Diff(want[:m.Size()], logical(t, tg)); diff != "" {
						t.Errorf("tensor values (-want +got):\n%s", diff)
					}
					if tt.wantOrder && !tg.TensorType().Metadata().Equal(m) {
						t.Errorf("tensor metadata = %v, want %v", tg.TensorType().Metadata(), m)
					}
					vb := tg.ValueBytes()
					shared := len(vb) > 0 && &vb[0] == &b[h.DataOffset]
					// Bools are packed into bits: always a copy.
					wantShared := (!big || dt.(arrow.FixedWidthDataType).BitWidth() == 8) && dt.ID() != arrow.BOOL
					if shared != wantShared {
						t.Errorf("DecodeTensor shares the input = %v, want %v", shared, wantShared)
					}
				})
			}
		}
	}
}
