package decthings_test

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor"
	"github.com/fstensor/fstensor/codec/decthings"
)

// TestInvalidOptions: ReadColumn refuses an invalid option value before
// decoding, with a *decthings.Error wrapping fstensor.ErrOption.
func TestInvalidOptions(t *testing.T) {
	tests := []struct {
		name string
		opt  decthings.ReadOption
	}{
		{"negative expected count", decthings.WithExpectedCount(-1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			col, err := decthings.ReadColumn([]byte{0xff}, tt.opt)
			if err == nil {
				col.Release()
			}
			var de *decthings.Error
			if !errors.Is(err, fstensor.ErrOption) || !errors.Is(err, arrow.ErrInvalid) || !errors.As(err, &de) {
				t.Errorf("error %v, want a *decthings.Error wrapping fstensor.ErrOption and arrow.ErrInvalid", err)
			}
		})
	}
}
