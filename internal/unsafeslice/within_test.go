package unsafeslice_test

import (
	"testing"

	"github.com/fstensor/fstensor/internal/unsafeslice"
)

func TestWithin(t *testing.T) {
	buf := make([]byte, 64)
	other := make([]byte, 64)
	for _, tc := range []struct {
		name         string
		inner, outer []byte
		want         bool
	}{
		{"whole", buf, buf, true},
		{"middle", buf[8:24], buf, true},
		{"last byte", buf[63:], buf, true},
		{"ends at outer's end", buf[32:], buf[16:], true},
		{"starts before outer", buf[8:24], buf[16:], false},
		{"ends past outer's length", buf[8:24], buf[:16], false},
		{"in outer's capacity only", buf[16:24], buf[:16], false},
		{"empty inner", buf[8:8], buf, false},
		{"empty outer", buf[:1], buf[:0], false},
		{"other memory", other[:8], buf, false},
		{"nil", nil, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := unsafeslice.Within(tc.inner, tc.outer); got != tc.want {
				t.Errorf("Within = %v, want %v", got, tc.want)
			}
		})
	}
}
