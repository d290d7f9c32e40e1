package decthings_test

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/codec/decthings"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

func ExampleAppendVarint() {
	fmt.Printf("%x %x\n", decthings.AppendVarint(nil, 18), decthings.AppendVarint(nil, 819))
	// Output:
	// 12 fd0333
}

func ExampleVarint() {
	x, n, err := decthings.Varint([]byte{0xfd, 0x03, 0x33, 0x00})
	fmt.Println(x, n, err)
	// Output:
	// 819 3 <nil>
}

func ExampleAppendTensor() {
	t := decthings.Tensor{Type: decthings.String, Shape: []int{2}, Strings: []string{"hello", ", world!"}}
	b, _ := decthings.AppendTensor(nil, &t)
	fmt.Printf("%x\n", b)
	// Output:
	// 0b01020f0568656c6c6f082c20776f726c6421
}

func ExampleDecodeTensor() {
	t, n, err := decthings.DecodeTensor([]byte{7, 2, 2, 3, 0, 1, 2, 3, 4, 5})
	fmt.Println(t.Type, t.Shape, t.Data, n, err)
	// Output:
	// u8 [2 3] [0 1 2 3 4 5] 10 <nil>
}

func ExampleDecodeAll() {
	b := []byte{7, 1, 2, 1, 2, 13, 0, 1}
	ts, _ := decthings.DecodeAll(b, 0)
	for _, t := range ts {
		fmt.Println(t.Type, t.Shape, t.Data)
	}
	// Output:
	// u8 [2] [1 2]
	// boolean [] [1]
}

func ExampleReadColumn() {
	// Two u8 tensors of shape (2,) one after the other.
	arr, err := decthings.ReadColumn([]byte{7, 1, 2, 1, 2, 7, 1, 2, 3, 4})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer arr.Release()
	fmt.Println(arr.Len(), arr)
	// Output:
	// 2 [[1,2] [3,4]]
}

func ExampleNewColumn() {
	ts := []decthings.Tensor{{Type: decthings.I8, Shape: []int{}, Data: []byte{0xff}}}
	arr, _ := decthings.NewColumn(ts)
	defer arr.Release()
	fmt.Println(arr)
	// Output:
	// [-1]
}

func ExampleAppendColumn() {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Uint8, metadata.MustNew([]int{2, 2}, nil, []int{1, 0}))
	arr, _ := fixedshape.FromSlice(typ, []uint8{1, 2, 3, 4}, nil) // physical (2,2) transposed
	defer arr.Release()
	b, _ := decthings.AppendColumn(nil, arr)
	fmt.Printf("%x\n", b) // C order: 1 3 2 4
	// Output:
	// 0702020201030204
}

func ExampleTensorOf() {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Int32, metadata.MustNew([]int{3}, nil, nil))
	arr, _ := fixedshape.FromSlice(typ, []int32{1, 2, 3}, nil)
	defer arr.Release()
	t, _ := decthings.TensorOf(arr, 0)
	fmt.Println(t.Type, t.Shape, len(t.Data))
	// Output:
	// i32 [3] 12
}

func ExampleRules_Check() {
	r, _ := decthings.ParseRules([]byte(`{"shape":[-1,3],"allowedTypes":["f32"]}`))
	fmt.Println(r.Check(decthings.F32, []int{10, 3}))
	fmt.Println(r.Check(decthings.F32, []int{10, 4}))
	// Output:
	// <nil>
	// decthings: shape (10,4): dimension 1 is 4, the rules want 3
}

func ExampleParseType() {
	t, _ := decthings.ParseType("image")
	fmt.Println(uint8(t), t.Media(), t.Numeric())
	// Output:
	// 14 true false
}
