//go:build !amd64 || purego

package numeric

func binaryF32(op Op, d, a, b []float32, stream bool) int               { return 0 }
func binaryScalarF32(op Op, d, a []float32, c float32, stream bool) int { return 0 }
