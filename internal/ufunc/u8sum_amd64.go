//go:build !purego

package ufunc

import "unsafe"

// Implemented in u8sum_amd64.s: blocks of 32*L bytes (L = 1, 3, 5 or 7),
// each byte position of a block added into its own lane; out holds the
// 32*L lane totals as uint32, added to (not overwritten). n > 0 blocks,
// n*255 < 2^32.
//
//go:noescape
func sumU8L1(out, x unsafe.Pointer, n int)

//go:noescape
func sumU8L3(out, x unsafe.Pointer, n int)

//go:noescape
func sumU8L5(out, x unsafe.Pointer, n int)

//go:noescape
func sumU8L7(out, x unsafe.Pointer, n int)

// maxU8Blocks bounds the blocks of one kernel call so that no uint32
// lane total overflows (maxU8Blocks*255 < 2^32).
const maxU8Blocks = 1 << 24

// sumU8Periodic adds the leading whole blocks of x to acc by position
// modulo len(acc) and returns how many bytes it handled, a multiple of
// len(acc) (0 when the period has no kernel).
func sumU8Periodic(acc []uint64, x []uint8) int {
	p := len(acc)
	if !useAVX2 || p > 32 {
		return 0
	}
	// A block is lcm(32, p) = 32*L bytes, so that every byte position of
	// a block has a fixed channel; L is the odd part of p.
	l := p
	for l&1 == 0 {
		l >>= 1
	}
	if l > 7 {
		return 0
	}
	bs := 32 * l
	nb := len(x) / bs
	var out [32 * 7]uint32
	lanes := out[:bs]
	for done := 0; done < nb; {
		k := min(nb-done, maxU8Blocks)
		o, b := unsafe.Pointer(&out[0]), unsafe.Pointer(&x[done*bs])
		// Direct calls, so that out stays on the stack.
		switch l {
		case 1:
			sumU8L1(o, b, k)
		case 3:
			sumU8L3(o, b, k)
		case 5:
			sumU8L5(o, b, k)
		default:
			sumU8L7(o, b, k)
		}
		done += k
		for i := 0; i < bs; i += p {
			for c, v := range lanes[i : i+p] {
				acc[c] += uint64(v)
			}
		}
		clear(lanes)
	}
	return nb * bs
}
