//go:build !purego

package numeric

import (
	"runtime"
	"unsafe"
)

// Implemented in kernels_amd64.s, chain_amd64.s and acc_amd64.s: each
// handles n elements, a multiple of 16 (8 for the apply kernels), n > 0.
//
//go:noescape
func addF32x8(v, k unsafe.Pointer, n int)

//go:noescape
func subF32x8(v, k unsafe.Pointer, n int)

//go:noescape
func mulF32x8(v, k unsafe.Pointer, n int)

//go:noescape
func divF32x8(v, k unsafe.Pointer, n int)

//go:noescape
func rsubF32x8(v, k unsafe.Pointer, n int)

//go:noescape
func rdivF32x8(v, k unsafe.Pointer, n int)

//go:noescape
func maxF32x8(v, k unsafe.Pointer, n int)

//go:noescape
func minF32x8(v, k unsafe.Pointer, n int)

//go:noescape
func addScalarF32x8(v unsafe.Pointer, n int, c float32)

//go:noescape
func subScalarF32x8(v unsafe.Pointer, n int, c float32)

//go:noescape
func mulScalarF32x8(v unsafe.Pointer, n int, c float32)

//go:noescape
func divScalarF32x8(v unsafe.Pointer, n int, c float32)

//go:noescape
func rsubScalarF32x8(v unsafe.Pointer, n int, c float32)

//go:noescape
func rdivScalarF32x8(v unsafe.Pointer, n int, c float32)

//go:noescape
func maxScalarF32x8(v unsafe.Pointer, n int, c float32)

//go:noescape
func minScalarF32x8(v unsafe.Pointer, n int, c float32)

//go:noescape
func u8ToF32x16(dst, src unsafe.Pointer, n int)

//go:noescape
func storeNTF32x8(dst, src unsafe.Pointer, n int)

// chainStep is one step of chainF32x64, laid out as the assembly reads
// it: the operation (Add..RDiv), the address of the vector operand (0 for
// the scalar), and the scalar.
type chainStep struct {
	op  int64
	vec uintptr
	c   float32
	_   uint32
}

//go:noescape
func chainF32x64(dst, src unsafe.Pointer, n int, steps unsafe.Pointer, nsteps int, u8, nt bool)

//go:noescape
func accF32x16(acc, x unsafe.Pointer, n int, last unsafe.Pointer)

//go:noescape
func accRowsF32x16(acc, x unsafe.Pointer, width, rows, stride int)

//go:noescape
func accRowsF32x1p(acc, x unsafe.Pointer, width, rows, stride int)

//go:noescape
func accU8x32(acc, x unsafe.Pointer, n int, last unsafe.Pointer)

//go:noescape
func sumF32x16(x unsafe.Pointer, n int, last unsafe.Pointer) float64

//go:noescape
func sumLeavesF64x256(s unsafe.Pointer, m int, out, last unsafe.Pointer)

//go:noescape
func sumF64x16(s unsafe.Pointer, n int) float64

//go:noescape
func sumSqF32x16(x unsafe.Pointer, n int, last unsafe.Pointer) float64

//go:noescape
func sumSqDevF32x16(x unsafe.Pointer, n int, k float64, last unsafe.Pointer) float64

//go:noescape
func sumDevF64x16(x unsafe.Pointer, n int, k float64) float64

//go:noescape
func sumSqDevF64x16(x unsafe.Pointer, n int, k float64) float64

//go:noescape
func maxF32x32(x unsafe.Pointer, n int) (float32, bool)

//go:noescape
func minF32x32(x unsafe.Pointer, n int) (float32, bool)

// maxF32x32Z and minF32x32Z are maxF32x32 and minF32x32 with AVX-512F,
// with the same bits.
//
//go:noescape
func maxF32x32Z(x unsafe.Pointer, n int) (float32, bool)

//go:noescape
func minF32x32Z(x unsafe.Pointer, n int) (float32, bool)

var applyKernels = [...]func(v, k unsafe.Pointer, n int){
	Add: addF32x8, Sub: subF32x8, Mul: mulF32x8, Div: divF32x8,
	RSub: rsubF32x8, RDiv: rdivF32x8, Max: maxF32x8, Min: minF32x8,
}

var scalarKernels = [...]func(v unsafe.Pointer, n int, c float32){
	Add: addScalarF32x8, Sub: subScalarF32x8, Mul: mulScalarF32x8, Div: divScalarF32x8,
	RSub: rsubScalarF32x8, RDiv: rdivScalarF32x8, Max: maxScalarF32x8, Min: minScalarF32x8,
}

