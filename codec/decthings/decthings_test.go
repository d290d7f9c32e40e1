package decthings_test

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

	"github.com/fstensor/fstensor/codec/decthings"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
)

// vectorTensor builds the tensor a decthings vector's input describes.
func vectorTensor(t *testing.T, raw json.RawMessage) decthings.Tensor {
	t.Helper()
	var in struct {
		Type      decthings.Type    `json:"type"`
		Shape     []int             `json:"shape"`
		Values    []json.RawMessage `json:"values"`
		ValuesHex []string          `json:"values_hex"`
	}
	if err := json.Unmarshal(raw, &in); err != nil {
		t.Fatal(err)
	}
	tn := decthings.Tensor{Type: in.Type, Shape: in.Shape}
	for _, v := range in.Values {
		switch in.Type {
		case decthings.String:
			var s string
			json.Unmarshal(v, &s)
			tn.Strings = append(tn.Strings, s)
		case decthings.Boolean:
			var b bool
			json.Unmarshal(v, &b)
			if b {
				tn.Data = append(tn.Data, 1)
			} else {
				tn.Data = append(tn.Data, 0)
			}
		case decthings.Image, decthings.Audio, decthings.Video:
			var m struct {
				Format  string `json:"format"`
				DataHex string `json:"data_hex"`
			}
			json.Unmarshal(v, &m)
			tn.Media = append(tn.Media, decthings.Media{Format: m.Format, Data: testvec.Hex(t, m.DataHex)})
		default:
			var x int64
			if err := json.Unmarshal(v, &x); err != nil {
				t.Fatal(err)
			}
			switch in.Type.Width() {
			case 1:
				tn.Data = append(tn.Data, byte(x))
			case 2:
				tn.Data = binary.LittleEndian.AppendUint16(tn.Data, uint16(x))
			case 4:
				tn.Data = binary.LittleEndian.AppendUint32(tn.Data, uint32(x))
			case 8:
				tn.Data = binary.LittleEndian.AppendUint64(tn.Data, uint64(x))
			}
		}
	}
	for _, h := range in.ValuesHex {
		tn.Binaries = append(tn.Binaries, testvec.Hex(t, h))
	}
	if tn.Type.Width() > 0 && tn.Data == nil {
		tn.Data = []byte{}
	}
	return tn
}

// TestVectors runs every decthings case of seed_systems.json: varints and
// tensors byte-exact both ways; the documentation's section-less string
// layout is refused.
func TestVectors(t *testing.T) {
	for _, c := range testvec.Seeds(t, "decthings") {
		t.Run(c.ID, func(t *testing.T) {
			var want struct {
				Hex string `json:"hex"`
			}
			if err := json.Unmarshal(c.Expected, &want); err != nil {
				t.Fatal(err)
			}
			wantBytes := testvec.Hex(t, want.Hex)
			var in struct {
				Value *uint64 `json:"value"`
			}
			json.Unmarshal(c.Input, &in)
			if in.Value != nil {
				got := decthings.AppendVarint(nil, *in.Value)
				if diff := cmp.Diff(want.Hex, hex.EncodeToString(got)); diff != "" {
					t.Errorf("AppendVarint (-want +got):\n%s", diff)
				}
				v, n, err := decthings.Varint(got)
				if err != nil || v != *in.Value || n != len(got) || n != decthings.VarintLen(v) {
					t.Errorf("Varint = %d, %d, %v", v, n, err)
				}
				return
			}
			tn := vectorTensor(t, c.Input)
			if c.ID == "decthings-string-hello-world-doc-literal" {
				if _, _, err := decthings.DecodeTensor(wantBytes); !errors.Is(err, arrow.ErrInvalid) {
					t.Fatalf("DecodeTensor of the doc-literal layout: error = %v, want arrow.ErrInvalid", err)
				}
				return
			}
			got, err := decthings.AppendTensor(nil, &tn)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want.Hex, hex.EncodeToString(got)); diff != "" {
				t.Errorf("AppendTensor (-want +got):\n%s", diff)
			}
			back, n, err := decthings.DecodeTensor(append(wantBytes, 0xee))
			if err != nil {
				t.Fatal(err)
			}
			if n != len(wantBytes) {
				t.Errorf("DecodeTensor read %d bytes, want %d", n, len(wantBytes))
			}
			if diff := cmp.Diff(tn, back); diff != "" {
				t.Errorf("DecodeTensor (-want +got):\n%s", diff)
			}
		})
	}
}

