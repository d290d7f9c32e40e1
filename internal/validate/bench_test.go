package validate_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/validate"
	"github.com/fstensor/fstensor/metadata"
)

// BenchmarkRecord validates a batch of one column: 64 float32 64x64
// tensors (1 MiB), or 64Ki strings of 16 bytes (1 MiB, mostly ASCII with
// a two-byte rune in each); the copy baseline copies the same bytes.
func BenchmarkRecord(b *testing.B) {
	const size = 1 << 20
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{64, 64}, nil, nil))
	tensors, err := fixedshape.FromSlice(typ, make([]float32, size/4), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer tensors.Release()
	sb := array.NewStringBuilder(memory.DefaultAllocator)
	defer sb.Release()
	for i := range size / 16 {
		sb.Append(fmt.Sprintf("é%013d", i))
	}
	strs := sb.NewArray()
	defer strs.Release()
	for _, col := range []arrow.Array{tensors, strs} {
		rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "c", Type: col.DataType()}}, nil), []arrow.Array{col}, int64(col.Len()))
		defer rec.Release()
		name := strings.TrimPrefix(strings.Split(col.DataType().String(), "[")[0], "extension<arrow.")
		b.Run("col="+name+"/impl=validate", func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				if err := validate.Record(rec); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("impl=copy", func(b *testing.B) {
		src, dst := make([]byte, size), make([]byte, size)
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			copy(dst, src)
		}
	})
}
