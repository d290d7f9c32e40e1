package tfproto_test

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/codec/internal/codectest"
	"github.com/fstensor/fstensor/codec/tfproto"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
)

var dtypeByName = map[string]tfproto.DataType{
	"DT_FLOAT": tfproto.Float, "DT_INT32": tfproto.Int32, "DT_STRING": tfproto.String,
	"DT_HALF": tfproto.Half, "DT_INT64": tfproto.Int64,
}

// values decodes a tensor's content into float64s for comparison.
func values(t *testing.T, tn tfproto.Tensor) []float64 {
	t.Helper()
	w := tn.DType.Width()
	var out []float64
	for k := 0; k < len(tn.Content); k += w {
		b := tn.Content[k:]
		switch tn.DType {
		case tfproto.Float:
			out = append(out, float64(math.Float32frombits(binary.LittleEndian.Uint32(b))))
		case tfproto.Int32:
			out = append(out, float64(int32(binary.LittleEndian.Uint32(b))))
		case tfproto.Int64:
			out = append(out, float64(int64(binary.LittleEndian.Uint64(b))))
		case tfproto.Half:
			out = append(out, float64(float16.FromBits(binary.LittleEndian.Uint16(b)).Float32()))
		default:
			t.Fatalf("values: unexpected dtype %s", tn.DType)
		}
	}
	return out
}

