package mshadow_test

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/codec/mshadow"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

func ExampleAppendShape() {
	b, _ := mshadow.AppendShape(nil, []int{2, 3}, mshadow.Index32)
	fmt.Printf("%x\n", b)
	shape, n, _ := mshadow.ReadShape(b, mshadow.Index32)
	fmt.Println(metadata.FormatShape(shape), n)
	// Output:
	// 020000000200000003000000
	// (2,3) 12
}

func ExampleReadShape() {
	b := []byte{1, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0}
	shape, n, err := mshadow.ReadShape(b, mshadow.Int64)
	fmt.Println(shape, n, err)
	// Output:
	// [7] 12 <nil>
}

func ExampleReadText() {
	shape, _, err := mshadow.ReadText("(3, 4L, 5)")
	fmt.Println(metadata.FormatShape(shape), err)
	// Output:
	// (3,4,5) <nil>
}

func ExampleFlatTo2D() {
	s, _ := mshadow.FlatTo2D([]int{1, 2, 3, 4, 5, 6})
	fmt.Println(s)
	// Output:
	// [120 6]
}

func ExampleFlatTo3D() {
	s, _ := mshadow.FlatTo3D([]int{1, 2, 3, 4, 5, 6}, 1, 3)
	fmt.Println(s)
	// Output:
	// [1 24 30]
}

func ExampleProdShape() {
	n, _ := mshadow.ProdShape([]int{2, 3, 4}, 1, 3)
	fmt.Println(n)
	// Output:
	// 12
}

func ExampleSize() {
	n, _ := mshadow.Size([]int{})
	fmt.Println(n)
	// Output:
	// 1
}

func ExampleReshape() {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{2, 3, 4}, nil, nil))
	b, _ := fixedshape.NewBuilder[float32](memory.DefaultAllocator, typ)
	defer b.Release()
	_ = b.Append(make([]float32, 24))
	arr := b.NewArray()
	defer arr.Release()

	shape, _ := mshadow.FlatTo2D(typ.Shape())
	flat, err := mshadow.Reshape(arr, shape[:])
	if err != nil {
		fmt.Println(err)
		return
	}
	defer flat.Release()
	fmt.Println(flat.TensorType().Metadata().Shape())
	// Output:
	// [6 4]
}

func ExampleLayout_ShapeSize() {
	fmt.Println(mshadow.Index32.ShapeSize(3), mshadow.Int64.ShapeSize(3), mshadow.Int64)
	// Output:
	// 16 28 int64
}
