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

func ExampleNewWriter() {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float64, metadata.MustNew([]int{2}, []string{"xy"}, nil))
	arr, _ := fixedshape.FromSlice(typ, []float64{1, 2, 3, 4, 5, 6}, nil)
	defer arr.Release()
	rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "p", Type: typ}}, nil), []arrow.Array{arr}, 3)
	defer rec.Release()
	sliced := rec.NewSlice(1, 3) // arrow-go alone would write the wrong rows

	var buf bytes.Buffer
	w, _ := parquetconv.NewWriter(&buf, sliced.Schema(), parquetconv.WithRowGroupRows(1))
	if err := w.Write(sliced); err != nil {
		panic(err)
	}
	w.Close()
	sliced.Release()

	r, err := parquetconv.NewReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		panic(err)
	}
	defer r.Release()
	fmt.Println(r.Schema().Field(0).Type)
	for r.Next() {
		fmt.Println(r.RecordBatch().Column(0))
	}
	// Output:
	// extension<arrow.fixed_shape_tensor[value_type=double, shape=[2], dim_names=[xy]]>
	// [[3,4] [5,6]]
}
