package npy_test

import (
	"archive/zip"
	"bytes"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor"
	"github.com/fstensor/fstensor/codec/internal/codectest"
	"github.com/fstensor/fstensor/codec/npy"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// npzCol describes one column of an archive test: n tensors of element
// type dt and metadata shape/perm, pattern values, valid (nil: all).
type npzCol struct {
	name  string
	dt    arrow.DataType
	shape []int
	perm  []int
	n     int
	valid []bool
}

// make builds the column and the logical values ReadNPZ should give back,
// null tensors filled with fill.
func (c npzCol) make(t testing.TB, fill float64) (*fixedshape.Array, []float64) {
	t.Helper()
	m := metadata.MustNew(c.shape, nil, c.perm)
	vals := patternValues(c.dt, c.n*m.Size())
	a := fromLogical(t, c.dt, m, vals, c.valid)
	want := append([]float64(nil), vals...)
	for i, ok := range c.valid {
		if !ok {
			for k := range m.Size() {
				want[i*m.Size()+k] = fill
			}
		}
	}
	return a, want
}

func TestNPZRoundTrip(t *testing.T) {
	f32, i64, u8 := arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Uint8
	f16, u32 := arrow.FixedWidthTypes.Float16, arrow.PrimitiveTypes.Uint32
	tests := []struct {
		name    string
		cols    []npzCol
		fill    *float64
		big     bool
		wantErr error
	}{
		{name: "empty archive"},
		{name: "one column", cols: []npzCol{{name: "x", dt: f32, shape: []int{3, 4}, n: 2}}},
		{name: "0-D tensors", cols: []npzCol{{name: "scalars", dt: i64, n: 5}}},
		{name: "non-square and mixed types", cols: []npzCol{
			{name: "a", dt: f32, shape: []int{2, 5}, n: 3},
			{name: "b", dt: u8, shape: []int{7}, n: 2},
			{name: "c", dt: f16, shape: []int{1, 3}, n: 1},
			{name: "d", dt: u32, shape: []int{4, 1, 2}, n: 2},
		}},
		{name: "3-cycle permutation", cols: []npzCol{{name: "p", dt: f32, shape: []int{2, 3, 4}, perm: []int{2, 0, 1}, n: 2}}},
		{name: "transposed", cols: []npzCol{{name: "t", dt: i64, shape: []int{3, 2}, perm: []int{1, 0}, n: 3}}},
		{name: "big-endian", big: true, cols: []npzCol{{name: "be", dt: u32, shape: []int{2, 3}, n: 2}, {name: "b1", dt: u8, shape: []int{2}, n: 2}}},
		{name: "empty column", cols: []npzCol{{name: "none", dt: f32, shape: []int{2, 3}, n: 0}}},
		{name: "odd names", cols: []npzCol{{name: "", dt: u8, shape: []int{1}, n: 1}, {name: "dir/x.y", dt: u8, shape: []int{1}, n: 1}, {name: "é", dt: u8, shape: []int{1}, n: 1}}},
		{name: "null without fill", wantErr: arrow.ErrInvalid, cols: []npzCol{{name: "n", dt: f32, shape: []int{2, 2}, n: 2, valid: []bool{true, false}}}},
		{name: "null with fill", fill: new(float64), cols: []npzCol{{name: "n", dt: f32, shape: []int{2, 2}, n: 3, valid: []bool{true, false, true}}}},
		{name: "null with fill, 3-cycle", fill: new(float64), cols: []npzCol{{name: "n", dt: i64, shape: []int{2, 3, 4}, perm: []int{2, 0, 1}, n: 2, valid: []bool{false, true}}}},
		{name: "duplicate names", wantErr: arrow.ErrInvalid, cols: []npzCol{{name: "x", dt: u8, shape: []int{1}, n: 1}, {name: "x", dt: u8, shape: []int{1}, n: 1}}},
		{name: "NUL in a name", wantErr: arrow.ErrInvalid, cols: []npzCol{{name: "a\x00b", dt: u8, shape: []int{1}, n: 1}}},
		{name: "name not UTF-8", wantErr: arrow.ErrInvalid, cols: []npzCol{{name: "\xff", dt: u8, shape: []int{1}, n: 1}}},
	}
	for _, tt := range tests {
		for _, compress := range []bool{false, true} {
			t.Run(tt.name+map[bool]string{false: "/stored", true: "/deflated"}[compress], func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				opts := []npy.WriteOption{npy.WithCompression(deflate(compress)), npy.WithBigEndian(tt.big)}
				fill := 0.0
				if tt.fill != nil {
					fill = -3
					opts = append(opts, npy.WithFillNulls(fill))
				}
				var names []string
				var cols []*fixedshape.Array
				var want [][]float64
				for _, c := range tt.cols {
					a, w := c.make(t, fill)
					defer a.Release()
					names, cols, want = append(names, c.name), append(cols, a), append(want, w)
				}
				var b bytes.Buffer
				err := npy.WriteNPZ(&b, names, cols, opts...)
				if codectest.WantError(t, "WriteNPZ", err, tt.wantErr) {
					return
				}
				// The members are what numpy expects: name.npy, stored or
				// deflated as asked.
				zr, err := zip.NewReader(bytes.NewReader(b.Bytes()), int64(b.Len()))
				if err != nil {
					t.Fatal(err)
				}
				wantMethod := map[bool]uint16{false: zip.Store, true: zip.Deflate}[compress]
				var members []string
				for _, f := range zr.File {
					members = append(members, f.Name)
					if f.Method != wantMethod {
						t.Errorf("member %q method %d, want %d", f.Name, f.Method, wantMethod)
					}
				}
				var wantMembers []string
				for _, n := range names {
					wantMembers = append(wantMembers, n+".npy")
				}
				if diff := cmp.Diff(wantMembers, members); diff != "" {
					t.Errorf("members (-want +got):\n%s", diff)
				}

				gotNames, got, err := npz(b.Bytes(), npy.WithAllocator(mem))
				if err != nil {
					t.Fatal(err)
				}
				defer release(got)
				if diff := cmp.Diff(names, gotNames); diff != "" {
					t.Errorf("names (-want +got):\n%s", diff)
				}
				for i, c := range got {
					if diff := cmp.Diff(want[i], logical(t, c), cmpopts.EquateEmpty()); diff != "" {
						t.Errorf("column %q values (-want +got):\n%s", names[i], diff)
					}
					if diff := cmp.Diff(tt.cols[i].shape, c.TensorType().Shape(), cmpopts.EquateEmpty()); diff != "" {
						t.Errorf("column %q tensor shape (-want +got):\n%s", names[i], diff)
					}
				}
			})
		}
	}
}

