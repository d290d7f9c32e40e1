package zio

import (
	"github.com/fstensor/fstensor/codec/internal/rawcol"
	"github.com/fstensor/fstensor/fixedshape"
)

// newArray is rawcol.NewArray with this package's errors.
func newArray(typ *fixedshape.Type, raw []byte) (*fixedshape.Array, error) {
	arr, err := rawcol.NewArray(typ, raw)
	if err != nil {
		return nil, wrap(err, "column")
	}
	return arr, nil
}

// flip copies src to dst, both in the physical layout of typ with wordOf(typ)
// bytes per element, reversing the index of every logical axis a with
// ascend[a] false: dst holds at logical index idx what src holds at idx with
// those axes reversed. The copy is one strided view (rawcol.Gather) over
// the physical axes, outermost first, whose flipped axes start at their
// last element and step backwards.
func flip(dst, src []byte, typ *fixedshape.Type, ascend []bool) {
	shape := typ.Shape()
	strides := typ.ElemStrides()
	n := len(shape)
	perm := typ.Metadata().Permutation() // physical axis k is logical axis perm[k]
	pshape, pstrides := make([]int, n), make([]int, n)
	base := 0
	for k := range n {
		a := k
		if perm != nil {
			a = perm[k]
		}
		pshape[k], pstrides[k] = shape[a], strides[a]
		if !ascend[a] {
			base += (shape[a] - 1) * strides[a]
			pstrides[k] = -strides[a]
		}
	}
	rawcol.Gather(dst, src, wordOf(typ), pshape, pstrides, base)
}
