package decthings

import (
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/stride"
)

// boolColumn packs the Boolean data of ts, one byte 0 or 1 per
// element, whose lengths NewColumn checked, into a bool column of typ.
func boolColumn(typ *fixedshape.Type, ts []Tensor) (*fixedshape.Array, error) {
	size := typ.ListSize()
	bits := make([]byte, (len(ts)*size+7)/8)
	k := 0
	for i := range ts {
		for j, v := range ts[i].Data {
			switch v {
			case 0:
			case 1:
				bits[k/8] |= 1 << (k % 8)
			default:
				return nil, errorf("column: tensor %d: boolean element %d is %d, not 0 or 1", i, j, v)
			}
			k++
		}
	}
	arr, err := fixedshape.NewArrayFromBuffer(typ, len(ts), memory.NewBufferBytes(bits))
	if err != nil {
		return nil, wrap(err, "column")
	}
	return arr, nil
}

// boolBytes returns the elements of tensor i of the bool column arr in C
// order, one byte 0 or 1 each.
func boolBytes(arr *fixedshape.Array, i int) []byte {
	typ := arr.TensorType()
	bits, first := arr.ValueBits()
	first += i * typ.ListSize()
	out := make([]byte, 0, typ.ListSize())
	for off := range stride.Offsets(typ.Shape(), typ.ElemStrides()) {
		k := first + off
		out = append(out, bits[k/8]>>(k%8)&1)
	}
	return out
}
