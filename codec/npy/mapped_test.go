package npy_test

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/codec/internal/codectest"
	"github.com/fstensor/fstensor/codec/npy"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/mmap"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/google/go-cmp/cmp"
)

func TestMap(t *testing.T) {
	f32, u8, i64 := arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Int64
	tests := []struct {
		name       string
		dt         arrow.DataType
		shape      []int // tensor shape
		perm       []int
		n          int  // tensors written
		tensor     bool // WriteTensor + MapTensor, else WriteColumn + MapColumn
		big        bool
		wantShared bool
		wantErr    error
		file       []byte    // written as is instead of a, when set
		want       []float64 // the values of file
	}{
		{name: "C column", dt: f32, shape: []int{3, 4}, n: 5, wantShared: true},
		{name: "column of 0-D", dt: i64, shape: nil, n: 7, wantShared: true},
		{name: "0-D tensor", dt: i64, shape: nil, n: 1, tensor: true, wantShared: true},
		{name: "non-square tensor", dt: f32, shape: []int{2, 5}, n: 1, tensor: true, wantShared: true},
		{name: "Fortran tensor", dt: f32, shape: []int{3, 4}, perm: []int{1, 0}, n: 2, tensor: true, wantShared: true},
		{name: "3-cycle written in C order", dt: f32, shape: []int{2, 3, 4}, perm: []int{2, 0, 1}, n: 2, wantShared: true},
		{name: "3-cycle tensor", dt: f32, shape: []int{2, 3, 4}, perm: []int{2, 0, 1}, n: 1, tensor: true, wantShared: true},
		{name: "big-endian column", dt: f32, shape: []int{3, 4}, n: 3, big: true},
		{name: "big-endian tensor", dt: i64, shape: []int{4}, n: 1, tensor: true, big: true},
		{name: "big-endian bytes", dt: u8, shape: []int{3}, n: 2, big: true, wantShared: true},
		{name: "Fortran column", dt: arrow.PrimitiveTypes.Uint16, shape: []int{2}, n: 3, file: fortranFile(t), want: []float64{1, 2, 3, 4, 5, 6}},
		{name: "empty column", dt: f32, shape: []int{2, 2}, n: 0},
		{name: "0-D as column", dt: i64, shape: nil, n: 1, tensor: true, wantErr: arrow.ErrInvalid},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			m := metadata.MustNew(tt.shape, nil, tt.perm)
			vals := patternValues(tt.dt, tt.n*m.Size())
			a := fromLogical(t, tt.dt, m, vals, nil)
			defer a.Release()
			var b bytes.Buffer
			wo := []npy.WriteOption{npy.WithBigEndian(tt.big)}
			var err error
			if tt.tensor {
				err = npy.WriteTensor(&b, a, 0, wo...)
			} else {
				err = npy.WriteColumn(&b, a, wo...)
			}
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, tt.name+".npy")
			if tt.file != nil {
				b.Reset()
				b.Write(tt.file)
				vals = tt.want
			}
			if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			open, wantVals := npy.MapColumn, vals
			if tt.tensor && tt.wantErr == nil {
				open, wantVals = npy.MapTensor, vals[:m.Size()]
			}
			got, closer, err := open(path, npy.WithAllocator(mem))
			if codectest.WantError(t, "MapColumn or MapTensor", err, tt.wantErr) {
				return
			}
			if diff := cmp.Diff(wantVals, logical(t, got), cmp.Comparer(sameFloat)); diff != "" {
				t.Errorf("values (-want +got):\n%s", diff)
			}
			if wantMeta := tt.name == "Fortran tensor"; wantMeta && !got.TensorType().Metadata().Equal(m) {
				t.Errorf("metadata = %v, want %v", got.TensorType().Metadata(), m)
			}
			mp, isMapping := closer.(*mmap.Mapping)
			vb := got.ValueBytes()
			if isMapping != tt.wantShared {
				t.Errorf("closer is a mapping = %v, want %v", isMapping, tt.wantShared)
			}
			if isMapping {
				h, err := npy.ParseHeader(mp.Bytes(), 0)
				if err != nil {
					t.Fatal(err)
				}
				if !mp.Contains(vb) || &vb[0] != &mp.Bytes()[h.DataOffset] {
					t.Error("the values buffer does not start at the data in the mapping")
				}
			}
			got.Release()
			if err := closer.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
		})
	}
}

// fortranFile returns a Fortran-order uint16 file of shape (3, 2) holding
// [[1 2] [3 4] [5 6]].
func fortranFile(t *testing.T) []byte {
	t.Helper()
	h, err := npy.AppendHeader(nil, npy.Header{Type: arrow.PrimitiveTypes.Uint16, FortranOrder: true, Shape: []int{3, 2}})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []byte{1, 3, 5, 2, 4, 6} {
		h = append(h, v, 0)
	}
	return h
}

func TestMapErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.npy")
	if err := os.WriteFile(bad, []byte("\x93NUMPY\x09\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty.npy")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge.npy")
	if err := os.WriteFile(huge, file(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904, 4), }", nil), 0o644); err != nil {
		t.Fatal(err)
	}
	short := filepath.Join(dir, "short.npy")
	if err := os.WriteFile(short, file(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 4), }", make([]byte, 63)), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		path string
		want error
	}{
		{name: "overflowing shape", path: huge, want: arrow.ErrInvalid},
		{name: "short data", path: short, want: io.ErrUnexpectedEOF},
		{name: "missing", path: filepath.Join(dir, "missing.npy"), want: fs.ErrNotExist},
		{name: "bad version", path: bad, want: arrow.ErrInvalid},
		{name: "empty file", path: empty, want: arrow.ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, open := range []func(string, ...npy.ReadOption) (*fixedshape.Array, io.Closer, error){npy.MapColumn, npy.MapTensor} {
				a, c, err := open(tt.path, nil)
				if !errors.Is(err, tt.want) {
					t.Errorf("error = %v, want %v", err, tt.want)
				}
				if a != nil || c != nil {
					t.Error("a result besides the error")
				}
			}
		})
	}
}

// TestMapTruncated truncates a mapped file: where the system grants a
// lease, the column keeps its values (reading them does not fault).
func TestMapTruncated(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	m := metadata.MustNew([]int{64, 64}, nil, nil)
	vals := patternValues(arrow.PrimitiveTypes.Float32, 10*m.Size())
	a := fromLogical(t, arrow.PrimitiveTypes.Float32, m, vals, nil)
	defer a.Release()
	var b bytes.Buffer
	if err := npy.WriteColumn(&b, a); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "x.npy")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if !testvec.Leases(t, path) {
		t.Skip("the column of an unleased mapping faults when its file is truncated")
	}
	got, closer, err := npy.MapColumn(path, npy.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	defer closer.Close()
	defer got.Release()
	if err := os.Truncate(path, 100); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(vals, logical(t, got), cmp.Comparer(sameFloat)); diff != "" {
		t.Errorf("values after the file was truncated (-want +got):\n%s", diff)
	}
}
