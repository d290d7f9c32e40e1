//go:build !amd64 || purego

package numeric

func rowsF32(op RowOp, out []float64, x []float32, n, stride int) int { return 0 }
