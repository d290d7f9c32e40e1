//go:build !amd64 || purego

package numeric

// sumU8Periodic has no assembly kernel in the pure-Go build: it handles
// no bytes.
func sumU8Periodic(acc []uint64, x []uint8) int { return 0 }
