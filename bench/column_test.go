package bench_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/arrow/tensor"
	"github.com/fstensor/fstensor/arrowconv"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/unsafeslice"
	"github.com/fstensor/fstensor/metadata"
)

// colShape is the tensor shape of the column benchmarks: 64x64 float32.
var colShape = []int{64, 64}

// BenchmarkColumn times building a column from a Go slice (FromSlice,
// zero-copy: ns/op only; Builder.Append, a copy, beside copy()), and reading
// every element of every tensor: through Column.Tensor(i).PhysicalData(), through
// the logical-order iterator Tensor.All, and as one flat slice
// (Column.Values, the baseline of the reads).
func BenchmarkColumn(b *testing.B) {
	for _, s := range sizes(b) {
		n := batchFor(s, 4*64*64)
		size := 4 * 64 * 64
		data := patternData[float32](n * 64 * 64)
		typ := fixedshape.MustNewType(arrowType("float32"), metadata.MustNew(colShape, nil, nil))
		base := "dtype=float32/" + shapeKey(n, colShape...)
		b.Run("op=from-slice/"+base+"/impl=fstensor", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				arr, err := fixedshape.FromSlice(typ, data, nil)
				must(b, err)
				arr.Release()
			}
		})
		b.Run("op=build/"+base+"/impl=builder", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(n * size))
			for b.Loop() {
				bld, err := fixedshape.NewBuilder[float32](memory.DefaultAllocator, typ)
				must(b, err)
				for i := range n {
					must(b, bld.Append(data[i*64*64:(i+1)*64*64]))
				}
				arr := bld.NewArray()
				arr.Release()
				bld.Release()
			}
		})
		src := unsafeslice.Bytes(data)
		copyBaseline(b, "op=build/"+base, make([]byte, len(src)), src, len(src))

		arr, err := fixedshape.FromSlice(typ, data, nil)
		must(b, err)
		col, err := fixedshape.ColumnOf[float32](arr)
		must(b, err)
		reads := []struct {
			impl string
			sum  func() float32
		}{
			{"tensor-data", func() (sum float32) {
				for i := range arr.Len() {
					for _, v := range col.Tensor(i).PhysicalData() {
						sum += v
					}
				}
				return sum
			}},
			{"tensor-all", func() (sum float32) {
				for i := range arr.Len() {
					for v := range col.Tensor(i).All() {
						sum += v
					}
				}
				return sum
			}},
			{"flat", func() (sum float32) {
				for _, v := range col.Values() {
					sum += v
				}
				return sum
			}},
		}
		var sink float32
		for _, r := range reads {
			b.Run("op=read/"+base+"/impl="+r.impl, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(n * size))
				for b.Loop() {
					sink += r.sum()
				}
			})
		}
		arr.Release()
		_ = sink
	}
}

// BenchmarkArrowTensor times column <-> arrow/tensor conversions: ToTensor
// and FromTensor of a dense layout are zero-copy (ns/op only); FromTensor
// WithCopy of a strided tensor (the left half of every 64x64 matrix) copies,
// beside copy() of the same bytes.
func BenchmarkArrowTensor(b *testing.B) {
	for _, s := range sizes(b) {
		n := batchFor(s, 4*64*64)
		arr := column[float32](b, n, colShape)
		base := "dtype=float32/" + shapeKey(n, colShape...)
		b.Run("op=to-tensor/"+base+"/impl=arrowconv", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				t, err := arrowconv.ToTensor(arr)
				must(b, err)
				t.Release()
			}
		})
		whole, err := arrowconv.ToTensor(arr)
		must(b, err)
		b.Run("op=from-tensor/"+base+"/impl=arrowconv", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				out, err := arrowconv.FromTensor(whole)
				must(b, err)
				out.Release()
			}
		})
		whole.Release()
		// The left half of each matrix: shape (n, 64, 32), row stride 64.
		half := tensor.New(arr.Storage().Data().Children()[0], []int64{int64(n), 64, 32}, []int64{64 * 64 * 4, 64 * 4, 4}, nil)
		outBytes := n * 64 * 32 * 4
		name := "op=from-tensor-strided/dtype=float32/" + shapeKey(n, 64, 32)
		b.Run(name+"/impl=arrowconv", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(outBytes))
			for b.Loop() {
				out, err := arrowconv.FromTensor(half, arrowconv.WithCopy())
				must(b, err)
				out.Release()
			}
		})
		half.Release()
		copyBaseline(b, name, make([]byte, outBytes), arr.ValueBytes(), outBytes)
		arr.Release()
	}
}
