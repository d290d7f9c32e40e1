package numeric_test

import (
	"testing"

	"github.com/fstensor/fstensor/internal/numeric"
)

// TestPrefetch checks that Prefetch takes any slice, empty, shorter than
// a line or ending mid-line, and leaves its bytes as they were.
func TestPrefetch(t *testing.T) {
	b := make([]byte, 1000)
	for i := range b {
		b[i] = byte(i)
	}
	for _, n := range []int{0, 1, 63, 64, 65, 999} {
		numeric.Prefetch(b[1 : 1+n])
	}
	numeric.Prefetch(nil)
	for i := range b {
		if b[i] != byte(i) {
			t.Fatalf("byte %d changed to %d", i, b[i])
		}
	}
}
