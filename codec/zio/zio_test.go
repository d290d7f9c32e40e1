package zio_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/codec/zio"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
)

var cppTypes = map[string]arrow.DataType{
	"double": arrow.PrimitiveTypes.Float64, "char": arrow.PrimitiveTypes.Int8,
	"int64_t": arrow.PrimitiveTypes.Int64, "uint64_t": arrow.PrimitiveTypes.Uint64,
}

// vectorInput is the input of a zio conformance vector.
type vectorInput struct {
	Form                    string   `json:"form"`
	Level                   int      `json:"level"`
	PreExistingPayloadParts int      `json:"pre_existing_payload_parts"`
	Shape                   []int    `json:"shape"`
	Parts                   []string `json:"parts"`
	Word                    int      `json:"word"`
	DType                   string   `json:"dtype"`
	CppType                 string   `json:"cpp_type"`
	Metadata                map[string]string
}

// vectorWant is the expected result of a zio conformance vector.
type vectorWant struct {
	LabelJSON        string `json:"label_json"`
	PrefixHeaderHex  string `json:"prefix_header_hex"`
	CoordHeaderHex   string `json:"coord_header_hex"`
	PayloadPartSizes []int  `json:"payload_part_sizes"`
	TensorPartIndex  int    `json:"tensor_part_index"`
	TotalLength      int    `json:"total_length"`
	Byte0            int    `json:"byte0"`
	Byte4            int    `json:"byte4"`
	Byte8            int    `json:"byte8"`
	Bytes9To13Hex    string `json:"bytes9_13_hex"`
	HeadHex          string `json:"head_hex"`
	PayloadPart0Len  int    `json:"payload_part0_len"`
	NumpyDtypeStr    string `json:"numpy_dtype_str"`
	Itemsize         int    `json:"itemsize"`
	DType            string `json:"dtype"`
}

// TestVectors runs every zio case of seed_systems.json.
func TestVectors(t *testing.T) {
	for _, c := range testvec.Seeds(t, "zio") {
		t.Run(c.ID, func(t *testing.T) {
			var in vectorInput
			var want vectorWant
			if err := json.Unmarshal(c.Input, &in); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(c.Expected, &want); err != nil {
				t.Fatal(err)
			}
			switch {
			case c.ID == "zio-tens-label-cpp":
				checkLabelCpp(t, in, want)
			case c.ID == "zio-codec-python-test":
				checkFrames(t, in, want)
			case c.ID == "zio-tens-label-python":
				checkLabelPython(t, in, want)
			case in.CppType != "":
				checkCppType(t, in, want)
			default:
				checkDType(t, in, want)
			}
		})
	}
}

// checkLabelCpp builds the C++ library's TENS label of a float32 tensor and
// reads the message back.
func checkLabelCpp(t *testing.T, in vectorInput, want vectorWant) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew(in.Shape, nil, nil))
	b, _ := fixedshape.NewBuilder[float32](mem, typ)
	defer b.Release()
	if err := b.Append(make([]float32, typ.ListSize())); err != nil {
		t.Fatal(err)
	}
	arr := b.NewArray()
	defer arr.Release()
	m := &zio.Message{Level: in.Level, Payload: make([][]byte, in.PreExistingPayloadParts)}
	for i := range m.Payload {
		m.Payload[i] = []byte{}
	}
	if err := zio.AppendTensor(m, arr, 0); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want.LabelJSON, m.Label); diff != "" {
		t.Errorf("label (-want +got):\n%s", diff)
	}
	parts, err := m.Parts()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want.PrefixHeaderHex, hex.EncodeToString(parts[0])); diff != "" {
		t.Errorf("prefix header (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want.CoordHeaderHex, hex.EncodeToString(parts[1])); diff != "" {
		t.Errorf("coord header (-want +got):\n%s", diff)
	}
	var sizes []int
	for _, p := range parts[2:] {
		sizes = append(sizes, len(p))
	}
	if diff := cmp.Diff(want.PayloadPartSizes, sizes); diff != "" {
		t.Errorf("payload sizes (-want +got):\n%s", diff)
	}
	_, got := encodeRead(t, m)
	defer got.Release()
	if !fixedshape.Equal(arr, got) {
		t.Errorf("ReadColumn = %v, want %v", got, arr)
	}
}

