//go:build !amd64 || purego

package numeric

func prefetch(b []byte) {}
