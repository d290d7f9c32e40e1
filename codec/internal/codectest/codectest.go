// Package codectest holds the test helpers the codec packages share: the
// columns their tests build and the benchmark they all run. It is for
// tests only; errors fail the test.
package codectest

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// BoolColumn returns a bool column of n tensors of shape and perm whose
// physical element k is true when k%3 == 1, allocated from mem, with the
// validity valid (nil: all valid). The caller releases it.
func BoolColumn(t testing.TB, mem memory.Allocator, shape, perm []int, n int, valid []bool) *fixedshape.Array {
	t.Helper()
	typ := fixedshape.MustNewType(arrow.FixedWidthTypes.Boolean, metadata.MustNew(shape, nil, perm))
	data := make([]bool, n*typ.ListSize())
	for k := range data {
		data[k] = k%3 == 1
	}
	a, err := fixedshape.FromBools(mem, typ, data, valid)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// BenchCodec benchmarks a codec on a float32 column of 16 tensors of
// 64x64, row-major (layout=identity) and transposed (layout=transpose):
// appendCol appending the column's encoding to a reused S (op=encode),
// read decoding it (op=decode), beside a copy of the same bytes
// (op=copy), each in bytes of tensor data per second.
func BenchCodec[S ~[]E, E any](b *testing.B, appendCol func(dst S, arr *fixedshape.Array) (S, error), read func(S) (*fixedshape.Array, error)) {
	const tensors = 16
	for _, perm := range [][]int{nil, {1, 0}} {
		layout := "identity"
		if perm != nil {
			layout = "transpose"
		}
		typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{64, 64}, nil, perm))
		arr, err := fixedshape.FromSlice(typ, make([]float32, tensors*64*64), nil)
		if err != nil {
			b.Fatal(err)
		}
		defer arr.Release()
		enc, err := appendCol(nil, arr)
		if err != nil {
			b.Fatal(err)
		}
		size := int64(len(arr.ValueBytes()))
		b.Run("op=encode/dtype=float32/shape=16x64x64/layout="+layout, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(size)
			buf := make(S, 0, len(enc))
			for b.Loop() {
				if _, err := appendCol(buf[:0], arr); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("op=decode/dtype=float32/shape=16x64x64/layout="+layout, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(size)
			for b.Loop() {
				col, err := read(enc)
				if err != nil {
					b.Fatal(err)
				}
				col.Release()
			}
		})
	}
	b.Run("op=copy/dtype=float32/shape=16x64x64/impl=copy", func(b *testing.B) {
		BenchCopy(b, make([]byte, tensors*64*64*4))
	})
}

// Float32Column returns a float32 column of shape[0] tensors of shape[1:]
// with permutation perm over a Go slice, the values i%1000 in physical
// order. The caller releases it.
func Float32Column(b testing.TB, shape, perm []int) *fixedshape.Array {
	b.Helper()
	m, err := metadata.New(shape[1:], nil, perm)
	if err != nil {
		b.Fatal(err)
	}
	vals := make([]float32, shape[0]*m.Size())
	for i := range vals {
		vals[i] = float32(i % 1000)
	}
	a, err := fixedshape.FromSlice(fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, m), vals, nil)
	if err != nil {
		b.Fatal(err)
	}
	return a
}

// ShapeName returns shape as benchmark names write it: the dimensions
// joined by "x" ("4096x128x128").
func ShapeName(shape []int) string {
	s := make([]string, len(shape))
	for i, d := range shape {
		s[i] = fmt.Sprint(d)
	}
	return strings.Join(s, "x")
}

// CountCase is one row of a test of a reader's tensor count: the input,
// the reader's options, and the number of tensors it reads or whether it
// fails.
type CountCase[O any] struct {
	Name    string
	In      []byte
	Opts    []O
	Want    int
	WantErr bool
}

// RunCountCases runs each case as a subtest of its name: read (a stream
// reader, such as one with a WithExpectedCount option) must fail with an
// error wrapping arrow.ErrInvalid when WantErr is set, and otherwise read
// Want tensors.
func RunCountCases[O any](t *testing.T, cases []CountCase[O], read func([]byte, ...O) (*fixedshape.Array, error)) {
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			got, err := read(tt.In, tt.Opts...)
			if tt.WantErr {
				if !errors.Is(err, arrow.ErrInvalid) {
					t.Fatalf("read error = %v, want arrow.ErrInvalid", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer got.Release()
			if got.Len() != tt.Want {
				t.Errorf("read %d tensors, want %d", got.Len(), tt.Want)
			}
		})
	}
}

// BenchCopy is the baseline benchmark beside a codec's: copy() of src into
// a reused buffer, its pages faulted in before timing, in bytes of src per
// second.
func BenchCopy(b *testing.B, src []byte) {
	dst := make([]byte, len(src))
	copy(dst, src)
	b.ReportAllocs()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		copy(dst, src)
	}
}

// WantInvalid is [WantError] for a row that expects arrow.ErrInvalid
// (wantErr) or success.
func WantInvalid(t testing.TB, what string, err error, wantErr bool) bool {
	t.Helper()
	var want error
	if wantErr {
		want = arrow.ErrInvalid
	}
	return WantError(t, what, err, want)
}

// WantError checks the error of the call a table row makes: with want
// set, err must match it under errors.Is; with want nil, err must be nil.
// Either failure stops the test, named by what (the function called). It
// reports whether want is set, so that a row expecting an error can
// return.
func WantError(t testing.TB, what string, err, want error) bool {
	t.Helper()
	if want != nil {
		if !errors.Is(err, want) {
			t.Fatalf("%s error = %v, want %v", what, err, want)
		}
		return true
	}
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return false
}