func applyF32(op Op, v, k []float32) int {
	n := len(v) &^ 7
	if !useAVX2 || n == 0 || int(op) >= len(applyKernels) {
		return 0
	}
	applyKernels[op](unsafe.Pointer(&v[0]), unsafe.Pointer(&k[0]), n)
	return n
}

func applyScalarF32(op Op, v []float32, c float32) int {
	n := len(v) &^ 7
	if !useAVX2 || n == 0 || int(op) >= len(scalarKernels) {
		return 0
	}
	scalarKernels[op](unsafe.Pointer(&v[0]), n, c)
	return n
}

func u8ToF32(dst []float32, src []uint8) int {
	n := len(dst) &^ 15
	if !useAVX2 || n == 0 {
		return 0
	}
	u8ToF32x16(unsafe.Pointer(&dst[0]), unsafe.Pointer(&src[0]), n)
	return n
}

// lastOf returns the address of the last element of s[:len(s)+after] (s
// and the after elements of its data that follow it), the bound of the
// sum kernels' loads ahead. It panics if s's capacity is short of them.
func lastOf[T float32 | float64](s []T, after int) unsafe.Pointer {
	d := s[:len(s)+after]
	return unsafe.Pointer(&d[len(d)-1])
}

// lastWordOf returns the address of the last four bytes of x (len(x) >=
// 4), the bound of the byte kernels' loads ahead (TOUCH loads four
// bytes).
func lastWordOf(x []uint8) unsafe.Pointer {
	return unsafe.Pointer(&x[len(x)-4])
}

// sumF32 sums the leading len(s)&^15 elements of s and returns their sum
// and number; the kernel's loads ahead may read the after elements that
// follow s in its data.
func sumF32(s []float32, after int) (float64, int) {
	n := len(s) &^ 15
	if !useAVX2 || n == 0 {
		return 0, 0
	}
	return sumF32x16(unsafe.Pointer(&s[0]), n, lastOf(s, after)), n
}

func sumF64(s []float64) (float64, int) {
	n := len(s) &^ 15
	if !useAVX2 || n == 0 {
		return 0, 0
	}
	return sumF64x16(unsafe.Pointer(&s[0]), n), n
}

func storeNT(dst, src []float32) bool {
	n := len(dst)
	if !useAVX2 || n == 0 || n&7 != 0 || uintptr(unsafe.Pointer(&dst[0]))&31 != 0 {
		return false
	}
	storeNTF32x8(unsafe.Pointer(&dst[0]), unsafe.Pointer(&src[0]), n)
	return true
}

// devF64 runs sumDevF64x16 (sq false) or sumSqDevF64x16 over the leading
// len(x)&^15 elements and returns their sum and number.
func devF64(x []float64, k float64, sq bool) (float64, int) {
	n := len(x) &^ 15
	if !useAVX2 || sq && !useFMA || n == 0 {
		return 0, 0
	}
	if sq {
		return sumSqDevF64x16(unsafe.Pointer(&x[0]), n, k), n
	}
	return sumDevF64x16(unsafe.Pointer(&x[0]), n, k), n
}

// sumSqDevF32 is sumF32 for the squared deviations from m.
func sumSqDevF32(x []float32, m float64, after int) (float64, int) {
	n := len(x) &^ 15
	if !useAVX2 || !useFMA || n == 0 {
		return 0, 0
	}
	return sumSqDevF32x16(unsafe.Pointer(&x[0]), n, m, lastOf(x, after)), n
}

// sumSqF32 is sumF32 for the squares.
func sumSqF32(x []float32, after int) (float64, int) {
	n := len(x) &^ 15
	if !useAVX2 || !useFMA || n == 0 {
		return 0, 0
	}
	return sumSqF32x16(unsafe.Pointer(&x[0]), n, lastOf(x, after)), n
}

// extremeF32 returns the max (or min) of x[:n], n = len(x)&^31, whether
// one of them is NaN, and n (0 without AVX2).
func extremeF32(x []float32, max bool) (float32, bool, int) {
	n := len(x) &^ 31
	if !useAVX2 || n == 0 {
		return 0, false, 0
	}
	k := minF32x32
	switch {
	case max && useAVX512:
		k = maxF32x32Z
	case max:
		k = maxF32x32
	case useAVX512:
		k = minF32x32Z
	}
	m, nan := k(unsafe.Pointer(&x[0]), n)
	return m, nan, n
}

