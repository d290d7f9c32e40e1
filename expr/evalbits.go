package expr

import (
	"encoding/binary"
	"slices"

	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/layout"
	"github.com/fstensor/fstensor/stride"
)

// runBits writes the result of every tensor of a bool column in to dst,
// bit-packed from bit 0, and clears null tensors' bits. Each stage reads
// its view of the previous stage's bits through a bitWriter: runs of the
// innermost axis that are contiguous in the source (stride 1) are copied
// as whole bytes when source and destination are both at a byte boundary
// and otherwise move up to 56 bits per load and store; other views are
// gathered bit by bit in a tight loop over the innermost axis, stored 56
// bits at a time, except that a view whose innermost axis has a stride
// other than 1 and another axis has stride 1 (a transpose, of the last two
// axes or any two) moves through 8x8 or 64x64 bit-matrix transposes
// (bitWriter.transpose).
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
func (w *bitWriter) gather(src []byte, srcOff int, st stage) {
	shape, strides := st.Shape, st.Strides
	base := srcOff + st.Offset
	last := len(shape) - 1
	if last < 0 { // 0-D
		w.put(loadBits(src, base, 1), 1)
		return
	}
	if t, ok := newBitTile(shape, strides); ok && bitTiles {
		w.transpose(src, base, &t)
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

// bitTiles enables bitWriter.transpose; tests turn it off to run the
// bit-by-bit gather as their reference.
var bitTiles = true

// maxTileRank is the largest view rank bitWriter.transpose takes; views of
// more axes are gathered bit by bit.
const maxTileRank = 8

// bitTile is a view read as a batch of 2-D transposes: for every index of
// the outer axes (all but axes j and the innermost), the R x C matrix
// out[r][c] = src[r + c*step] written at out[r*row + c].
type bitTile struct {
	R, C, step, row int
	rank            int              // number of outer axes
	shape           [maxTileRank]int // outer axes' sizes
	src, dst        [maxTileRank]int // outer axes' source and output strides
	size            int              // elements of the whole view
}

// newBitTile reports whether the view (shape, strides) has an innermost
// axis of stride other than 1 and an outer axis of stride 1, both of size 2
// or more, and returns its tiling.
func newBitTile(shape, strides []int) (t bitTile, ok bool) {
	last := len(shape) - 1
	if last < 1 || last > maxTileRank || strides[last] == 1 || shape[last] < 2 {
		return t, false
	}
	j := last - 1
	for ; j >= 0 && (strides[j] != 1 || shape[j] < 2); j-- {
	}
	if j < 0 || slices.Contains(shape, 0) {
		return t, false
	}
	t.R, t.C, t.step = shape[j], shape[last], strides[last]
	// Dense row-major output strides, innermost first.
	t.size = 1
	var out [maxTileRank + 1]int
	for k := last; k >= 0; k-- {
		out[k] = t.size
		t.size *= shape[k]
	}
	t.row = out[j]
	for k := range last {
		if k != j {
			t.shape[t.rank], t.src[t.rank], t.dst[t.rank] = shape[k], strides[k], out[k]
			t.rank++
		}
	}
	return t, true
}

// transpose appends the elements of tiling t of the bits of src from bit
// base. It writes the output in place (storeBits) and leaves w after it.
func (w *bitWriter) transpose(src []byte, base int, t *bitTile) {
	if w.n > 0 {
		w.dst[w.pos] = byte(w.acc)
	}
	start := w.pos<<3 + int(w.n)
	var idx [maxTileRank]int
	so, do := base, start
	for {
		switch {
		case t.R >= 24 && t.C >= 24:
			transpose64(w.dst, do, src, so, t)
		case t.C <= 8 && t.row == t.C:
			interleave(w.dst, do, src, so, t)
		case t.R <= 8 && t.step == t.R:
			deinterleave(w.dst, do, src, so, t)
		default:
			transpose8(w.dst, do, src, so, t)
		}
		// Advance the odometer over the outer axes.
		k := t.rank - 1
		for ; k >= 0; k-- {
			idx[k]++
			so += t.src[k]
			do += t.dst[k]
			if idx[k] < t.shape[k] {
				break
			}
			so -= idx[k] * t.src[k]
			do -= idx[k] * t.dst[k]
			idx[k] = 0
		}
		if k < 0 {
			break
		}
	}
	end := start + t.size
	w.pos, w.n, w.acc = end>>3, uint(end&7), 0
	if w.n > 0 {
		w.acc = uint64(w.dst[w.pos]) & (1<<w.n - 1)
	}
}

// transpose64 writes one R x C matrix of t through 64x64 bit transposes.
func transpose64(dst []byte, do int, src []byte, so int, t *bitTile) {
	var m [64]uint64
	for r0 := 0; r0 < t.R; r0 += 64 {
		rh := uint(min(64, t.R-r0))
		for c0 := 0; c0 < t.C; c0 += 64 {
			cw := min(64, t.C-c0)
			s := so + c0*t.step + r0
			for c := range cw {
				m[c] = loadBits64(src, s, rh)
				s += t.step
			}
			clear(m[cw:])
			layout.TransposeBits64(&m)
			d := do + r0*t.row + c0
			for r := range rh {
				storeBits(dst, d, m[r], uint(cw))
				d += t.row
			}
		}
	}
}

// transpose8 writes one R x C matrix of t through 8x8 bit transposes, for
// matrices with a small side. When a block's columns are contiguous in the
// source (step == R, R <= 8) they are read in one load, and when its rows
// are contiguous in the output (row == C, C <= 8) they are written in one
// store.
func transpose8(dst []byte, do int, src []byte, so int, t *bitTile) {
	for r0 := 0; r0 < t.R; r0 += 8 {
		rh := uint(min(8, t.R-r0))
		for c0 := 0; c0 < t.C; c0 += 8 {
			cw := uint(min(8, t.C-c0))
			s := so + c0*t.step + r0
			var x uint64
			if t.step == t.R && t.R <= 8 {
				v := loadBits64(src, s, cw*rh)
				for c := range cw {
					x |= (v >> (c * rh) & (1<<rh - 1)) << (8 * c)
				}
			} else {
				for c := range cw {
					x |= loadBits(src, s, rh) << (8 * c)
					s += t.step
				}
			}
			x = layout.TransposeBits8(x)
			d := do + r0*t.row + int(c0)
			if t.row == t.C && t.C <= 8 {
				var v uint64
				for r := range rh {
					v |= (x >> (8 * r) & (1<<cw - 1)) << (r * cw)
				}
				storeBits(dst, d, v, rh*cw)
				continue
			}
			for r := range rh {
				storeBits(dst, d, x>>(8*r), cw)
				d += t.row
			}
		}
	}
}

// interleave writes one R x C matrix of t whose C <= 8 columns are
// contiguous output rows (an image's planes into pixels, CHW to HWC): it
// loads 64 elements of every column at once and makes each 8 output rows
// with an 8x8 transpose and one store.
func interleave(dst []byte, do int, src []byte, so int, t *bitTile) {
	c := uint(t.C)
	var w [8]uint64
	for r0 := 0; r0 < t.R; r0 += 64 {
		rh := uint(min(64, t.R-r0))
		s := so + r0
		for k := range c {
			w[k] = loadBits64(src, s, rh)
			s += t.step
		}
		d := do + r0*t.C
		for g := uint(0); g < rh; g += 8 {
			n := min(8, rh-g)
			var x uint64
			for k := range c {
				x |= (w[k] >> g & 0xff) << (8 * k)
			}
			storeBits(dst, d, compactBytes(layout.TransposeBits8(x), c), n*c)
			d += int(n * c)
		}
	}
}

// deinterleave writes one R x C matrix of t with R <= 8 whose columns are
// contiguous in the source (step == R; pixels into planes, HWC to CHW):
// every 8 columns come from one load and an 8x8 transpose, and each
// output row is stored 64 elements at a time.
func deinterleave(dst []byte, do int, src []byte, so int, t *bitTile) {
	r := uint(t.R)
	var rows [8]uint64
	for c0 := 0; c0 < t.C; c0 += 64 {
		cw := uint(min(64, t.C-c0))
		rows = [8]uint64{}
		s := so + c0*t.R
		for g := uint(0); g < cw; g += 8 {
			n := min(8, cw-g)
			x := layout.TransposeBits8(expandBytes(loadBits64(src, s, n*r), r))
			for k := range r {
				rows[k] |= (x >> (8 * k) & 0xff) << g
			}
			s += int(n * r)
		}
		d := do + c0
		for k := range r {
			storeBits(dst, d, rows[k], cw)
			d += t.row
		}
	}
}

// compactBytes returns the low k bits (1 <= k <= 8) of every byte of x,
// byte i's at bits [ik, ik+k).
func compactBytes(x uint64, k uint) uint64 {
	m1 := 0x0101010101010101 * (uint64(1)<<k - 1)
	m2 := 0x0001000100010001 * (uint64(1)<<k - 1)
	m4 := 0x0000000100000001 * (uint64(1)<<(2*k) - 1)
	x &= m1
	x = x&m2 | x>>(8-k)&(m2<<k)
	x = x&m4 | x>>(16-2*k)&(m4<<(2*k))
	lo := uint64(1)<<(4*k) - 1
	return x&lo | x>>(32-4*k)&(lo<<(4*k))
}

// expandBytes is the inverse of compactBytes: bits [ik, ik+k) of x (which
// has no bits from 8k up) go to the low k bits of byte i.
func expandBytes(x uint64, k uint) uint64 {
	lo := uint64(1)<<(4*k) - 1
	x = x&lo | (x>>(4*k)&lo)<<32
	m4 := 0x0000000100000001 * (uint64(1)<<(2*k) - 1)
	x = x&m4 | (x>>(2*k)&m4)<<16
	m2 := 0x0001000100010001 * (uint64(1)<<k - 1)
	return x&m2 | (x>>k&m2)<<8
}

// loadBits64 is loadBits for up to 64 bits.
func loadBits64(src []byte, off int, k uint) uint64 {
	if i := off >> 3; k == 64 && off&7 == 0 && i+8 <= len(src) {
		return binary.LittleEndian.Uint64(src[i:])
	}
	if k <= 56 {
		return loadBits(src, off, k)
	}
	return loadBits(src, off, 32) | loadBits(src, off+32, k-32)<<32
}

// storeBits writes the low k bits (k <= 64) of v to dst from bit pos,
// keeping every other bit of dst.
func storeBits(dst []byte, pos int, v uint64, k uint) {
	if i := pos >> 3; k == 64 && pos&7 == 0 && i+8 <= len(dst) {
		binary.LittleEndian.PutUint64(dst[i:], v)
		return
	}
	if k > 56 {
		storeBits(dst, pos, v, 32)
		storeBits(dst, pos+32, v>>32, k-32)
		return
	}
	i, sh := pos>>3, uint(pos&7)
	mask := (uint64(1)<<k - 1) << sh
	v = v << sh & mask
	if i+8 <= len(dst) {
		x := binary.LittleEndian.Uint64(dst[i:])
		binary.LittleEndian.PutUint64(dst[i:], x&^mask|v)
		return
	}
	for ; mask != 0; i, mask, v = i+1, mask>>8, v>>8 {
		dst[i] = dst[i]&^byte(mask) | byte(v)
	}
}
