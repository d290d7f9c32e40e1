package arrowconv_test

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/arrowconv"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// BenchmarkConvert shows that the tensor and FixedSizeList conversions
// are O(1) in the column size: two sizes 100x apart.
func BenchmarkConvert(b *testing.B) {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{16, 16}, nil, []int{1, 0}))
	for _, n := range []int{100, 10000} {
		mem := memory.NewGoAllocator()
		arr := seqColumn(b, mem, typ, n, nil)
		shape := fmt.Sprintf("%dx16x16", n)
		b.Run("op=to_tensor/dtype=float32/shape="+shape, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				t, _ := arrowconv.ToTensor(arr)
				t.Release()
			}
		})
		tt, _ := arrowconv.ToTensor(arr)
		b.Run("op=from_tensor/dtype=float32/shape="+shape, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				a, _ := arrowconv.FromTensor(tt)
				a.Release()
			}
		})
		b.Run("op=wrap/dtype=float32/shape="+shape, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				st, m := arrowconv.Unwrap(arr)
				a, _ := arrowconv.Wrap(st, m)
				a.Release()
				st.Release()
			}
		})
		tt.Release()
		arr.Release()
	}
}
