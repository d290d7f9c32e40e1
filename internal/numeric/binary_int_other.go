//go:build !amd64 || purego

package numeric

func binaryInt[T Int](op U8Op, width uintptr, signed bool, d, a, b []T) int { return 0 }
