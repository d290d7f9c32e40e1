package tfproto_test

import (
	"bytes"
	"encoding/hex"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/codec/tfproto"
)

func protoc(t *testing.T, mode, input string) string {
	t.Helper()
	path, err := exec.LookPath("protoc")
	if err != nil {
		t.Skip("protoc not found (Debian: apt-get install protobuf-compiler); skipping the check against protoc")
	}
	cmd := exec.Command(path, "--"+mode+"=tensorflow.TensorProto", "-Itestdata", "testdata/tensor.proto")
	cmd.Stdin = strings.NewReader(input)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("protoc --%s: %v: %s", mode, err, stderr.String())
	}
	return string(out)
}

// TestProtoc checks AppendTensor against protoc: protoc decodes our bytes
// to the expected text, and encoding that text gives our bytes back; and
// Decode reads what protoc encodes from text, typed *_val fields included.
func TestProtoc(t *testing.T) {
	tests := []struct {
		name   string
		tensor tfproto.Tensor
		text   string
	}{
		{
			name:   "float 2x3 named",
			tensor: tfproto.Tensor{DType: tfproto.Float, Shape: []int{2, 3}, DimNames: []string{"rows", ""}, Content: make([]byte, 24)},
			text:   `dtype: DT_FLOAT tensor_shape { dim { size: 2 name: "rows" } dim { size: 3 } } tensor_content: "` + strings.Repeat(`\000`, 24) + `"`,
		},
		{
			name:   "0-D int64",
			tensor: tfproto.Tensor{DType: tfproto.Int64, Shape: []int{}, Content: []byte{0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}},
			text:   `dtype: DT_INT64 tensor_shape { } tensor_content: "\376\377\377\377\377\377\377\377"`,
		},
		{
			name:   "size-0 dim",
			tensor: tfproto.Tensor{DType: tfproto.Uint8, Shape: []int{3, 0}, Content: []byte{}},
			text:   `dtype: DT_UINT8 tensor_shape { dim { size: 3 } dim { } }`,
		},
		{
			name:   "strings",
			tensor: tfproto.Tensor{DType: tfproto.String, Shape: []int{2}, Strings: [][]byte{[]byte("a"), []byte("bc")}},
			text:   `dtype: DT_STRING tensor_shape { dim { size: 2 } } string_val: "a" string_val: "bc"`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ours, err := tfproto.AppendTensor(nil, &tt.tensor)
			if err != nil {
				t.Fatal(err)
			}
			theirs := protoc(t, "encode", tt.text)
			if diff := cmp.Diff(hex.EncodeToString([]byte(theirs)), hex.EncodeToString(ours)); diff != "" {
				t.Errorf("bytes (-protoc +ours):\n%s", diff)
			}
			text := protoc(t, "decode", string(ours))
			again := protoc(t, "encode", text)
			if again != string(ours) {
				t.Errorf("protoc --decode | --encode changed our bytes:\n%s", text)
			}
			back, err := tfproto.Decode(ours)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.tensor, back); diff != "" {
				t.Errorf("Decode (-want +got):\n%s", diff)
			}
		})
	}
	// Typed fields as protoc writes them (packed).
	typed := []struct {
		name string
		text string
		want tfproto.Tensor
	}{
		{
			name: "int_val short",
			text: `dtype: DT_INT16 tensor_shape { dim { size: 3 } } int_val: -2 int_val: 258`,
			want: tfproto.Tensor{DType: tfproto.Int16, Shape: []int{3}, Content: []byte{0xfe, 0xff, 0x02, 0x01, 0x02, 0x01}},
		},
		{
			name: "uint32_val",
			text: `dtype: DT_UINT32 tensor_shape { dim { size: 1 } } uint32_val: 4294967295`,
			want: tfproto.Tensor{DType: tfproto.Uint32, Shape: []int{1}, Content: []byte{0xff, 0xff, 0xff, 0xff}},
		},
		{
			name: "double_val",
			text: `dtype: DT_DOUBLE tensor_shape { dim { size: 2 } } double_val: 1.5`,
			want: tfproto.Tensor{DType: tfproto.Double, Shape: []int{2}, Content: []byte{0, 0, 0, 0, 0, 0, 0xf8, 0x3f, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f}},
		},
		{
			name: "half_val",
			text: `dtype: DT_HALF tensor_shape { dim { size: 2 } } half_val: 15360 half_val: 49152`,
			want: tfproto.Tensor{DType: tfproto.Half, Shape: []int{2}, Content: []byte{0x00, 0x3c, 0x00, 0xc0}},
		},
	}
	for _, tt := range typed {
		t.Run("typed/"+tt.name, func(t *testing.T) {
			got, err := tfproto.Decode([]byte(protoc(t, "encode", tt.text)))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Decode (-want +got):\n%s", diff)
			}
		})
	}
}
