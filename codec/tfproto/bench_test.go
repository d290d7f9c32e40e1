package tfproto_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/codec/tfproto"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

func BenchmarkCodec(b *testing.B) {
	const tensors = 16
	for _, perm := range [][]int{nil, {1, 0}} {
		layout := "identity"
		if perm != nil {
			layout = "transpose"
		}
		typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{64, 64}, nil, perm))
		arr, err := fixedshape.FromSlice(typ, make([]float32, tensors*64*64), nil)
		if err != nil {
			b.Fatal(err)
		}
		defer arr.Release()
		msgs, err := tfproto.AppendColumn(nil, arr)
		if err != nil {
			b.Fatal(err)
		}
		size := int64(len(arr.ValueBytes()))
		b.Run("op=encode/dtype=float32/shape=16x64x64/layout="+layout, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(size)
			out := make([][]byte, 0, tensors)
			for b.Loop() {
				if _, err := tfproto.AppendColumn(out[:0], arr); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("op=decode/dtype=float32/shape=16x64x64/layout="+layout, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(size)
			for b.Loop() {
				col, err := tfproto.ReadColumn(msgs)
				if err != nil {
					b.Fatal(err)
				}
				col.Release()
			}
		})
	}
	b.Run("op=copy/dtype=float32/shape=16x64x64/impl=copy", func(b *testing.B) {
		src := make([]byte, tensors*64*64*4)
		dst := make([]byte, len(src))
		b.ReportAllocs()
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			copy(dst, src)
		}
	})
}