func TestVarintErrors(t *testing.T) {
	for _, h := range []string{"", "fd", "fd01", "fe010203", "ff01020304050607"} {
		t.Run("hex="+h, func(t *testing.T) {
			if _, _, err := decthings.Varint(testvec.Hex(t, h)); !errors.Is(err, arrow.ErrInvalid) {
				t.Errorf("Varint error = %v", err)
			}
		})
	}
	for _, x := range []uint64{252, 253, math.MaxUint16, math.MaxUint16 + 1, math.MaxUint32, math.MaxUint32 + 1, math.MaxUint64} {
		b := decthings.AppendVarint(nil, x)
		if v, n, err := decthings.Varint(b); v != x || n != len(b) || err != nil {
			t.Errorf("Varint(AppendVarint(%d)) = %d, %d, %v", x, v, n, err)
		}
	}
	// Non-minimal forms are accepted, as the clients accept them.
	if v, n, err := decthings.Varint([]byte{253, 0, 7}); v != 7 || n != 3 || err != nil {
		t.Errorf("non-minimal Varint = %d, %d, %v", v, n, err)
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct{ name, hex string }{
		{name: "empty", hex: ""},
		{name: "type only", hex: "01"},
		{name: "unknown type 0", hex: "0000"},
		{name: "unknown type 17", hex: "1100"},
		{name: "missing dims", hex: "0103"},
		{name: "truncated dim varint", hex: "0101fd00"},
		{name: "short data", hex: "07020203000102030405"[:18]},
		{name: "overflowing shape", hex: "0103ff7fffffffffffffffff7fffffffffffffff02"},
		{name: "huge count small input", hex: "0701ff00000000ffffffff"},
		{name: "boolean 2", hex: "0d010102"},
		{name: "string section too long", hex: "0b01010a0161"},
		{name: "string section too short", hex: "0b0102020161016200"},
		{name: "string element overruns", hex: "0b0101020561"},
		{name: "string not utf8", hex: "0b01010201ff"},
		{name: "string section missing", hex: "0b0102"},
		{name: "count above section", hex: "0b01ff000000ffffffff0100"},
		{name: "media empty element", hex: "0e00010100"[:8] + "00"},
		{name: "media format overruns", hex: "0e0002010570"},
		{name: "media format not utf8", hex: "0e00030202" + "01ff"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := decthings.DecodeTensor(testvec.Hex(t, tt.hex))
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("DecodeTensor error = %v, want arrow.ErrInvalid", err)
			}
		})
	}
}

func TestAppendTensorErrors(t *testing.T) {
	tests := []struct {
		name string
		t    decthings.Tensor
	}{
		{name: "invalid type", t: decthings.Tensor{Type: 0, Shape: []int{}}},
		{name: "short data", t: decthings.Tensor{Type: decthings.F32, Shape: []int{2}, Data: make([]byte, 4)}},
		{name: "negative dim", t: decthings.Tensor{Type: decthings.U8, Shape: []int{-1}}},
		{name: "overflowing shape", t: decthings.Tensor{Type: decthings.U8, Shape: []int{math.MaxInt / 2, 3}}},
		{name: "too many dims", t: decthings.Tensor{Type: decthings.U8, Shape: make([]int, 256)}},
		{name: "boolean 2", t: decthings.Tensor{Type: decthings.Boolean, Shape: []int{1}, Data: []byte{2}}},
		{name: "string count", t: decthings.Tensor{Type: decthings.String, Shape: []int{2}, Strings: []string{"a"}}},
		{name: "string not utf8", t: decthings.Tensor{Type: decthings.String, Shape: []int{}, Strings: []string{"\xff"}}},
		{name: "long format", t: decthings.Tensor{Type: decthings.Image, Shape: []int{}, Media: []decthings.Media{{Format: string(make([]byte, 256))}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dst := []byte{1, 2}
			got, err := decthings.AppendTensor(dst, &tt.t)
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("AppendTensor error = %v, want arrow.ErrInvalid", err)
			}
			if len(got) != 2 {
				t.Errorf("dst changed on error: %x", got)
			}
		})
	}
}