// chain runs steps over the whole blocks of 64 elements of a run in one
// pass; see ChainF32.
func chain(dst []float32, srcU8 []uint8, srcF32 []float32, steps []Step, stream bool) int {
	n := len(dst) &^ 63
	if !useAVX2 || n == 0 || len(steps) == 0 || len(steps) > maxSteps {
		return 0
	}
	nt := stream && uintptr(unsafe.Pointer(&dst[0]))&31 == 0
	var cs [maxSteps]chainStep
	for j, s := range steps {
		if s.Op > RDiv || s.K != nil && len(s.K) < n {
			return 0
		}
		cs[j] = chainStep{op: int64(s.Op), c: s.C}
		if s.K != nil {
			cs[j].vec = uintptr(unsafe.Pointer(&s.K[0]))
		}
	}
	var src unsafe.Pointer
	if srcU8 != nil {
		src = unsafe.Pointer(&srcU8[0])
	} else {
		src = unsafe.Pointer(&srcF32[0])
	}
	chainF32x64(unsafe.Pointer(&dst[0]), src, n, unsafe.Pointer(&cs[0]), len(steps), srcU8 != nil, nt)
	runtime.KeepAlive(steps)
	return n
}

func accF32(acc []float64, x []float32) int {
	n := len(x) &^ 15
	if !useAVX2 || n == 0 {
		return 0
	}
	accF32x16(unsafe.Pointer(&acc[0]), unsafe.Pointer(&x[0]), n, lastOf(x, 0))
	return n
}

func accU8(acc []uint32, x []uint8) int {
	n := len(x) &^ 31
	if !useAVX2 || n == 0 {
		return 0
	}
	accU8x32(unsafe.Pointer(&acc[0]), unsafe.Pointer(&x[0]), n, lastWordOf(x))
	return n
}

//go:noescape
func accExtremeRowsF32x4(acc, x unsafe.Pointer, width, rows, stride int, pred int)

// accExtremeRowsF32 keeps the extremes of the first len(acc)&^3 columns
// of the rows (see AccExtremeRowsF32) and returns their count, 0 without
// AVX2. The caller checked that x holds the rows.
func accExtremeRowsF32(acc []float64, x []float32, rows, stride int, max bool) int {
	n := len(acc) &^ 3
	if !useAVX2 || n == 0 || rows <= 0 {
		return 0
	}
	pred := 0x11 // less than, ordered
	if max {
		pred = 0x1E // greater than, ordered
	}
	accExtremeRowsF32x4(unsafe.Pointer(&acc[0]), unsafe.Pointer(&x[0]), n, rows, stride*4, pred)
	return n
}

// rowBlock is the number of rows accRowsF32 adds per call of
// accRowsF32x16 for rows wider than onePassWidth (16 measured best for
// rows of 64 float32 when they went this way too).
const rowBlock = 16

// onePassWidth is the widest row accRowsF32 reads in one pass, each row
// once in order, with accRowsF32x1p (32 columns in registers, the rest in
// acc, at most 4 KiB so that it stays in L1). On 64 MiB of rows of 32 to
// 512 float32 this measured 5% (32) to 40% (128-512) faster than blocks
// of rows; from 1024 on the blocks were as fast or faster.
const onePassWidth = 512

// accRowsF32 adds the first len(acc)&^15 columns of the rows; see
// AccRowsF32. The caller checked that x holds the rows.
func accRowsF32(acc []float64, x []float32, rows, stride int) int {
	n := len(acc) &^ 15
	if !useAVX2 || n == 0 || rows <= 0 {
		return 0
	}
	switch {
	case n == 16:
		// One sweep of the rows with every sum in registers.
		accRowsF32x16(unsafe.Pointer(&acc[0]), unsafe.Pointer(&x[0]), n, rows, stride)
	case n <= onePassWidth:
		accRowsF32x1p(unsafe.Pointer(&acc[0]), unsafe.Pointer(&x[0]), n, rows, stride)
	default:
		// Blocks of rowBlock rows: the column blocks of a few
		// neighbouring rows follow each other, so x is read nearly in
		// order.
		for r := 0; r < rows; r += rowBlock {
			accRowsF32x16(unsafe.Pointer(&acc[0]), unsafe.Pointer(&x[r*stride]), n, min(rowBlock, rows-r), stride)
		}
	}
	return n
}

// sumLeavesF64 writes to out[k] the sum of s[leafF64*k:][:leafF64] for
// k < len(out), as sumF64 sums each; it reports false, doing nothing,
// without AVX2. The kernel's loads ahead may read the rest of s and the
// after elements that follow it.
func sumLeavesF64(s []float64, out []float64, after int) bool {
	if !useAVX2 || len(out) == 0 {
		return false
	}
	_ = s[len(out)*leafF64-1]
	sumLeavesF64x256(unsafe.Pointer(&s[0]), len(out), unsafe.Pointer(&out[0]), lastOf(s, after))
	return true
}
