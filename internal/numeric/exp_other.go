//go:build !amd64 || purego

package numeric

const hasAVX512 = false

func expF32(d, a []float32) int { return 0 }
