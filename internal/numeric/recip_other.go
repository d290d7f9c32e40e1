//go:build !amd64 || purego

package numeric

func divScalarF32(d, a []float32, c float32, stream bool) int { return 0 }

func divScalarPF(d, a []float32, c float32, pf []byte) int { return 0 }
