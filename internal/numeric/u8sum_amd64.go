//go:build !purego

package numeric

import "unsafe"

// Implemented in u8sum_amd64.s: blocks of 32*L bytes (L = 1, 3, 5 or 7,
// the accumulators in registers), each byte position of a block added into its own lane; out holds the
// 32*L lane totals as uint32, added to (not overwritten). n > 0 blocks,
// n*255 < 2^32. The kernels' loads ahead read four bytes at most up to
// last, the address of the last four bytes of the data (at or after the
// blocks' last).
//
//go:noescape
func sumU8L1(out, x unsafe.Pointer, n int, last unsafe.Pointer)

//go:noescape
func sumU8L3(out, x unsafe.Pointer, n int, last unsafe.Pointer)

//go:noescape
func sumU8L5(out, x unsafe.Pointer, n int, last unsafe.Pointer)

//go:noescape
func sumU8L7(out, x unsafe.Pointer, n int, last unsafe.Pointer)

// sumU8Lanes is the same for any L > 0, its 32*L uint16 lanes kept at
// lanes (zero on entry, left zero).
//
//go:noescape
func sumU8Lanes(lanes, out, x unsafe.Pointer, l, n int, last unsafe.Pointer)

// maxU8Odd bounds the odd part L of the periods with a kernel: 31 covers
// every period up to 32.
const maxU8Odd = 31

// maxU8Blocks bounds the blocks of one kernel call so that no uint32
// lane total overflows (maxU8Blocks*255 < 2^32).
const maxU8Blocks = 1 << 24

// sumU8Periodic adds the leading whole blocks of x to acc by position
// modulo len(acc) and returns how many bytes it handled, a multiple of
// len(acc) (0 when the period has no kernel).
func sumU8Periodic(acc []uint64, x []uint8) int {
	p := len(acc)
	if !useAVX2 || p > 32 || len(x) < 32*p {
		return 0
	}
	// A block is lcm(32, p) = 32*L bytes, so that every byte position of
	// a block has a fixed channel; L is the odd part of p.
	l := p
	for l&1 == 0 {
		l >>= 1
	}
	bs := 32 * l
	n := len(x) / bs * bs
	// The loads ahead may read all of x, the tail the kernels leave
	// too.
	last := lastWordOf(x)
	if l <= 7 {
		sumU8Regs(acc, x[:n], l, last)
	} else {
		sumU8Mem(acc, x[:n], l, last)
	}
	return n
}

// sumU8Regs runs the kernel for L <= 7 over x, whole blocks, its loads
// ahead bounded by last.
func sumU8Regs(acc []uint64, x []uint8, l int, last unsafe.Pointer) {
	var out [32 * 7]uint32
	bs := 32 * l
	for done := 0; done < len(x); {
		k := min((len(x)-done)/bs, maxU8Blocks)
		o, b := unsafe.Pointer(&out[0]), unsafe.Pointer(&x[done])
		// Direct calls, so that out stays on the stack.
		switch l {
		case 1:
			sumU8L1(o, b, k, last)
		case 3:
			sumU8L3(o, b, k, last)
		case 5:
			sumU8L5(o, b, k, last)
		default:
			sumU8L7(o, b, k, last)
		}
		done += k * bs
		foldLanes(acc, out[:bs])
	}
}

// sumU8Mem runs sumU8Lanes over x, whole blocks of 32*l bytes, l <=
// maxU8Odd, its loads ahead bounded by last.
func sumU8Mem(acc []uint64, x []uint8, l int, last unsafe.Pointer) {
	var out [32 * maxU8Odd]uint32
	var lanes [32 * maxU8Odd]uint16
	bs := 32 * l
	for done := 0; done < len(x); {
		k := min((len(x)-done)/bs, maxU8Blocks)
		sumU8Lanes(unsafe.Pointer(&lanes[0]), unsafe.Pointer(&out[0]), unsafe.Pointer(&x[done]), l, k, last)
		done += k * bs
		foldLanes(acc, out[:bs])
	}
}

// foldLanes adds the lane totals of a block (a multiple of len(acc) long)
// to acc by channel and clears them.
func foldLanes(acc []uint64, lanes []uint32) {
	p := len(acc)
	for i := 0; i < len(lanes); i += p {
		for c, v := range lanes[i : i+p] {
			acc[c] += uint64(v)
		}
	}
	clear(lanes)
}
