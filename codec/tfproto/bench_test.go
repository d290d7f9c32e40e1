package tfproto_test

import (
	"testing"

	"github.com/fstensor/fstensor/codec/internal/codectest"
	"github.com/fstensor/fstensor/codec/tfproto"
	"github.com/fstensor/fstensor/fixedshape"
)

func BenchmarkCodec(b *testing.B) {
	codectest.BenchCodec(b, tfproto.AppendColumn, func(msgs [][]byte) (*fixedshape.Array, error) {
		return tfproto.ReadColumn(msgs)
	})
}
