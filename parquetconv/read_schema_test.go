package parquetconv_test

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/parquetconv"
)

// TestReadSchemaOfEachFile reads files one after another, as a dataset
// does: files of the same Parquet schema and key-value metadata share
// the schema derived for the first, and a file whose Parquet schema is
// the same but whose stored Arrow schema differs (another tensor shape
// over the same list of float32, another dimension name) gets its own.
// Each file's batches must equal what was written, with flat columns
// (int64, string) read through pqarrow beside the tensors.
func TestReadSchemaOfEachFile(t *testing.T) {
	mem := checkedMem(t)
	file := func(n int, m metadata.Metadata) ([]byte, arrow.RecordBatch) {
		rec := mixedRecord(t, mem, n, colSpec{"t", arrow.PrimitiveTypes.Float32, m, everyThird})
		return writeFile(t, rec.Schema(), []arrow.RecordBatch{rec}, parquetconv.WithRowGroupRows(7)), rec
	}
	a1, recA1 := file(20, shapeNonSquare)
	defer recA1.Release()
	a2, recA2 := file(9, shapeNonSquare)
	defer recA2.Release()
	b, recB := file(11, metadata.MustNew([]int{3, 2}, nil, nil))
	defer recB.Release()
	c, recC := file(5, metadata.MustNew([]int{2, 3}, []string{"x", "w"}, []int{1, 0}))
	defer recC.Release()
	for _, tt := range []struct {
		name  string
		files [][]byte
		want  []arrow.RecordBatch
	}{
		{"same schema", [][]byte{a1, a2, a1}, []arrow.RecordBatch{recA1, recA2, recA1}},
		{"another shape between", [][]byte{a1, b, a2}, []arrow.RecordBatch{recA1, recB, recA2}},
		{"another dimension name", [][]byte{a2, c, a1, c}, []arrow.RecordBatch{recA2, recC, recA1, recC}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for i, data := range tt.files {
				readFileOf(t, mem, data, tt.want[i])
			}
		})
	}
}

// readFileOf reads the file data and checks its batches against want.
func readFileOf(t *testing.T, mem memory.Allocator, data []byte, want arrow.RecordBatch) {
	t.Helper()
	r, err := parquetconv.NewReader(bytes.NewReader(data), parquetconv.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Release()
	checkReadAll(t, want, r)
}
