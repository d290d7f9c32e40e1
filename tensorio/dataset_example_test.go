package tensorio_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/tensorio"
)

// Write a dataset partitioned by label, then read it back as one table:
// the label comes back from the directory names.
func ExampleCreateDataset() {
	dir, _ := os.MkdirTemp("", "tensorio")
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "images")
	rec := sample() // three 2x2 tensors in column "t"
	defer rec.Release()
	lb := array.NewInt64Builder(memory.DefaultAllocator)
	lb.AppendValues([]int64{7, 3, 7}, nil)
	label := lb.NewArray()
	defer label.Release()
	schema := arrow.NewSchema(append(rec.Schema().Fields(), arrow.Field{Name: "label", Type: label.DataType()}), nil)
	withLabel := array.NewRecordBatch(schema, []arrow.Array{rec.Column(0), label}, rec.NumRows())
	defer withLabel.Release()

	w, err := tensorio.CreateDataset(out, schema, tensorio.WithPartitionBy("label"))
	if err != nil {
		panic(err)
	}
	if err := w.Write(withLabel); err != nil {
		panic(err)
	}
	if err := w.Close(); err != nil {
		panic(err)
	}
	fmt.Println(w.Files())

	r, err := tensorio.OpenDataset([]string{out})
	if err != nil {
		panic(err)
	}
	defer r.Release()
	for r.Next() {
		b := r.RecordBatch()
		fmt.Println(b.Column(0), b.Column(1))
	}
	if err := r.Err(); err != nil {
		panic(err)
	}
	// Output:
	// [label=3/part-00000.parquet label=7/part-00000.parquet]
	// [[[5,6],[7,8]]] [3]
	// [[[1,2],[3,4]] [[9,10],[11,12]]] [7 7]
}
