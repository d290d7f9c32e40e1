package parquetconv_test

import (
	"bytes"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/parquetconv"
)

// Reading with two workers in batches of at most 2 rows: batches are
// slices of the row groups (here of 3 rows), in file order.
func ExampleNewReader() {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Uint8, metadata.MustNew([]int{2, 2}, []string{"h", "w"}, nil))
	arr, _ := fixedshape.FromSlice(typ, []uint8{
		1, 2, 3, 4,
		5, 6, 7, 8,
		9, 10, 11, 12,
		13, 14, 15, 16,
		17, 18, 19, 20,
	}, []bool{true, true, false, true, true})
	defer arr.Release()
	rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "img", Type: typ, Nullable: true}}, nil), []arrow.Array{arr}, 5)
	defer rec.Release()

	var buf bytes.Buffer
	w, _ := parquetconv.NewWriter(&buf, rec.Schema(), parquetconv.WithRowGroupRows(3))
	if err := w.Write(rec); err != nil {
		panic(err)
	}
	w.Close()

	r, err := parquetconv.NewReader(bytes.NewReader(buf.Bytes()), parquetconv.WithWorkers(2), parquetconv.WithBatchRows(2))
	if err != nil {
		panic(err)
	}
	defer r.Release()
	for r.Next() {
		b := r.RecordBatch()
		fmt.Println(b.NumRows(), b.Column(0))
	}
	if err := r.Err(); err != nil {
		panic(err)
	}
	// Output:
	// 2 [[[1,2],[3,4]] [[5,6],[7,8]]]
	// 1 [(null)]
	// 2 [[[13,14],[15,16]] [[17,18],[19,20]]]
}
