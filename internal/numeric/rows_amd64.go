//go:build !purego

package numeric

import "unsafe"

// Implemented in rows_amd64.s.
//
//go:noescape
func sumRowsF32x16(x unsafe.Pointer, n, rows, stride int, out unsafe.Pointer)

//go:noescape
func sumSqRowsF32x16(x unsafe.Pointer, n, rows, stride int, out unsafe.Pointer)

var rowKernels = [...]func(x unsafe.Pointer, n, rows, stride int, out unsafe.Pointer){
	RowSum: sumRowsF32x16, RowSumSq: sumSqRowsF32x16,
}

// rowsF32 runs the kernel of op over the leading n&^15 elements of every
// row and returns that count (0 when there is no kernel for it).
func rowsF32(op RowOp, out []float64, x []float32, n, stride int) int {
	m := n &^ 15
	if !useAVX2 || m == 0 || op != RowSum && !useFMA {
		return 0
	}
	rowKernels[op](unsafe.Pointer(&x[0]), m, len(out), stride*4, unsafe.Pointer(&out[0]))
	return m
}
