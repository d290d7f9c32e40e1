package numeric

import "encoding/binary"

// SumU8Periodic adds the bytes of x to acc by position modulo len(acc):
// acc[j%len(acc)] += uint64(x[j]) for every j < len(x). With acc one slot
// per channel and x starting on channel 0 of interleaved pixels (an HWC
// image's bytes), it leaves the exact per-channel sums. The sums wrap in
// 64 bits, which takes more than 2^56 bytes. Periods up to 32 use an
// AVX2 kernel when the CPU has one; longer periods, the pure-Go build and
// the tail shorter than a kernel block (32 bytes times the odd part of the
// period) add eight bytes at a time in Go. It panics if acc is empty and
// x is not.
func SumU8Periodic(acc []uint64, x []uint8) {
	if len(x) == 0 {
		return
	}
	p := len(acc)
	if p == 0 {
		panic("numeric: SumU8Periodic with an empty accumulator")
	}
	n := sumU8Periodic(acc, x) // a multiple of p
	sumU8PeriodicGo(acc, x[n:])
}

// maxSWARWords bounds the 8-byte words of sumU8PeriodicGo's blocks.
const maxSWARWords = 32

// sumU8PeriodicGo is SumU8Periodic in Go, eight bytes at a time: a block
// of 8*words bytes (a multiple of both 8 and p = len(acc), so that each of
// its byte positions has a fixed channel) is read as words, whose even and
// odd bytes add into the 16-bit lanes of two accumulators each; after at
// most 256 blocks (256*255 < 2^16) the lanes add into acc by channel.
// Periods whose block would exceed maxSWARWords words, and the tail
// shorter than a block, go byte by byte.
func sumU8PeriodicGo(acc []uint64, x []uint8) {
	p := len(acc)
	words := p // lcm(8, p)/8 = p/gcd(p, 8), doubled up to 4 or more
	for k := 0; k < 3 && words%2 == 0; k++ {
		words /= 2
	}
	for words < 4 {
		words *= 2
	}
	i := 0
	if words <= maxSWARWords {
		const even = 0x00FF00FF00FF00FF
		bs := 8 * words
		var a [2 * maxSWARWords]uint64
		lanes := a[:2*words]
		for i+bs <= len(x) {
			for range min((len(x)-i)/bs, 256) {
				b := x[i : i+bs]
				for k := 0; k < len(lanes); k += 2 {
					w := binary.LittleEndian.Uint64(b[4*k:])
					lanes[k] += w & even
					lanes[k+1] += w >> 8 & even
				}
				i += bs
			}
			// Lane m of accumulator 2k+h holds byte 8k+2m+h of each block.
			for j, v := range lanes {
				for m := range 4 {
					acc[(8*(j>>1)+2*m+j&1)%p] += v >> (16 * m) & 0xFFFF
				}
			}
			clear(lanes)
		}
	}
	// i is a multiple of p.
	for ; i < len(x); i += p {
		for c, v := range x[i:min(i+p, len(x))] {
			acc[c] += uint64(v)
		}
	}
}
