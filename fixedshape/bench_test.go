package fixedshape_test

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

func benchType(b *testing.B) *fixedshape.Type {
	return fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{3, 32, 32}, nil, []int{1, 2, 0}))
}

// BenchmarkTensor reads tensors and elements of a column; neither
// allocates.
func BenchmarkTensor(b *testing.B) {
	typ := benchType(b)
	arr, err := fixedshape.FromSlice(typ, make([]float32, 1024*typ.ListSize()), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer arr.Release()
	col, err := fixedshape.ColumnOf[float32](arr)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("op=tensor/dtype=float32/shape=3x32x32", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		var sink int
		for b.Loop() {
			sink += col.Tensor(i).Size()
			i = (i + 1) & 1023
		}
		_ = sink
	})
	b.Run("op=at/dtype=float32/shape=3x32x32", func(b *testing.B) {
		b.ReportAllocs()
		t := col.Tensor(7)
		var sink float32
		i := 0
		for b.Loop() {
			sink += t.At(i%3, i&31, (i>>5)&31)
			i++
		}
		_ = sink
	})
	b.Run("op=all/dtype=float32/shape=3x32x32", func(b *testing.B) {
		b.ReportAllocs()
		t := col.Tensor(7)
		b.SetBytes(int64(t.Size() * 4))
		var sink float32
		for b.Loop() {
			for v := range t.All() {
				sink += v
			}
		}
		_ = sink
	})
}

// BenchmarkFromSlice builds a column over an existing slice: its time does
// not depend on the number of tensors.
func BenchmarkFromSlice(b *testing.B) {
	typ := benchType(b)
	for _, n := range []int{16, 16384} {
		data := make([]float32, n*typ.ListSize())
		b.Run(fmt.Sprintf("op=fromslice/dtype=float32/tensors=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				arr, err := fixedshape.FromSlice(typ, data, nil)
				if err != nil {
					b.Fatal(err)
				}
				arr.Release()
			}
		})
	}
}

// BenchmarkBuilder appends tensors one by one, a copy, beside a copy() of
// the same bytes.
func BenchmarkBuilder(b *testing.B) {
	typ := benchType(b)
	const n = 4096
	src := make([]float32, n*typ.ListSize())
	size := typ.ListSize()
	b.Run("op=append/impl=fstensor/dtype=float32/tensors=4096", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(src) * 4))
		mem := memory.NewGoAllocator()
		for b.Loop() {
			bld, _ := fixedshape.NewBuilder[float32](mem, typ)
			bld.Reserve(n)
			for i := range n {
				if err := bld.Append(src[i*size : (i+1)*size]); err != nil {
					b.Fatal(err)
				}
			}
			arr := bld.NewArray()
			arr.Release()
			bld.Release()
		}
	})
	b.Run("op=append/impl=copy/dtype=float32/tensors=4096", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(src) * 4))
		for b.Loop() {
			dst := make([]float32, len(src))
			for i := range n {
				copy(dst[i*size:(i+1)*size], src[i*size:(i+1)*size])
			}
		}
	})
}
