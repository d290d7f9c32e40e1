package expr

import (
	"encoding/binary"

	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/stride"
)

// runBits writes the result of every tensor of a bool column in to dst,
// bit-packed from bit 0, and clears null tensors' bits. Each stage reads
// its view of the previous stage's bits through a bitWriter: runs of the
// innermost axis that are contiguous in the source (stride 1) are copied
// as whole bytes when source and destination are both at a byte boundary
// and otherwise move up to 56 bits per load and store; other views are
// gathered bit by bit in a tight loop over the innermost axis, stored 56
// bits at a time.
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
			w := newBitWriter(d, doff)
			w.gather(s, off, st)
			w.flush()
			s, off = d, 0
			sa, sb = sb, sa
		}
	}
}

// bitWriter appends bits to dst from a bit position, a byte at a time
// through a 64-bit accumulator. Bits of dst below the start position in
// its byte are kept; bits after the last one written, in its byte, are
// cleared.
type bitWriter struct {
	dst []byte
	pos int    // byte index the accumulator flushes to
	acc uint64 // pending bits, least significant first
	n   uint   // number of pending bits (< 8 between calls)
}

func newBitWriter(dst []byte, bit int) bitWriter {
	w := bitWriter{dst: dst, pos: bit >> 3, n: uint(bit & 7)}
	if w.n > 0 {
		w.acc = uint64(dst[w.pos]) & (1<<w.n - 1)
	}
	return w
}

// put appends the low k bits of v (k <= 56).
func (w *bitWriter) put(v uint64, k uint) {
	w.acc |= (v & (1<<k - 1)) << w.n
	w.n += k
	for w.n >= 8 {
		w.dst[w.pos] = byte(w.acc)
		w.pos++
		w.acc >>= 8
		w.n -= 8
	}
}

// flush writes the pending bits.
func (w *bitWriter) flush() {
	if w.n > 0 {
		w.dst[w.pos] = byte(w.acc)
		w.acc, w.n = 0, 0
	}
}

// loadBits returns the k bits (k <= 56) of src from bit off, least
// significant first.
func loadBits(src []byte, off int, k uint) uint64 {
	i := off >> 3
	var v uint64
	if i+8 <= len(src) {
		v = binary.LittleEndian.Uint64(src[i:])
	} else {
		for j := len(src) - 1; j >= i; j-- {
			v = v<<8 | uint64(src[j])
		}
	}
	return v >> uint(off&7) & (1<<k - 1)
}

// gather appends the elements of view st of the bits of src from bit
// srcOff, in row-major order.
func (w *bitWriter) gather(src []byte, srcOff int, st Stage) {
	shape, strides := st.Shape, st.Strides
	base := srcOff + st.Offset
	last := len(shape) - 1
	if last < 0 { // 0-D
		w.put(loadBits(src, base, 1), 1)
		return
	}
	inner, step := shape[last], strides[last]
	for o := range stride.Offsets(shape[:last], strides[:last]) {
		b := base + o
		if step == 1 {
			r := inner
			if b&7 == 0 && w.n == 0 && r >= 8 {
				// Whole bytes on both sides: copy them.
				nb := r >> 3
				copy(w.dst[w.pos:w.pos+nb], src[b>>3:])
				w.pos += nb
				b += nb << 3
				r -= nb << 3
			}
			for r > 0 {
				k := min(r, 56)
				w.put(loadBits(src, b, uint(k)), uint(k))
				b += k
				r -= k
			}
			continue
		}
		// A gather: collect up to 56 bits before each store.
		var acc uint64
		var k uint
		for range inner {
			acc |= uint64(src[b>>3]>>uint(b&7)&1) << k
			b += step
			if k++; k == 56 {
				w.put(acc, 56)
				acc, k = 0, 0
			}
		}
		if k > 0 {
			w.put(acc, k)
		}
	}
}