// TestRoundTripAllTypes writes and reads one tensor of each of the 16 types,
// concatenated, and checks DecodeAll gives them back.
func TestRoundTripAllTypes(t *testing.T) {
	var ts []decthings.Tensor
	for typ := decthings.F32; typ <= decthings.Video; typ++ {
		tn := decthings.Tensor{Type: typ, Shape: []int{2, 1}}
		switch {
		case typ.Width() > 0:
			tn.Data = make([]byte, 2*typ.Width())
			tn.Data[0] = 1
		case typ == decthings.String:
			tn.Strings = []string{"", "ünïcode"}
		case typ == decthings.Binary:
			tn.Binaries = [][]byte{{}, make([]byte, 300)}
		default:
			tn.Media = []decthings.Media{{Format: "mp4", Data: []byte{1, 2}}, {Format: "", Data: []byte{}}}
		}
		ts = append(ts, tn)
	}
	var b []byte
	for i := range ts {
		var err error
		if b, err = decthings.AppendTensor(b, &ts[i]); err != nil {
			t.Fatal(err)
		}
	}
	got, err := decthings.DecodeAll(b, 0)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(ts, got); diff != "" {
		t.Errorf("DecodeAll (-want +got):\n%s", diff)
	}
	if _, err := decthings.DecodeAll(b, 3); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("DecodeAll with limit 3: error = %v", err)
	}
	if _, err := decthings.DecodeAll(b[:len(b)-1], 0); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("DecodeAll of truncated input: error = %v", err)
	}
}

func buildColumn(t *testing.T, mem memory.Allocator, shape, perm []int, nulls []bool) *fixedshape.Array {
	t.Helper()
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Int16, metadata.MustNew(shape, nil, perm))
	return testvec.Column[int16](t, mem, typ, nulls, 100)
}

