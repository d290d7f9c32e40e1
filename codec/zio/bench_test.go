package zio_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/codec/internal/codectest"
	"github.com/fstensor/fstensor/codec/zio"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

func BenchmarkCodec(b *testing.B) {
	const tensors = 16
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{64, 64}, nil, []int{1, 0}))
	arr, err := fixedshape.FromSlice(typ, make([]float32, tensors*64*64), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer arr.Release()
	var m zio.Message
	if err := zio.AppendColumn(&m, arr); err != nil {
		b.Fatal(err)
	}
	enc, err := m.AppendEncode(nil)
	if err != nil {
		b.Fatal(err)
	}
	size := int64(len(arr.ValueBytes()))
	b.Run("op=encode/dtype=float32/shape=16x64x64/layout=transpose", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(size)
		buf := make([]byte, 0, len(enc))
		for b.Loop() {
			var m zio.Message
			if err := zio.AppendColumn(&m, arr); err != nil {
				b.Fatal(err)
			}
			if _, err := m.AppendEncode(buf[:0]); err != nil {
				b.Fatal(err)
			}
		}
	})
	// The same tensors stored with the rows descending: ReadColumn flips
	// them.
	desc := &zio.Message{Form: zio.Form}
	entries := make([]string, tensors)
	for i := range entries {
		entries[i] = `{"shape":[64,64],"word":4,"dtype":"f","ascend":[false,true],"part":` + strconv.Itoa(i) + `}`
		desc.Payload = append(desc.Payload, make([]byte, 64*64*4))
	}
	desc.Label = `{"TENS":{"tensors":[` + strings.Join(entries, ",") + `]}}`
	encDesc, err := desc.AppendEncode(nil)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		layout string
		enc    []byte
	}{{"transpose", enc}, {"descending", encDesc}} {
		b.Run("op=decode/dtype=float32/shape=16x64x64/layout="+c.layout, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(size)
			for b.Loop() {
				m, err := zio.Decode(c.enc)
				if err != nil {
					b.Fatal(err)
				}
				col, err := zio.ReadColumn(m)
				if err != nil {
					b.Fatal(err)
				}
				col.Release()
			}
		})
	}
	b.Run("op=copy/dtype=float32/shape=16x64x64/impl=copy", func(b *testing.B) {
		codectest.BenchCopy(b, make([]byte, size))
	})
}