// checkFrames encodes the Python codec test's frames and splits them back.
func checkFrames(t *testing.T, in vectorInput, want vectorWant) {
	var parts [][]byte
	for _, p := range in.Parts {
		if s, ok := strings.CutSuffix(p, "*512"); ok {
			parts = append(parts, bytes.Repeat([]byte(s), 512))
		} else {
			parts = append(parts, []byte(p))
		}
	}
	enc, err := zio.AppendFrames(nil, parts)
	if err != nil {
		t.Fatal(err)
	}
	if len(enc) != want.TotalLength || int(enc[0]) != want.Byte0 || int(enc[4]) != want.Byte4 || int(enc[8]) != want.Byte8 {
		t.Errorf("encoding: length %d, bytes 0,4,8 = %d %d %d", len(enc), enc[0], enc[4], enc[8])
	}
	if diff := cmp.Diff(want.Bytes9To13Hex, hex.EncodeToString(enc[9:13])); diff != "" {
		t.Errorf("bytes 9..13 (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want.HeadHex, hex.EncodeToString(enc[:len(want.HeadHex)/2])); diff != "" {
		t.Errorf("head (-want +got):\n%s", diff)
	}
	back, err := zio.SplitFrames(enc, 0)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(parts, back); diff != "" {
		t.Errorf("SplitFrames (-want +got):\n%s", diff)
	}
}

// checkLabelPython parses a Python TENS label, rewrites it and reads its
// tensor.
func checkLabelPython(t *testing.T, in vectorInput, want vectorWant) {
	l, err := zio.ParseLabel(want.LabelJSON)
	if err != nil {
		t.Fatal(err)
	}
	ti := l.TENS.Tensors[0]
	if diff := cmp.Diff(in.Shape, ti.Shape); diff != "" || ti.Word != in.Word || ti.DType != in.DType || ti.Part != nil {
		t.Errorf("tensor info = %+v (shape diff %s)", ti, diff)
	}
	var md map[string]string
	json.Unmarshal(l.TENS.Metadata, &md)
	if diff := cmp.Diff(in.Metadata, md); diff != "" {
		t.Errorf("TENS.metadata (-want +got):\n%s", diff)
	}
	// Unknown top-level keys survive a rewrite.
	out, err := l.AppendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	var a, b any
	json.Unmarshal([]byte(want.LabelJSON), &a)
	json.Unmarshal(out, &b)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("rewritten label (-want +got):\n%s", diff)
	}
	m := &zio.Message{Form: "FLOW", Label: want.LabelJSON, Payload: [][]byte{{0, 1, 2, 3, 4, 5}}}
	arr, err := zio.ReadColumn(m)
	if err != nil {
		t.Fatal(err)
	}
	defer arr.Release()
	if diff := cmp.Diff("[[[0,1,2],[3,4,5]]]", arr.String()); diff != "" {
		t.Errorf("column (-want +got):\n%s", diff)
	}
	if len(m.Payload[0]) != want.PayloadPart0Len {
		t.Errorf("payload part 0 has %d bytes", len(m.Payload[0]))
	}
}

// checkCppType maps a C++ element type to a ZIO dtype; complex types are
// refused.
func checkCppType(t *testing.T, in vectorInput, want vectorWant) {
	if strings.HasPrefix(in.CppType, "std::complex") {
		// Complex has no fixedshape element type: the pair is refused.
		word := 8
		if strings.Contains(in.CppType, "double") {
			word = 16
		}
		if _, err := zio.ElemType(want.DType, word); !errors.Is(err, arrow.ErrNotImplemented) {
			t.Errorf("ElemType(c, %d) error = %v, want ErrNotImplemented", word, err)
		}
		return
	}
	dtype, word, ok := zio.DType(cppTypes[in.CppType])
	if !ok || dtype != want.DType {
		t.Errorf("DType(%s) = %q, %d, %v; want %q", in.CppType, dtype, word, ok, want.DType)
	}
}

// checkDType maps a ZIO dtype and word size to an Arrow type and back.
func checkDType(t *testing.T, in vectorInput, want vectorWant) {
	dt, err := zio.ElemType(in.DType, in.Word)
	if err != nil {
		t.Fatal(err)
	}
	numpy := map[arrow.Type]string{arrow.FLOAT32: "<f4", arrow.FLOAT64: "<f8", arrow.INT16: "<i2", arrow.BOOL: "|b1"}[dt.ID()]
	dtype, word, ok := zio.DType(dt)
	if numpy != want.NumpyDtypeStr || !ok || dtype != in.DType || word != want.Itemsize {
		t.Errorf("ElemType(%s, %d) = %s; DType of it = %q, %d, %v", in.DType, in.Word, dt, dtype, word, ok)
	}
}

// encodeRead encodes m in the single-part framing and decodes it, and
// returns the decoded message and the column read from it; any error
// fails t.
func encodeRead(t *testing.T, m *zio.Message) (*zio.Message, *fixedshape.Array) {
	t.Helper()
	enc, err := m.AppendEncode(nil)
	if err != nil {
		t.Fatal(err)
	}
	back, err := zio.Decode(enc)
	if err != nil {
		t.Fatal(err)
	}
	got, err := zio.ReadColumn(back)
	if err != nil {
		t.Fatal(err)
	}
	return back, got
}
