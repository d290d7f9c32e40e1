//go:build !amd64 || purego

package numeric

func compareF32(c Cmp, d []uint8, a, b []float32) int { return 0 }

func compareU8(c Cmp, d, a, b []uint8) int { return 0 }

func selectN[T Number](d []T, c []uint8, a, b []T) int { return 0 }
