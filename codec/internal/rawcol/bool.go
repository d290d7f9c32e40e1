package rawcol

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/stride"
)

// BadBool is the error of PackBools for an element byte other than 0 or 1.
type BadBool struct {
	Tensor, Elem int  // where: tensor index, element index in C order
	Value        byte // the byte found
}

func (e *BadBool) Error() string {
	return fmt.Sprintf("tensor %d: element %d is %d, not 0 or 1", e.Tensor, e.Elem, e.Value)
}

// PackBools packs n tensors of one byte 0 or 1 per element in C order,
// data(i) for tensor i, each of typ.ListSize() bytes (the caller checked
// the lengths), into a new bool column of typ. A byte other than 0 or 1
// fails with a *BadBool; errors of the column's construction are
// fixedshape's.
func PackBools(typ *fixedshape.Type, n int, data func(i int) []byte) (*fixedshape.Array, error) {
	bits := make([]byte, (n*typ.ListSize()+7)/8)
	k := 0
	for i := range n {
		for j, v := range data(i) {
			switch v {
			case 0:
			case 1:
				bits[k/8] |= 1 << (k % 8)
			default:
				return nil, &BadBool{Tensor: i, Elem: j, Value: v}
			}
			k++
		}
	}
	return fixedshape.NewArrayFromBuffer(typ, n, memory.NewBufferBytes(bits))
}

// BoolBytes returns the elements of tensor i of the bool column arr in
// logical C order, one byte 0 or 1 each, in a new slice.
func BoolBytes(arr *fixedshape.Array, i int) []byte {
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
