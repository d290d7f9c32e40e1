package arrowipc_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/arrowipc"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
)

// manyBatches writes an IPC stream or file of nb batches of 16 rows of
// five columns (int64, string, list<int32>, struct<float32, string>,
// fixed_size_list<float32>[4]): the per-batch work of the readers, the
// buffer checks among it, dominates.
func manyBatches(b *testing.B, nb int, file bool) []byte {
	mem := memory.NewGoAllocator()
	st := arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Float32}, arrow.Field{Name: "s", Type: arrow.BinaryTypes.String})
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
		{Name: "st", Type: st, Nullable: true},
		{Name: "v", Type: arrow.FixedSizeListOf(4, arrow.PrimitiveTypes.Float32), Nullable: true},
	}, nil)
	rb := array.NewRecordBuilder(mem, schema)
	defer rb.Release()
	for r := range 16 {
		rb.Field(0).(*array.Int64Builder).AppendValues([]int64{int64(r)}, []bool{r%5 != 0})
		rb.Field(1).(*array.StringBuilder).Append("row")
		lb := rb.Field(2).(*array.ListBuilder)
		lb.Append(true)
		lb.ValueBuilder().(*array.Int32Builder).AppendValues([]int32{1, 2, 3}, nil)
		sb := rb.Field(3).(*array.StructBuilder)
		sb.Append(true)
		sb.FieldBuilder(0).(*array.Float32Builder).Append(1)
		sb.FieldBuilder(1).(*array.StringBuilder).Append("s")
		fb := rb.Field(4).(*array.FixedSizeListBuilder)
		fb.Append(true)
		fb.ValueBuilder().(*array.Float32Builder).AppendValues([]float32{1, 2, 3, 4}, nil)
	}
	rec := rb.NewRecordBatch()
	defer rec.Release()
	var buf bytes.Buffer
	newW := arrowipc.NewIPCStreamWriter
	if file {
		newW = arrowipc.NewIPCFileWriter
	}
	w, err := newW(&buf, schema)
	if err != nil {
		b.Fatal(err)
	}
	for range nb {
		if err := w.Write(rec); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkIPCReadBatches reads 1000 small batches of five columns,
// where the per-batch checks weigh most, and testdata/images.arrow, each
// beside a copy() of the same bytes.
func BenchmarkIPCReadBatches(b *testing.B) {
	const nb = 1000
	stream := manyBatches(b, nb, false)
	file := manyBatches(b, nb, true)
	path := filepath.Join(b.TempDir(), "batches.arrow")
	if err := os.WriteFile(path, file, 0o644); err != nil {
		b.Fatal(err)
	}
	b.Run("op=stream_read/impl=copy/batches=1000", func(b *testing.B) { benchCopy(b, stream) })
	b.Run("op=stream_read/impl=arrowipc/batches=1000", func(b *testing.B) {
		b.SetBytes(int64(len(stream)))
		b.ReportAllocs()
		for b.Loop() {
			r, err := arrowipc.NewIPCStreamReader(bytes.NewReader(stream))
			if err != nil {
				b.Fatal(err)
			}
			n := 0
			for r.Next() {
				n++
			}
			if r.Err() != nil || n != nb {
				b.Fatalf("%d batches, %v", n, r.Err())
			}
			r.Release()
		}
	})
	readFileAll := func(b *testing.B, path string, size int64) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			if err := testvec.ReadEveryBatch(arrowipc.OpenIPCFile(path)); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("op=file_read/impl=copy/batches=1000", func(b *testing.B) { benchCopy(b, file) })
	b.Run("op=file_read/impl=arrowipc/batches=1000", func(b *testing.B) { readFileAll(b, path, int64(len(file))) })
	images := filepath.Join("..", "testdata", "images.arrow")
	data, err := os.ReadFile(images)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("op=file_read/impl=copy/file=images.arrow", func(b *testing.B) { benchCopy(b, data) })
	b.Run("op=file_read/impl=arrowipc/file=images.arrow", func(b *testing.B) { readFileAll(b, images, int64(len(data))) })
}
