package npy_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/codec/npy"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/pyrun"
	"github.com/fstensor/fstensor/metadata"
)

// boolFile returns a .npy file of descr |b1 and shape (len(data),) whose
// data bytes are data.
func boolFile(data []byte) []byte {
	h := npy.Header{Type: arrow.FixedWidthTypes.Boolean, Shape: []int{len(data)}}
	b, err := npy.AppendHeader(nil, h)
	if err != nil {
		panic(err)
	}
	return append(b, data...)
}

// TestBoolBytes reads bool data bytes other than 0 and 1 as NumPy does:
// every non-zero byte is true.
func TestBoolBytes(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		want []float64
	}{
		{"zero and one", []byte{0, 1, 1, 0}, []float64{0, 1, 1, 0}},
		{"other bytes", []byte{2, 0, 255, 0x80}, []float64{1, 0, 1, 1}},
		{"more than a word", []byte{1, 0, 0, 0, 0, 0, 0, 0, 7, 0, 1}, []float64{1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			in := boolFile(tc.data)
			for name, read := range map[string]func() (*fixedshape.Array, error){
				"decode": func() (*fixedshape.Array, error) { return npy.DecodeColumn(in, npy.WithAllocator(mem)) },
				"read": func() (*fixedshape.Array, error) {
					return npy.ReadColumn(bytes.NewReader(in), npy.WithAllocator(mem))
				},
			} {
				a, err := read()
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				got := logical(t, a)
				a.Release()
				if diff := cmp.Diff(tc.want, got); diff != "" {
					t.Errorf("%s values (-want +got):\n%s", name, diff)
				}
			}
		})
	}
}

// TestBoolBytesNumpy checks against NumPy that it loads non-zero bytes
// as true, and that the header is the one numpy.save writes.
func TestBoolBytesNumpy(t *testing.T) {
	py := pyrun.Python(t, "numpy")
	dir := t.TempDir()
	path := filepath.Join(dir, "b.npy")
	if err := os.WriteFile(path, boolFile([]byte{2, 0, 255, 1, 0x80}), 0o644); err != nil {
		t.Fatal(err)
	}
	script := `
import sys, io, numpy as np
a = np.load(sys.argv[1])
b = io.BytesIO(); np.save(b, np.array([True, False, True, True, True]))
print(a.dtype, a.astype(np.uint8).tolist(), a.tolist(), open(sys.argv[1], "rb").read()[:-5] == b.getvalue()[:-5])
`
	out, err := exec.Command(py, "-c", script, path).CombinedOutput()
	if err != nil {
		t.Fatalf("numpy: %v\n%s", err, out)
	}
	want := "bool [1, 0, 1, 1, 1] [True, False, True, True, True] True"
	if got := strings.TrimSpace(string(out)); got != want {
		t.Errorf("numpy reads %q, want %q", got, want)
	}
}

// TestBoolSliced writes a slice of a bool column whose first element is
// not at a byte boundary of the bits.
func TestBoolSliced(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	typ := fixedshape.MustNewType(arrow.FixedWidthTypes.Boolean, metadata.MustNew([]int{5}, nil, nil))
	data := []bool{
		true, false, false, false, false,
		false, true, true, false, true,
		true, true, false, false, true,
	}
	a, err := fixedshape.FromBools(mem, typ, data, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	s := array.NewSlice(a, 1, 3).(*fixedshape.Array)
	defer s.Release()
	var b bytes.Buffer
	if err := npy.WriteColumn(&b, s); err != nil {
		t.Fatal(err)
	}
	got, err := npy.DecodeColumn(b.Bytes(), npy.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	defer got.Release()
	want := []float64{0, 1, 1, 0, 1, 1, 1, 0, 0, 1}
	if diff := cmp.Diff(want, logical(t, got)); diff != "" {
		t.Errorf("values (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]byte{0, 1, 1, 0, 1, 1, 1, 0, 0, 1}, b.Bytes()[len(b.Bytes())-10:]); diff != "" {
		t.Errorf("data bytes (-want +got):\n%s", diff)
	}
}
