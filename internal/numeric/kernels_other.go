//go:build !amd64 || purego

package numeric

// The pure-Go build has no assembly kernels: each returns 0, the number
// of leading elements it handled.

func applyF32(op Op, v, k []float32) int                           { return 0 }
func applyScalarF32(op Op, v []float32, c float32) int             { return 0 }
func u8ToF32(dst []float32, src []uint8) int                       { return 0 }
func storeNT(dst, src []float32) bool                              { return false }
func sumSqF32(x []float32, after int) (float64, int)               { return 0, 0 }
func sumSqDevF32(x []float32, m float64, after int) (float64, int) { return 0, 0 }
func devF64(x []float64, k float64, sq bool) (float64, int)        { return 0, 0 }
func extremeF32(x []float32, max bool) (float32, bool, int)        { return 0, false, 0 }
func chain(dst []float32, srcU8 []uint8, srcF32 []float32, steps []Step, stream bool) int {
	return 0
}
func accF32(acc []float64, x []float32) int { return 0 }
func accU8(acc []uint32, x []uint8) int     { return 0 }

func accRowsF32(acc []float64, x []float32, rows, stride int) int { return 0 }
func accExtremeRowsF32(acc []float64, x []float32, rows, stride int, max bool) int {
	return 0
}
func sumF32(s []float32, after int) (float64, int) { return 0, 0 }
func sumF64(s []float64) (float64, int)            { return 0, 0 }

func sumLeavesF64(s []float64, out []float64, after int) bool { return false }
