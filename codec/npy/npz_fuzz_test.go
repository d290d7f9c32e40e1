package npy_test

import (
	"bytes"
	"errors"
	"testing"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/codec/npy"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/google/go-cmp/cmp"
)

// FuzzReadNPZ feeds arbitrary bytes to ReadNPZ: it never panics, errors
// wrap arrow.ErrInvalid and return no column, memory is bounded by the
// limits and released, and an archive read writes back (stored and
// deflated) to one that reads the same names and values.
func FuzzReadNPZ(f *testing.F) {
	good := npyBytes(f, 2, 3)
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{2, 2}, nil, []int{1, 0}))
	a, err := fixedshape.FromSlice(typ, []float32{1, 2, 3, 4, 5, 6, 7, 8}, nil)
	if err != nil {
		f.Fatal(err)
	}
	for _, compress := range []bool{false, true} {
		var b bytes.Buffer
		if err := npy.WriteNPZ(&b, []string{"a", "b"}, []*fixedshape.Array{a, a}, npy.WithCompression(deflate(compress)), npy.WithBigEndian(compress)); err != nil {
			f.Fatal(err)
		}
		f.Add(b.Bytes())
	}
	a.Release()
	f.Add(rawZip())
	f.Add(rawZip(stored("a.npy", good), deflated("b.npy", good), stored("c.txt", []byte("c"))))
	f.Add(rawZip(stored("a.npy", good), rawEntry{name: "b.npy", method: 0, sameAs: 1, usize: uint64(len(good)), csize: uint64(len(good))}))
	f.Fuzz(func(t *testing.T, in []byte) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		opts := []npy.ReadOption{npy.WithAllocator(mem), npy.WithMaxDataSize(1 << 20), npy.WithMaxTotalSize(4 << 20), npy.WithMaxMembers(64)}
		names, cols, err := npz(in, opts...)
		if err != nil {
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("error %v does not wrap arrow.ErrInvalid", err)
			}
			if names != nil || cols != nil {
				t.Fatalf("%d names and %d columns besides the error", len(names), len(cols))
			}
			return
		}
		defer release(cols)
		if len(names) != len(cols) {
			t.Fatalf("%d names for %d columns", len(names), len(cols))
		}
		want := make([][]float64, len(cols))
		for i, c := range cols {
			want[i] = logical(t, c)
		}
		for _, compress := range []bool{false, true} {
			var b bytes.Buffer
			if err := npy.WriteNPZ(&b, names, cols, npy.WithCompression(deflate(compress))); err != nil {
				if errors.Is(err, arrow.ErrInvalid) && hasBadName(names) {
					return // a name WriteNPZ refuses: NUL or not UTF-8
				}
				t.Fatalf("writing back: %v", err)
			}
			names2, cols2, err := npz(b.Bytes(), npy.WithAllocator(mem))
			if err != nil {
				t.Fatalf("reading back: %v", err)
			}
			if diff := cmp.Diff(names, names2); diff != "" {
				release(cols2)
				t.Fatalf("names (-want +got):\n%s", diff)
			}
			for i, c := range cols2 {
				if diff := cmp.Diff(want[i], logical(t, c), cmp.Comparer(sameFloat)); diff != "" {
					release(cols2)
					t.Fatalf("column %q (-want +got):\n%s", names[i], diff)
				}
			}
			release(cols2)
		}
	})
}

// hasBadName reports whether a name holds a NUL byte or invalid UTF-8.
func hasBadName(names []string) bool {
	for _, n := range names {
		if !utf8.ValidString(n) || bytes.IndexByte([]byte(n), 0) >= 0 {
			return true
		}
	}
	return false
}
