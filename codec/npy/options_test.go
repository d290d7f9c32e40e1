package npy_test

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor"
	"github.com/fstensor/fstensor/codec/npy"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// wantOptionError fails t unless err is an *npy.Error wrapping
// fstensor.ErrOption and arrow.ErrInvalid.
func wantOptionError(t *testing.T, err error) {
	t.Helper()
	var ne *npy.Error
	if !errors.Is(err, fstensor.ErrOption) || !errors.Is(err, arrow.ErrInvalid) || !errors.As(err, &ne) {
		t.Errorf("error %v, want an *npy.Error wrapping fstensor.ErrOption and arrow.ErrInvalid", err)
	}
}

// TestInvalidReadOptions: every reader refuses an invalid option value
// before reading, even a valid file.
func TestInvalidReadOptions(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	col := fromLogical(t, arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{2, 3}, nil, nil), patternValues(arrow.PrimitiveTypes.Float32, 12), nil)
	defer col.Release()
	var file, archive bytes.Buffer
	if err := npy.WriteColumn(&file, col); err != nil {
		t.Fatal(err)
	}
	if err := npy.WriteNPZ(&archive, []string{"x"}, []*fixedshape.Array{col}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "x.npy")
	if err := os.WriteFile(path, file.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}

	one := func(a *fixedshape.Array, err error) error {
		if err == nil {
			a.Release()
		}
		return err
	}
	mapped := func(a *fixedshape.Array, c io.Closer, err error) error {
		if err == nil {
			a.Release()
			c.Close()
		}
		return err
	}
	readers := []struct {
		name string
		read func(opts ...npy.ReadOption) error
	}{
		{"DecodeColumn", func(o ...npy.ReadOption) error { return one(npy.DecodeColumn(file.Bytes(), o...)) }},
		{"DecodeTensor", func(o ...npy.ReadOption) error { return one(npy.DecodeTensor(file.Bytes(), o...)) }},
		{"ReadColumn", func(o ...npy.ReadOption) error { return one(npy.ReadColumn(bytes.NewReader(file.Bytes()), o...)) }},
		{"ReadTensor", func(o ...npy.ReadOption) error { return one(npy.ReadTensor(bytes.NewReader(file.Bytes()), o...)) }},
		{"MapColumn", func(o ...npy.ReadOption) error { return mapped(npy.MapColumn(path, o...)) }},
		{"MapTensor", func(o ...npy.ReadOption) error { return mapped(npy.MapTensor(path, o...)) }},
		{"ReadNPZ", func(o ...npy.ReadOption) error {
			_, cols, err := npy.ReadNPZ(bytes.NewReader(archive.Bytes()), int64(archive.Len()), o...)
			for _, c := range cols {
				c.Release()
			}
			return err
		}},
	}
	tests := []struct {
		name string
		opt  npy.ReadOption
	}{
		{"nil allocator", npy.WithAllocator(nil)},
		{"zero header size", npy.WithMaxHeaderSize(0)},
		{"negative header size", npy.WithMaxHeaderSize(-1)},
		{"zero data size", npy.WithMaxDataSize(0)},
		{"negative data size", npy.WithMaxDataSize(math.MinInt)},
		{"zero members", npy.WithMaxMembers(0)},
		{"negative total size", npy.WithMaxTotalSize(-1)},
	}
	for _, r := range readers {
		t.Run(r.name+"/valid", func(t *testing.T) {
			if err := r.read(npy.WithAllocator(mem), npy.WithMaxHeaderSize(1000), npy.WithMaxDataSize(1000), npy.WithMaxMembers(1), npy.WithMaxTotalSize(1000)); err != nil {
				t.Fatal(err)
			}
		})
		for _, tt := range tests {
			t.Run(r.name+"/"+tt.name, func(t *testing.T) {
				wantOptionError(t, r.read(npy.WithAllocator(mem), tt.opt))
			})
		}
	}
}

// TestInvalidWriteOptions: every writer refuses an invalid option value
// before writing anything.
func TestInvalidWriteOptions(t *testing.T) {
	col := fromLogical(t, arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{2, 3}, nil, nil), patternValues(arrow.PrimitiveTypes.Float32, 12), nil)
	defer col.Release()
	writers := []struct {
		name  string
		write func(w io.Writer, opts ...npy.WriteOption) error
	}{
		{"WriteColumn", func(w io.Writer, o ...npy.WriteOption) error { return npy.WriteColumn(w, col, o...) }},
		{"WriteTensor", func(w io.Writer, o ...npy.WriteOption) error { return npy.WriteTensor(w, col, 1, o...) }},
		{"WriteNPZ", func(w io.Writer, o ...npy.WriteOption) error {
			return npy.WriteNPZ(w, []string{"x"}, []*fixedshape.Array{col}, o...)
		}},
	}
	tests := []struct {
		name string
		opt  npy.WriteOption
	}{
		{"version 0.0", npy.WithVersion(0, 0)},
		{"version 4.0", npy.WithVersion(4, 0)},
		{"version 1.1", npy.WithVersion(1, 1)},
		{"zstd", npy.WithCompression(fstensor.ZSTD)},
		{"unknown codec", npy.WithCompression(99)},
	}
	for _, w := range writers {
		t.Run(w.name+"/valid", func(t *testing.T) {
			var b bytes.Buffer
			if err := w.write(&b, npy.WithVersion(2, 0), npy.WithBigEndian(true), npy.WithFillNulls(0), npy.WithCompression(fstensor.Deflate)); err != nil {
				t.Fatal(err)
			}
		})
		for _, tt := range tests {
			t.Run(w.name+"/"+tt.name, func(t *testing.T) {
				var b bytes.Buffer
				wantOptionError(t, w.write(&b, tt.opt))
				if b.Len() != 0 {
					t.Errorf("wrote %d bytes", b.Len())
				}
			})
		}
	}
}