func TestColumnRoundTrip(t *testing.T) {
	tests := []struct {
		name    string
		shape   []int
		perm    []int
		nulls   []bool
		wantErr bool
	}{
		{name: "0-D", shape: []int{}, nulls: []bool{false, false}},
		{name: "non-square", shape: []int{2, 3}, nulls: []bool{false, false, false}},
		{name: "transpose", shape: []int{2, 3}, perm: []int{1, 0}, nulls: []bool{false, false}},
		{name: "3-cycle", shape: []int{2, 3, 4}, perm: []int{2, 0, 1}, nulls: []bool{false, false}},
		{name: "one tensor", shape: []int{5}, nulls: []bool{false}},
		{name: "null tensor", shape: []int{2}, nulls: []bool{false, true}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			arr := buildColumn(t, mem, tt.shape, tt.perm, tt.nulls)
			defer arr.Release()
			b, err := decthings.AppendColumn([]byte{9}, arr)
			if tt.wantErr {
				if !errors.Is(err, arrow.ErrInvalid) || len(b) != 1 {
					t.Fatalf("AppendColumn = %x, %v; want arrow.ErrInvalid", b, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := decthings.ReadColumn(b[1:])
			if err != nil {
				t.Fatal(err)
			}
			defer got.Release()
			if !fixedshape.Equal(arr, got) {
				t.Errorf("round trip differs:\nwant %v\n got %v", arr, got)
			}
			if got.TensorType().Metadata().HasPermutation() {
				t.Errorf("decoded column has a permutation")
			}
		})
	}
}

func TestNewColumnErrors(t *testing.T) {
	u8 := func(shape ...int) decthings.Tensor {
		n := 1
		for _, d := range shape {
			n *= d
		}
		return decthings.Tensor{Type: decthings.U8, Shape: shape, Data: make([]byte, n)}
	}
	tests := []struct {
		name    string
		ts      []decthings.Tensor
		notImpl bool
	}{
		{name: "none"},
		{name: "string", ts: []decthings.Tensor{{Type: decthings.String, Shape: []int{}, Strings: []string{"a"}}}, notImpl: true},
		{name: "boolean byte 2", ts: []decthings.Tensor{{Type: decthings.Boolean, Shape: []int{2}, Data: []byte{1, 2}}}},
		{name: "size-0 dim", ts: []decthings.Tensor{u8(300, 0)}, notImpl: true},
		{name: "shapes differ", ts: []decthings.Tensor{u8(2, 3), u8(3, 2)}},
		{name: "types differ", ts: []decthings.Tensor{u8(2), {Type: decthings.I8, Shape: []int{2}, Data: make([]byte, 2)}}},
		{name: "short data", ts: []decthings.Tensor{{Type: decthings.U16, Shape: []int{2}, Data: make([]byte, 3)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := decthings.NewColumn(tt.ts)
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("NewColumn error = %v, want arrow.ErrInvalid", err)
			}
			if got := errors.Is(err, arrow.ErrNotImplemented); got != tt.notImpl {
				t.Errorf("errors.Is(err, ErrNotImplemented) = %v, want %v (%v)", got, tt.notImpl, err)
			}
		})
	}
}

func TestTensorOfFloat16Refused(t *testing.T) {
	typ := fixedshape.MustNewType(arrow.FixedWidthTypes.Float16, metadata.MustNew([]int{2}, nil, nil))
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b, _ := fixedshape.NewBuilder[float16Num](mem, typ)
	defer b.Release()
	b.AppendNull()
	arr := b.NewArray()
	defer arr.Release()
	if _, err := decthings.TensorOf(arr, 0); !errors.Is(err, arrow.ErrNotImplemented) {
		t.Errorf("TensorOf(float16) error = %v", err)
	}
}

func TestRules(t *testing.T) {
	r, err := decthings.ParseRules([]byte(`{"shape":[-1,3],"allowedTypes":["f32","u8"]}`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		typ     decthings.Type
		shape   []int
		wantErr bool
	}{
		{name: "wildcard", typ: decthings.F32, shape: []int{7, 3}},
		{name: "wildcard size-0", typ: decthings.U8, shape: []int{0, 3}},
		{name: "type refused", typ: decthings.F64, shape: []int{7, 3}, wantErr: true},
		{name: "fixed dim differs", typ: decthings.F32, shape: []int{7, 4}, wantErr: true},
		{name: "rank differs", typ: decthings.F32, shape: []int{3}, wantErr: true},
		{name: "0-D refused", typ: decthings.F32, shape: []int{}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := r.Check(tt.typ, tt.shape)
			if (err != nil) != tt.wantErr {
				t.Fatalf("Check error = %v, want error %v", err, tt.wantErr)
			}
			if err != nil && !errors.Is(err, arrow.ErrInvalid) {
				t.Errorf("error %v does not wrap arrow.ErrInvalid", err)
			}
		})
	}
	scalar := decthings.Rules{Shape: []int{}, AllowedTypes: []decthings.Type{decthings.String}}
	if err := scalar.CheckTensor(&decthings.Tensor{Type: decthings.String, Shape: []int{}}); err != nil {
		t.Errorf("0-D rule: %v", err)
	}
	for _, bad := range []string{`{"shape":[-2],"allowedTypes":["f32"]}`, `{"shape":[1],"allowedTypes":["f16"]}`, `{"shape":"x"}`, `nope`} {
		if _, err := decthings.ParseRules([]byte(bad)); !errors.Is(err, arrow.ErrInvalid) {
			t.Errorf("ParseRules(%s) error = %v", bad, err)
		}
	}
	out, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(`{"shape":[-1,3],"allowedTypes":["f32","u8"]}`, string(out)); diff != "" {
		t.Errorf("Marshal (-want +got):\n%s", diff)
	}
}

type float16Num = float16.Num
