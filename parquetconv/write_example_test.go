package parquetconv_test

import (
	"bytes"
	"fmt"
	"math"

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
	// [[3,4]]
	// [[5,6]]
}

// Null tensors, float bits and the codec options: a NaN with a payload
// comes back with its payload.
func ExampleNewWriter_nulls() {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{2, 2}, nil, []int{1, 0}))
	nan := math.Float32frombits(0x7fc0beef)
	negZero := float32(math.Copysign(0, -1))
	arr, _ := fixedshape.FromSlice(typ, []float32{1, 2, 3, 4, 0, 0, 0, 0, nan, negZero, 7, 8}, []bool{true, false, true})
	defer arr.Release()
	rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "m", Type: typ, Nullable: true}}, nil), []arrow.Array{arr}, 3)
	defer rec.Release()

	var buf bytes.Buffer
	w, err := parquetconv.NewWriter(&buf, rec.Schema(),
		parquetconv.WithCompression(parquetconv.ZSTD), parquetconv.WithByteStreamSplit(), parquetconv.WithDataPageV2())
	if err != nil {
		panic(err)
	}
	if err := w.Write(rec); err != nil {
		panic(err)
	}
	if err := w.Close(); err != nil {
		panic(err)
	}

	r, err := parquetconv.NewReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		panic(err)
	}
	defer r.Release()
	for r.Next() {
		col, _ := fixedshape.ColumnOf[float32](r.RecordBatch().Column(0).(*fixedshape.Array))
		fmt.Println(r.RecordBatch().Column(0))
		t := col.Tensor(2)
		fmt.Printf("%#x %#x\n", math.Float32bits(t.At(0, 0)), math.Float32bits(t.At(1, 0)))
	}
	// Output:
	// [[[1,3],[2,4]] (null) [[NaN,7],[-0,8]]]
	// 0x7fc0beef 0x80000000
}
