//go:build !amd64 || purego

package numeric

func divToF32(d []float32, v []float64, c float64) int { return 0 }
