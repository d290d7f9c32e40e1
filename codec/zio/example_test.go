package zio_test

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/codec/zio"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

func ExampleAppendTensor() {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{2, 3}, []string{"y", "x"}, []int{1, 0}))
	arr, _ := fixedshape.FromSlice(typ, make([]float32, 6), nil)
	defer arr.Release()
	var m zio.Message
	if err := zio.AppendTensor(&m, arr, 0); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.Form, m.Label, len(m.Payload[0]))
	// Output:
	// TENS {"TENS":{"tensors":[{"dtype":"f","metadata":{"dim_names":["y","x"]},"order":[0,1],"part":0,"shape":[2,3],"word":4}]}} 24
}

func ExampleAppendColumn() {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Uint8, metadata.MustNew([]int{2}, nil, nil))
	arr, _ := fixedshape.FromSlice(typ, []uint8{1, 2, 3, 4}, nil)
	defer arr.Release()
	m := zio.Message{Label: `{"run":7}`}
	_ = zio.AppendColumn(&m, arr)
	fmt.Println(m.Label, len(m.Payload))
	// Output:
	// {"TENS":{"tensors":[{"dtype":"u","part":0,"shape":[2],"word":1},{"dtype":"u","part":1,"shape":[2],"word":1}]},"run":7} 2
}

func ExampleReadColumn() {
	// A label as ZIO's Python sender writes it: spaces, no "part".
	m := &zio.Message{
		Form:    "FLOW",
		Label:   `{"credit": 2, "TENS": {"tensors": [{"shape": [2, 3], "word": 1, "dtype": "u"}], "metadata": {"source": "gen-tens"}}}`,
		Payload: [][]byte{{0, 1, 2, 3, 4, 5}},
	}
	arr, err := zio.ReadColumn(m)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer arr.Release()
	fmt.Println(arr)
	// Output:
	// [[[0,1,2],[3,4,5]]]
}

func ExampleDecode() {
	m := zio.Message{Form: "TENS", Label: "{}", Seqno: 1, Payload: [][]byte{{42}}}
	b, _ := m.AppendEncode(nil)
	back, _ := zio.Decode(b)
	fmt.Printf("%x\n%s %d %v\n", b, back.Form, back.Seqno, back.Payload)
	// Output:
	// 0a5a494f3054454e537b7d18000000000000000000000000000000000100000000000000012a
	// TENS 1 [[42]]
}

func ExampleFromParts() {
	coord := make([]byte, zio.CoordSize)
	m, err := zio.FromParts([][]byte{[]byte("ZIO4TEXThello"), coord})
	fmt.Println(m.Level, m.Form, m.Label, err)
	// Output:
	// 4 TEXT hello <nil>
}

func ExampleAppendFrames() {
	b, _ := zio.AppendFrames(nil, [][]byte{[]byte("ddd"), []byte("fff")})
	parts, _ := zio.SplitFrames(b, 0)
	fmt.Printf("%x %q\n", b, parts)
	// Output:
	// 0364646403666666 ["ddd" "fff"]
}

func ExampleParseLabel() {
	l, _ := zio.ParseLabel(`{"TENS": {"tensors": [{"shape": [4], "word": 8, "dtype": "f", "order": [0]}]}, "other": 1}`)
	ti := l.TENS.Tensors[0]
	typ, _ := ti.TensorType()
	out, _ := l.AppendJSON(nil)
	fmt.Println(typ.ElemType(), typ.Shape())
	fmt.Println(string(out))
	// Output:
	// float64 [4]
	// {"TENS":{"tensors":[{"dtype":"f","order":[0],"shape":[4],"word":8}]},"other":1}
}

func ExampleElemType() {
	dt, _ := zio.ElemType("i", 2)
	b, _ := zio.ElemType("b", 1)
	_, err := zio.ElemType("c", 8)
	fmt.Println(dt, b)
	fmt.Println(err)
	// Output:
	// int16 bool
	// zio: dtype "c" word 8 has no fixed-shape element type
}

func ExampleDType() {
	dtype, word, _ := zio.DType(arrow.FixedWidthTypes.Float16)
	fmt.Println(dtype, word)
	// Output:
	// f 2
}

func ExampleMessage_Parts() {
	m := zio.Message{Level: 2, Form: "TEXT", Label: "hi", Payload: [][]byte{[]byte("body")}}
	parts, _ := m.Parts()
	fmt.Printf("%q %d %q\n", parts[0], len(parts[1]), parts[2])
	// Output:
	// "ZIO2TEXThi" 24 "body"
}
