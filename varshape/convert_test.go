package varshape_test

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/arrowconv"
	"github.com/fstensor/fstensor/codec/npy"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/varshape"
)

// TestRowBridges hands rows to arrow-go's arrow/tensor and to .npy through
// Array.Row, and rebuilds a column from what comes back.
func TestRowBridges(t *testing.T) {
	mem := testvec.CheckedMem(t)
	typ := varshape.MustNewType(arrow.PrimitiveTypes.Int32, 3, varshape.Options{Permutation: []int{2, 0, 1}})
	shapes := [][]int{{2, 3, 4}, {1, 2, 3}, {4, 1, 2}}
	vals := make([][]int32, len(shapes))
	for i, s := range shapes {
		vals[i] = iota(100*i, prod(s))
	}
	in, err := varshape.FromSlices(mem, typ, shapes, vals)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Release()
	viaTensor, err := varshape.NewBuilder[int32](mem, typ)
	if err != nil {
		t.Fatal(err)
	}
	viaNpy, _ := varshape.NewBuilder[int32](mem, typ)
	for i := range in.Len() {
		row, err := in.Row(i)
		if err != nil {
			t.Fatal(err)
		}
		tn, err := arrowconv.SlotTensor(row, 0)
		if err != nil {
			t.Fatal(err)
		}
		back, err := arrowconv.FromSlotTensor(tn)
		tn.Release()
		if err != nil {
			t.Fatal(err)
		}
		addRow(t, viaTensor, back)
		back.Release()

		var buf bytes.Buffer
		if err := npy.WriteTensor(&buf, row, 0); err != nil {
			t.Fatal(err)
		}
		row.Release()
		dec, err := npy.DecodeTensor(buf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		addRow(t, viaNpy, dec)
		dec.Release()
	}
	for name, b := range map[string]*varshape.Builder[int32]{"arrow/tensor": viaTensor, "npy": viaNpy} {
		out := b.NewArray()
		if diff := cmp.Diff(in.String(), out.String()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
		out.Release()
	}
}

func addRow(t *testing.T, b *varshape.Builder[int32], one *fixedshape.Array) {
	t.Helper()
	col, err := fixedshape.ColumnOf[int32](one)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.AppendTensor(col.Tensor(0)); err != nil {
		t.Fatal(err)
	}
}
