package fixedshape

// RawAt returns the bytes of the element at logical index idx of tensor i:
// [Type.ElemWidth] bytes, as Arrow stores them (little-endian). It serves
// every element type, those without a Go type in [Elem] (decimals,
// timestamps, intervals, fixed-size binaries) included. The slice shares
// the array's memory: do not modify it. It panics, as slice indexing does,
// if i or an index is out of range or len(idx) is not the number of
// logical dimensions, or for a bool column (its elements are bits: use
// [Array.BoolAt]). It assumes [Array.Validate] holds.
func (a *Array) RawAt(i int, idx ...int) []byte {
	if BitElem(a.TensorType().ElemType()) {
		panic("fixedshape: RawAt on a bool column")
	}
	off := a.elemOffset(i, idx)
	t := a.TensorType()
	w := t.ElemWidth()
	start := (i*t.ListSize() + off) * w
	return a.ValueBytes()[start : start+w : start+w]
}
