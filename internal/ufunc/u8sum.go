package ufunc

// SumU8Periodic adds the bytes of x to acc by position modulo len(acc):
// acc[j%len(acc)] += uint64(x[j]) for every j < len(x). With acc one slot
// per channel and x starting on channel 0 of interleaved pixels (an HWC
// image's bytes), it leaves the exact per-channel sums. The sums wrap in
// 64 bits, which takes more than 2^56 bytes. Periods up to 32 whose odd
// part is 1, 3, 5 or 7 (1 to 8, 10, 12, 14, 16, 20, 24, 28, 32) use an
// AVX2 kernel when the CPU has one; every other period, and the tail
// shorter than a kernel block (32 bytes times the odd part), go through
// a Go loop. It panics if acc is empty and x is not.
func SumU8Periodic(acc []uint64, x []uint8) {
	if len(x) == 0 {
		return
	}
	p := len(acc)
	if p == 0 {
		panic("ufunc: SumU8Periodic with an empty accumulator")
	}
	n := sumU8Periodic(acc, x) // a multiple of p
	x = x[n:]
	if p == 1 {
		acc[0] += SumU8(x)
		return
	}
	if p <= 8 {
		// Slots in locals of a fixed-size array the compiler can keep
		// apart from acc; whole periods, then the remainder.
		var s [8]uint64
		i := 0
		for ; i+p <= len(x); i += p {
			for c, v := range x[i : i+p] {
				s[c] += uint64(v)
			}
		}
		for c, v := range x[i:] {
			s[c] += uint64(v)
		}
		for c := range acc {
			acc[c] += s[c]
		}
		return
	}
	for i := 0; i < len(x); i += p {
		for c, v := range x[i:min(i+p, len(x))] {
			acc[c] += uint64(v)
		}
	}
}
