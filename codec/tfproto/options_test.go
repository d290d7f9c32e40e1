package tfproto_test

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor"
	"github.com/fstensor/fstensor/codec/tfproto"
	"github.com/fstensor/fstensor/fixedshape"
)

// TestInvalidOptions: ReadColumn and ReadDelimited refuse an invalid
// option value before decoding, with a *tfproto.Error wrapping
// fstensor.ErrOption.
func TestInvalidOptions(t *testing.T) {
	entries := []struct {
		name string
		read func(opts ...tfproto.ReadOption) (*fixedshape.Array, error)
	}{
		{"ReadColumn", func(opts ...tfproto.ReadOption) (*fixedshape.Array, error) {
			return tfproto.ReadColumn([][]byte{{0xff}}, opts...)
		}},
		{"ReadDelimited", func(opts ...tfproto.ReadOption) (*fixedshape.Array, error) {
			return tfproto.ReadDelimited([]byte{0xff}, opts...)
		}},
	}
	tests := []struct {
		name string
		opt  tfproto.ReadOption
	}{
		{"negative expected count", tfproto.WithExpectedCount(-1)},
	}
	for _, e := range entries {
		for _, tt := range tests {
			t.Run(e.name+"/"+tt.name, func(t *testing.T) {
				col, err := e.read(tt.opt)
				if err == nil {
					col.Release()
				}
				var te *tfproto.Error
				if !errors.Is(err, fstensor.ErrOption) || !errors.Is(err, arrow.ErrInvalid) || !errors.As(err, &te) {
					t.Errorf("error %v, want a *tfproto.Error wrapping fstensor.ErrOption and arrow.ErrInvalid", err)
				}
			})
		}
	}
}
