package zio

import (
	"github.com/fstensor/fstensor/codec/internal/rawcol"
	"github.com/fstensor/fstensor/fixedshape"
)

// boolBytes returns the elements of tensor i of the bool column arr in
// physical order, one byte 0 or 1 each, in a new slice: the payload part
// ZIO's C++ writes for a bool array, whose elements are one byte.
func boolBytes(arr *fixedshape.Array, i int) []byte {
	size := arr.TensorType().ListSize()
	bits, first := arr.ValueBits()
	first += i * size
	out := make([]byte, size)
	for k := range out {
		b := first + k
		out[k] = bits[b/8] >> (b % 8) & 1
	}
	return out
}

// badBool returns the index and value of the first byte of data that is
// neither 0 nor 1, or -1 and 0 when there is none.
func badBool(data []byte) (int, byte) {
	for k, v := range data {
		if v > 1 {
			return k, v
		}
	}
	return -1, 0
}

// boolColumn packs the bool tensors of srcs, whose sizes and bytes
// ReadColumn checked, into a new bool column of typ, flipping descending
// axes on the way.
func boolColumn(typ *fixedshape.Type, srcs []tensorSrc) (*fixedshape.Array, error) {
	arr, err := rawcol.PackBools(typ, len(srcs), func(i int) []byte {
		s := srcs[i]
		if !descending(s.info.Ascend) {
			return s.data
		}
		dst := make([]byte, len(s.data))
		flip(dst, s.data, typ, s.info.Ascend)
		return dst
	})
	if err != nil {
		return nil, wrap(err, "column")
	}
	return arr, nil
}
