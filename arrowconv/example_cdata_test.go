//go:build cgo

package arrowconv_test

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/cdata"
	"github.com/fstensor/fstensor/arrowconv"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

func ExampleExportArray() {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{2, 2}, []string{"y", "x"}, nil))
	arr, _ := fixedshape.FromSlice(typ, []float32{1, 2, 3, 4, 5, 6, 7, 8}, nil)
	defer arr.Release()

	// A C consumer would receive these two structs.
	var carr cdata.CArrowArray
	var csch cdata.CArrowSchema
	arrowconv.ExportArray(arr, "img", &carr, &csch)

	got, field, err := arrowconv.ImportArray(&carr, &csch)
	cdata.ReleaseCArrowSchema(&csch)
	if err != nil {
		panic(err)
	}
	defer got.Release()
	fmt.Println(field.Name, got.TensorType())
	fmt.Println(got)
	fmt.Println("shared:", &got.ValueBytes()[0] == &arr.ValueBytes()[0])
	// Output:
	// img extension<arrow.fixed_shape_tensor[value_type=float, shape=[2,2], dim_names=[y,x]]>
	// [[[1,2],[3,4]] [[5,6],[7,8]]]
	// shared: true
}

func ExampleExportRecordBatch() {
	rec := exampleRecord(3)
	defer rec.Release()
	sliced := rec.NewSlice(1, 3)
	defer sliced.Release()

	var carr cdata.CArrowArray
	var csch cdata.CArrowSchema
	arrowconv.ExportRecordBatch(sliced, &carr, &csch)
	got, err := arrowconv.ImportRecordBatch(&carr, &csch)
	cdata.ReleaseCArrowSchema(&csch)
	if err != nil {
		panic(err)
	}
	defer got.Release()
	col := got.Column(0).(*fixedshape.Array)
	fmt.Println(col.TensorType())
	fmt.Println(col)
	fmt.Println("shared:", &col.ValueBytes()[0] == &sliced.Column(0).(*fixedshape.Array).ValueBytes()[0])
	// Output:
	// extension<arrow.fixed_shape_tensor[value_type=int32, shape=[2,2], permutation=[1,0]]>
	// [[[4,6],[5,7]] [[8,10],[9,11]]]
	// shared: true
}
