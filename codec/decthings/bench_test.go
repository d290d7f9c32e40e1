package decthings_test

import (
	"testing"

	"github.com/fstensor/fstensor/codec/decthings"
	"github.com/fstensor/fstensor/codec/internal/codectest"
	"github.com/fstensor/fstensor/fixedshape"
)

func BenchmarkCodec(b *testing.B) {
	codectest.BenchCodec(b, decthings.AppendColumn, func(enc []byte) (*fixedshape.Array, error) {
		return decthings.ReadColumn(enc)
	})
}
