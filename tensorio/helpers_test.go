package tensorio_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/tensorio"
)

// checked returns a checked allocator that the test checks for leaks at
// its end.
var checked = testvec.CheckedMem

// tensors returns a column of n float32 tensors described by m whose
// physical elements count up from first; valid may be nil.
func tensors(t *testing.T, m metadata.Metadata, n int, first float32, valid []bool) *fixedshape.Array {
	t.Helper()
	typ, err := fixedshape.NewType(arrow.PrimitiveTypes.Float32, m)
	if err != nil {
		t.Fatal(err)
	}
	data := make([]float32, n*m.Size())
	for i := range data {
		data[i] = first + float32(i)
	}
	for i, ok := range valid {
		if !ok {
			clear(data[i*m.Size() : (i+1)*m.Size()])
		}
	}
	arr, err := fixedshape.FromSlice(typ, data, valid)
	if err != nil {
		t.Fatal(err)
	}
	return arr
}

// batch returns a record of the columns, named a, b, c...
func batch(cols ...arrow.Array) arrow.RecordBatch {
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: string(rune('a' + i)), Type: c.DataType(), Nullable: true}
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(cols[0].Len()))
}

// ids returns an int64 column of the values from first to first+n-1.
func ids(first, n int) arrow.Array {
	b := array.NewInt64Builder(memory.DefaultAllocator)
	defer b.Release()
	for i := range n {
		b.Append(int64(first + i))
	}
	return b.NewArray()
}

// writeFile writes the batches to path with Create and the options.
func writeFile(t *testing.T, path string, recs []arrow.RecordBatch, opts ...tensorio.Option) {
	t.Helper()
	w, err := tensorio.Create(path, recs[0].Schema(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		if err := w.Write(rec); err != nil {
			w.Abort()
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// readAll reads every batch of path and returns its columns concatenated
// (allocated from the default allocator) and the number of batches.
func readAll(t *testing.T, path string, opts ...tensorio.Option) ([]arrow.Array, int) {
	t.Helper()
	r, err := tensorio.Open(path, opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Release()
	chunks := make([][]arrow.Array, r.Schema().NumFields())
	n := 0
	for r.Next() {
		n++
		for i := range chunks {
			c := r.RecordBatch().Column(i)
			c.Retain()
			chunks[i] = append(chunks[i], c)
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	out := make([]arrow.Array, len(chunks))
	for i, cs := range chunks {
		var err error
		if len(cs) == 0 {
			out[i] = array.MakeArrayOfNull(memory.DefaultAllocator, r.Schema().Field(i).Type, 0)
			continue
		}
		out[i], err = array.Concatenate(cs, memory.DefaultAllocator)
		for _, c := range cs {
			c.Release()
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return out, n
}

// leftovers returns the temporary files left in dir.
func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var tmp []string
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp-") {
			tmp = append(tmp, filepath.Join(dir, e.Name()))
		}
	}
	return tmp
}

func release[T interface{ Release() }](xs []T) {
	for _, x := range xs {
		x.Release()
	}
}

// withoutNulls returns a float32 column with a's elements and no nulls.
func withoutNulls(t *testing.T, a *fixedshape.Array) *fixedshape.Array {
	t.Helper()
	col, err := fixedshape.ColumnOf[float32](a)
	if err != nil {
		t.Fatal(err)
	}
	var data []float32
	for i := range a.Len() {
		data = append(data, col.Tensor(i).PhysicalData()...)
	}
	out, err := fixedshape.FromSlice(a.TensorType(), data, nil)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