// npz reads an archive from bytes.
func npz(b []byte, o ...npy.ReadOption) ([]string, []*fixedshape.Array, error) {
	return npy.ReadNPZ(bytes.NewReader(b), int64(len(b)), o...)
}

func release(cols []*fixedshape.Array) {
	for _, c := range cols {
		c.Release()
	}
}

func TestWriteNPZArguments(t *testing.T) {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Uint8, metadata.MustNew([]int{1}, nil, nil))
	a, err := fixedshape.FromSlice(typ, []uint8{1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	tests := []struct {
		name  string
		names []string
		cols  []*fixedshape.Array
	}{
		{name: "more names", names: []string{"a", "b"}, cols: []*fixedshape.Array{a}},
		{name: "more columns", names: []string{"a"}, cols: []*fixedshape.Array{a, a}},
		{name: "nil column", names: []string{"a"}, cols: []*fixedshape.Array{nil}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := npy.WriteNPZ(&b, tt.names, tt.cols); !errors.Is(err, arrow.ErrInvalid) {
				t.Errorf("error = %v, want arrow.ErrInvalid", err)
			}
			if b.Len() != 0 {
				t.Errorf("%d bytes written before the error", b.Len())
			}
		})
	}
}

// failWriter fails every write after n bytes.
type failWriter struct{ n int }

var errWrite = errors.New("write failed")

func (w *failWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		k := w.n
		w.n = 0
		return k, errWrite
	}
	w.n -= len(p)
	return len(p), nil
}

func TestWriteNPZWriteError(t *testing.T) {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float64, metadata.MustNew([]int{64, 64}, nil, nil))
	a, err := fixedshape.FromSlice(typ, make([]float64, 2*64*64), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	for _, n := range []int{0, 10, 100, 5000, 40000} {
		if err := npy.WriteNPZ(&failWriter{n: n}, []string{"a", "b"}, []*fixedshape.Array{a, a}); !errors.Is(err, errWrite) {
			t.Errorf("after %d bytes: error = %v, want %v", n, err, errWrite)
		}
	}
}

// deflate returns the codec of .npz members: fstensor.Deflate when on.
func deflate(on bool) fstensor.Compression {
	if on {
		return fstensor.Deflate
	}
	return fstensor.Uncompressed
}
