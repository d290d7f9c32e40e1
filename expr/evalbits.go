package expr

import (
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/stride"
)

// runBits writes the result of every tensor of a bool column in to dst,
// bit-packed from bit 0, and clears null tensors' bits. Each stage reads
// its view of the previous stage's bits: runs of the innermost axis that
// are contiguous in the source (stride 1) are copied by
// bitutil.CopyBitmap, a word at a time and a byte copy when source and
// destination line up; other views are gathered bit by bit.
func (p *Plan) runBits(dst []byte, in *fixedshape.Array) {
	n := in.Len()
	outSize := p.out.Size()
	if n == 0 || outSize == 0 {
		return
	}
	src, first := in.ValueBits()
	var sa, sb []byte
	if len(p.stages) > 1 {
		sa = make([]byte, bitutil.BytesForBits(int64(p.scratch)))
		sb = make([]byte, len(sa))
	}
	for t := range n {
		if in.IsNull(t) {
			bitutil.SetBitsTo(dst, int64(t*outSize), int64(outSize), false)
			continue
		}
		s, off := src, first+t*p.inSize
		for k, st := range p.stages {
			d, doff := sa, 0
			if k == len(p.stages)-1 {
				d, doff = dst, t*outSize
			}
			gatherBits(d, doff, s, off, st)
			s, off = d, 0
			sa, sb = sb, sa
		}
	}
}

// gatherBits writes the elements of view st of the bits of src starting
// at bit srcOff to dst from bit dstOff, in row-major order.
func gatherBits(dst []byte, dstOff int, src []byte, srcOff int, st Stage) {
	shape, strides := st.Shape, st.Strides
	base := srcOff + st.Offset
	if last := len(shape) - 1; last >= 0 && strides[last] == 1 && shape[last] > 1 {
		inner := shape[last]
		j := dstOff
		for o := range stride.Offsets(shape[:last], strides[:last]) {
			bitutil.CopyBitmap(src, base+o, inner, dst, j)
			j += inner
		}
		return
	}
	j := dstOff
	for o := range stride.Offsets(shape, strides) {
		bitutil.SetBitTo(dst, j, bitutil.BitIsSet(src, base+o))
		j++
	}
}
