package tfproto_test

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/codec/tfproto"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

func ExampleDecode() {
	// DT_FLOAT [2,2] dims rows/cols, float_val [7]: a short list repeats.
	msg := []byte{0x08, 0x01, 0x12, 0x14, 0x12, 0x08, 0x08, 0x02, 0x12, 0x04, 'r', 'o', 'w', 's',
		0x12, 0x08, 0x08, 0x02, 0x12, 0x04, 'c', 'o', 'l', 's', 0x2a, 0x04, 0x00, 0x00, 0xe0, 0x40}
	t, err := tfproto.Decode(msg)
	if err != nil {
		fmt.Println(err)
		return
	}
	arr, _ := tfproto.NewColumn([]tfproto.Tensor{t})
	defer arr.Release()
	fmt.Println(t.DType, t.Shape, t.DimNames, arr)
	// Output:
	// DT_FLOAT [2 2] [rows cols] [[[7,7],[7,7]]]
}

func ExampleDecodeMax() {
	// DT_FLOAT of shape [2^30] with no values: 4 GiB of zeros.
	msg := []byte{0x08, 0x01, 0x12, 0x08, 0x12, 0x06, 0x08, 0x80, 0x80, 0x80, 0x80, 0x04}
	_, err := tfproto.DecodeMax(msg, 1<<20)
	fmt.Println(err != nil)
	// Output:
	// true
}

func ExampleAppendTensor() {
	t := tfproto.Tensor{DType: tfproto.Int64, Shape: []int{2}, Content: []byte{1, 0, 0, 0, 0, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}}
	b, _ := tfproto.AppendTensor(nil, &t)
	fmt.Printf("%x\n", b)
	// Output:
	// 080912041202080222100100000000000000feffffffffffffff
}

func ExampleAppendColumn() {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Uint8, metadata.MustNew([]int{2, 2}, []string{"y", "x"}, []int{1, 0}))
	arr, _ := fixedshape.FromSlice(typ, []uint8{1, 2, 3, 4}, nil)
	defer arr.Release()
	msgs, _ := tfproto.AppendColumn(nil, arr)
	t, _ := tfproto.Decode(msgs[0])
	fmt.Println(t.Shape, t.DimNames, t.Content) // C order of the logical view
	// Output:
	// [2 2] [y x] [1 3 2 4]
}

func ExampleReadColumn() {
	a := []byte{0x08, 0x04, 0x12, 0x04, 0x12, 0x02, 0x08, 0x02, 0x22, 0x02, 1, 2}
	b := []byte{0x08, 0x04, 0x12, 0x04, 0x12, 0x02, 0x08, 0x02, 0x22, 0x02, 3, 4}
	arr, _ := tfproto.ReadColumn([][]byte{a, b})
	defer arr.Release()
	fmt.Println(arr)
	// Output:
	// [[1,2] [3,4]]
}

func ExampleNewColumn() {
	bf16 := tfproto.Tensor{DType: tfproto.BFloat16, Shape: []int{}, Content: []byte{0x80, 0x3f}}
	arr, _ := tfproto.NewColumn([]tfproto.Tensor{bf16})
	defer arr.Release()
	fmt.Println(arr.TensorType().ElemType(), arr)
	// Output:
	// float32 [1]
}

func ExampleTensorOf() {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{3}, nil, nil))
	arr, _ := fixedshape.FromSlice(typ, []float32{1, 2, 3}, nil)
	defer arr.Release()
	t, _ := tfproto.TensorOf(arr, 0)
	fmt.Println(t.DType, t.Shape, len(t.Content))
	// Output:
	// DT_FLOAT [3] 12
}