// TestVectors runs every tensorflow case of seed_systems.json: decoding each
// given message, and re-encoding it byte-exact where the message uses
// tensor_content or string_val (the forms AppendTensor writes).
func TestVectors(t *testing.T) {
	for _, c := range testvec.Seeds(t, "tensorflow") {
		t.Run(c.ID, func(t *testing.T) {
			var in struct {
				Hex         string    `json:"hex"`
				DType       string    `json:"dtype"`
				Shape       []int     `json:"shape"`
				DimNames    []string  `json:"dim_names"`
				UnknownRank bool      `json:"unknown_rank"`
				Content     []float64 `json:"tensor_content_f32"`
				Values      []float64 `json:"values"`
				IntVal      []float64 `json:"int_val"`
				FloatVal    []float64 `json:"float_val"`
				Decoded     []float64 `json:"decoded"`
				StringVal   []string  `json:"string_val"`
			}
			var want struct {
				Hex     string    `json:"hex"`
				Decoded []float64 `json:"decoded"`
				DType   string    `json:"dtype"`
				Shape   []int     `json:"shape"`
			}
			if err := json.Unmarshal(c.Input, &in); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(c.Expected, &want); err != nil {
				t.Fatal(err)
			}
			msg := want.Hex
			if in.Hex != "" {
				msg = in.Hex
			}
			got, err := tfproto.Decode(testvec.Hex(t, msg))
			if codectest.WantInvalid(t, "Decode", err, in.UnknownRank) { // an unknown rank is refused
				return
			}
			if in.DType == "" {
				in.DType, in.Shape = want.DType, want.Shape
			}
			if in.DType == "" { // the case gives only the decoded values
				in.DType, in.Shape = got.DType.String(), got.Shape
			}
			if got.DType != dtypeByName[in.DType] {
				t.Errorf("dtype = %s, want %s", got.DType, in.DType)
			}
			if diff := cmp.Diff(in.Shape, got.Shape); diff != "" {
				t.Errorf("shape (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(in.DimNames, got.DimNames); diff != "" {
				t.Errorf("dim names (-want +got):\n%s", diff)
			}
			if got.DType == tfproto.String {
				var strs []string
				for _, s := range got.Strings {
					strs = append(strs, string(s))
				}
				if diff := cmp.Diff(in.StringVal, strs); diff != "" {
					t.Errorf("strings (-want +got):\n%s", diff)
				}
			} else {
				wantVals := want.Decoded
				for _, alt := range [][]float64{in.Decoded, in.Content, in.Values, in.IntVal} {
					if wantVals == nil {
						wantVals = alt
					}
				}
				if diff := cmp.Diff(wantVals, values(t, got)); diff != "" {
					t.Errorf("values (-want +got):\n%s", diff)
				}
			}
			// Byte-exact re-encoding where the vector's form is ours.
			if in.Hex == "" && in.IntVal == nil && in.FloatVal == nil && in.DType != "DT_HALF" {
				out, err := tfproto.AppendTensor(nil, &got)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want.Hex, hex.EncodeToString(out)); diff != "" {
					t.Errorf("AppendTensor (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestDecodeFields(t *testing.T) {
	f32 := func(xs ...float32) []byte {
		var b []byte
		for _, x := range xs {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
		}
		return b
	}
	tests := []struct {
		name string
		hex  string
		want tfproto.Tensor
	}{
		{name: "0-D empty float_val gives zero", hex: "08011200", want: tfproto.Tensor{DType: tfproto.Float, Shape: []int{}, Content: f32(0)}},
		{name: "0-D int8 from int_val -1", hex: "0806120038ffffffffffffffffff01", want: tfproto.Tensor{DType: tfproto.Int8, Shape: []int{}, Content: []byte{0xff}}},
		{name: "bool_val packed", hex: "080a1204120208035a03010001", want: tfproto.Tensor{DType: tfproto.Bool, Shape: []int{3}, Content: []byte{1, 0, 1}}},
		{name: "bool_val unpacked short", hex: "080a1204120208025801", want: tfproto.Tensor{DType: tfproto.Bool, Shape: []int{2}, Content: []byte{1, 1}}},
		{name: "bfloat16 half_val", hex: "080e120412020801" + "6a0280" + "7f", want: tfproto.Tensor{DType: tfproto.BFloat16, Shape: []int{1}, Content: []byte{0x80, 0x3f}}},
		{name: "uint64_val", hex: "0817120412020801" + "8a0101" + "05", want: tfproto.Tensor{DType: tfproto.Uint64, Shape: []int{1}, Content: []byte{5, 0, 0, 0, 0, 0, 0, 0}}},
		{name: "size-0 dim", hex: "08011206120208021200", want: tfproto.Tensor{DType: tfproto.Float, Shape: []int{2, 0}, Content: []byte{}}},
		{name: "unknown fields skipped", hex: "1801" + "0801" + "120412020801" + "2a040000803f" + "f80701", want: tfproto.Tensor{DType: tfproto.Float, Shape: []int{1}, Content: f32(1)}},
		{name: "shape merged from two fields", hex: "0801" + "120412020802" + "120412020801" + "2a040000803f", want: tfproto.Tensor{DType: tfproto.Float, Shape: []int{2, 1}, Content: f32(1, 1)}},
		{name: "other dtype's vals ignored", hex: "0801120412020801" + "3a0105", want: tfproto.Tensor{DType: tfproto.Float, Shape: []int{1}, Content: f32(0)}},
		{name: "empty string_val gives empty strings", hex: "0807120412020802", want: tfproto.Tensor{DType: tfproto.String, Shape: []int{2}, Strings: [][]byte{{}, {}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tfproto.Decode(testvec.Hex(t, tt.hex))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Decode (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name    string
		hex     string
		notImpl bool
	}{
		{name: "unknown rank", hex: "080112021801"},
		{name: "unknown dim", hex: "0801120d120b08ffffffffffffffffff01"},
		{name: "no dtype", hex: "1200", notImpl: true},
		{name: "complex64", hex: "08081200", notImpl: true},
		{name: "truncated tag", hex: "08"},
		{name: "truncated shape", hex: "0801120812"},
		{name: "bad wire type", hex: "0f"},
		{name: "content too short", hex: "0801120412020802220400000000"},
		{name: "content on string", hex: "080712002201ff"},
		{name: "too many float_val", hex: "08011200" + "2a080000803f0000803f"},
		{name: "packed float_val ragged", hex: "0801120412020802" + "2a03000000"},
		{name: "bool value 2", hex: "080a1200" + "5a0102"},
		{name: "bool content 2", hex: "080a1200" + "220102"},
		{name: "too many string_val", hex: "08071200" + "420161420162"},
		{name: "overflowing shape", hex: "0801" + "121a" + "120a08ffffffffffffffff3f" + "120a08ffffffffffffffff3f" + "12020802"},
		{name: "over the default byte limit", hex: "080112081206088080808004"},
		{name: "float_val as varint", hex: "0801120412020801" + "2801"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tfproto.Decode(testvec.Hex(t, tt.hex))
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("Decode error = %v, want arrow.ErrInvalid", err)
			}
			if got := errors.Is(err, arrow.ErrNotImplemented); got != tt.notImpl {
				t.Errorf("errors.Is(err, ErrNotImplemented) = %v, want %v (%v)", got, tt.notImpl, err)
			}
		})
	}
	// A small message describing a large tensor is refused by the limit.
	big := testvec.Hex(t, "0801120812060880808080042a040000803f") // shape [2^30], float_val [1]
	if _, err := tfproto.DecodeMax(big, 1<<20); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("DecodeMax over the limit: error = %v", err)
	}
}

func TestAppendTensorErrors(t *testing.T) {
	tests := []struct {
		name string
		t    tfproto.Tensor
	}{
		{name: "unsupported dtype", t: tfproto.Tensor{DType: 8, Shape: []int{}}},
		{name: "short content", t: tfproto.Tensor{DType: tfproto.Float, Shape: []int{2}, Content: make([]byte, 4)}},
		{name: "negative dim", t: tfproto.Tensor{DType: tfproto.Uint8, Shape: []int{-1}}},
		{name: "overflowing shape", t: tfproto.Tensor{DType: tfproto.Uint8, Shape: []int{math.MaxInt / 2, 3}}},
		{name: "names length", t: tfproto.Tensor{DType: tfproto.Uint8, Shape: []int{1}, DimNames: []string{"a", "b"}, Content: []byte{0}}},
		{name: "string count", t: tfproto.Tensor{DType: tfproto.String, Shape: []int{2}, Strings: [][]byte{{}}}},
		{name: "bool 2", t: tfproto.Tensor{DType: tfproto.Bool, Shape: []int{}, Content: []byte{2}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tfproto.AppendTensor([]byte{7}, &tt.t)
			if !errors.Is(err, arrow.ErrInvalid) || len(got) != 1 {
				t.Fatalf("AppendTensor = %x, %v; want arrow.ErrInvalid and dst unchanged", got, err)
			}
		})
	}
}

func buildColumn[T int16 | float64](t *testing.T, mem memory.Allocator, dt arrow.DataType, shape []int, names []string, perm []int, nulls []bool) *fixedshape.Array {
	t.Helper()
	typ := fixedshape.MustNewType(dt, metadata.MustNew(shape, names, perm))
	return testvec.Column[T](t, mem, typ, nulls, 10)
}

func TestColumnRoundTrip(t *testing.T) {
	tests := []struct {
		name    string
		shape   []int
		names   []string
		perm    []int
		nulls   []bool
		wantErr bool
	}{
		{name: "0-D", shape: []int{}, nulls: []bool{false, false}},
		{name: "non-square named", shape: []int{2, 3}, names: []string{"rows", "cols"}, nulls: []bool{false, false, false}},
		{name: "transpose", shape: []int{2, 3}, perm: []int{1, 0}, nulls: []bool{false, false}},
		{name: "3-cycle named", shape: []int{2, 3, 4}, names: []string{"a", "b", "c"}, perm: []int{2, 0, 1}, nulls: []bool{false, false}},
		{name: "one tensor", shape: []int{5}, nulls: []bool{false}},
		{name: "null tensor", shape: []int{2}, nulls: []bool{false, true}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			arr := buildColumn[float64](t, mem, arrow.PrimitiveTypes.Float64, tt.shape, tt.names, tt.perm, tt.nulls)
			defer arr.Release()
			msgs, err := tfproto.AppendColumn(nil, arr)
			if tt.wantErr {
				if !errors.Is(err, arrow.ErrInvalid) || len(msgs) != 0 {
					t.Fatalf("AppendColumn = %d messages, %v; want arrow.ErrInvalid", len(msgs), err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := tfproto.ReadColumn(msgs)
			if err != nil {
				t.Fatal(err)
			}
			defer got.Release()
			if !fixedshape.Equal(arr, got) {
				t.Errorf("round trip differs:\nwant %v\n got %v", arr, got)
			}
			if diff := cmp.Diff(arr.TensorType().DimNames(), got.TensorType().DimNames()); diff != "" {
				t.Errorf("dim names (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNewColumn(t *testing.T) {
	bf := tfproto.Tensor{DType: tfproto.BFloat16, Shape: []int{2}, Content: []byte{0x80, 0x3f, 0x00, 0xc0}}
	arr, err := tfproto.NewColumn([]tfproto.Tensor{bf, bf})
	if err != nil {
		t.Fatal(err)
	}
	defer arr.Release()
	col, err := fixedshape.ColumnOf[float32](arr)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]float32{1, -2, 1, -2}, col.Values()); diff != "" {
		t.Errorf("bfloat16 widening (-want +got):\n%s", diff)
	}
	u8 := func(shape ...int) tfproto.Tensor {
		n := 1
		for _, d := range shape {
			n *= d
		}
		return tfproto.Tensor{DType: tfproto.Uint8, Shape: shape, Content: make([]byte, n)}
	}
	named := u8(2)
	named.DimNames = []string{"x"}
	tests := []struct {
		name    string
		ts      []tfproto.Tensor
		notImpl bool
	}{
		{name: "none"},
		{name: "string", ts: []tfproto.Tensor{{DType: tfproto.String, Shape: []int{}, Strings: [][]byte{{}}}}, notImpl: true},
		{name: "bool byte 2", ts: []tfproto.Tensor{{DType: tfproto.Bool, Shape: []int{2}, Content: []byte{1, 2}}}},
		{name: "size-0 dim", ts: []tfproto.Tensor{u8(3, 0)}, notImpl: true},
		{name: "shapes differ", ts: []tfproto.Tensor{u8(2, 3), u8(3, 2)}},
		{name: "names differ", ts: []tfproto.Tensor{u8(2), named}},
		{name: "short content", ts: []tfproto.Tensor{{DType: tfproto.Uint16, Shape: []int{2}, Content: make([]byte, 3)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tfproto.NewColumn(tt.ts)
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("NewColumn error = %v, want arrow.ErrInvalid", err)
			}
			if got := errors.Is(err, arrow.ErrNotImplemented); got != tt.notImpl {
				t.Errorf("errors.Is(err, ErrNotImplemented) = %v, want %v (%v)", got, tt.notImpl, err)
			}
		})
	}
}
