//go:build cgo

package dlpack_test

import (
	"testing"

	"github.com/fstensor/fstensor/codec/dlpack"
	"github.com/fstensor/fstensor/codec/internal/codectest"
	"github.com/fstensor/fstensor/fixedshape"
)

// benchSizes are column shapes, batch axis first: 16 KiB and 256 MiB of
// float32. Export and import must take the same time for both.
var benchSizes = [][]int{{64, 8, 8}, {4096, 128, 128}}

// benchPerms are the tensor permutations benchmarked: none and a
// transposition (exported as is, without copying).
var benchPerms = []struct {
	name string
	perm []int
}{{"identity", nil}, {"transposed", []int{1, 0}}}

// BenchmarkDLPack exports a column (Export) and deletes it, as a consumer
// would: O(1), the same time at every size. op=import exports and then
// imports the struct back (ImportVersioned, zero-copy) and releases the
// column, which runs the deleter. impl=copy is copy() of the column's
// bytes, what a copying exchange would cost at least.
func BenchmarkDLPack(b *testing.B) {
	for _, shape := range benchSizes {
		for _, p := range benchPerms {
			a := codectest.Float32Column(b, shape, p.perm)
			size := int64(len(a.ValueBytes()))
			name := "/perm=" + p.name + "/dtype=float32/shape=" + codectest.ShapeName(shape)
			b.Run("op=export/impl=dlpack"+name, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(size)
				for b.Loop() {
					export(b, a).Delete()
				}
			})
			b.Run("op=import/impl=dlpack"+name, func(b *testing.B) {
				opts := []dlpack.ImportOption{dlpack.WithColumn(true)}
				b.ReportAllocs()
				b.SetBytes(size)
				for b.Loop() {
					c, err := dlpack.ImportVersioned(export(b, a), opts...)
					if err != nil {
						b.Fatal(err)
					}
					c.Release()
				}
			})
			a.Release()
		}
		b.Run("op=export/impl=copy/perm=identity/dtype=float32/shape="+codectest.ShapeName(shape), func(b *testing.B) {
			a := codectest.Float32Column(b, shape, nil)
			defer a.Release()
			codectest.BenchCopy(b, a.ValueBytes())
		})
	}
	if n := dlpack.Outstanding(); n != 0 {
		b.Fatalf("Outstanding = %d after the benchmarks", n)
	}
}

// export is dlpack.Export, failing b on error.
func export(b *testing.B, a *fixedshape.Array) *dlpack.ManagedTensorVersioned {
	m, err := dlpack.Export(a)
	if err != nil {
		b.Fatal(err)
	}
	return m
}
