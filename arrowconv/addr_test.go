//go:build cgo

package arrowconv_test

import "github.com/fstensor/fstensor/arrowconv/internal/cabi"

// addr returns the address of b's first byte.
func addr(b []byte) uintptr { return cabi.SliceAddress(b) }
