package npy_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/codec/npy"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/pyrun"
	"github.com/fstensor/fstensor/metadata"
	"github.com/google/go-cmp/cmp"
)

// interopEntry describes one file of the interop exchange.
type interopEntry struct {
	File    string `json:"file"`
	Descr   string `json:"descr"` // little-endian or '|' form
	Big     bool   `json:"big"`
	Shape   []int  `json:"shape"`
	Order   string `json:"order"` // memory order numpy should save: "C" or "F"
	Version []int  `json:"version"`
}

// interopScript checks each Go-written file against numpy: np.load gives
// the pattern values with the right dtype and order, and numpy's own
// writer produces identical bytes. It then writes py_<file> with numpy for
// the Go side to read.
const interopScript = `
import io, json, os, sys
import numpy as np
d = sys.argv[1]
entries = json.load(open(os.path.join(d, "manifest.json")))
fails = []
for e in entries:
    dt = np.dtype(e["descr"])
    n = int(np.prod(e["shape"], dtype=np.int64))
    k = np.arange(n)
    v = (k % 200) if dt.kind == "u" else (k % 3 % 2) if dt.kind == "b" else (k % 100 - 50)
    arr = v.astype(dt).reshape(e["shape"])
    if e["big"]:
        arr = arr.astype(dt.newbyteorder(">"))
    if e["order"] == "F":
        arr = np.asfortranarray(arr)
    version = tuple(e["version"]) if e["version"] else None
    path = os.path.join(d, e["file"])
    got = np.load(path)
    if got.dtype != arr.dtype or got.shape != arr.shape or not np.array_equal(got, arr):
        fails.append("%s: np.load gives %s %s %r" % (e["file"], got.dtype, got.shape, got.ravel()[:8]))
    if e["order"] == "F" and got.ndim > 1 and not got.flags.f_contiguous:
        fails.append("%s: not loaded as Fortran order" % e["file"])
    b = io.BytesIO()
    np.lib.format.write_array(b, arr, version=version)
    if b.getvalue() != open(path, "rb").read():
        fails.append("%s: numpy writes different bytes" % e["file"])
    with open(os.path.join(d, "py_" + e["file"]), "wb") as f:
        np.lib.format.write_array(f, arr, version=version)
if fails:
    print("\n".join(fails))
    sys.exit(1)
print("ok", len(entries), np.__version__)
`

// interopCase is one Go column or tensor exchanged with numpy.
type interopCase struct {
	entry  interopEntry
	meta   metadata.Metadata
	n      int // tensors in the column; 0 means one tensor written alone
	dt     arrow.DataType
	logicN int
}

func interopCases() []interopCase {
	var cs []interopCase
	add := func(dt arrow.DataType, m metadata.Metadata, n int, order string, version []int, big bool) {
		shape := m.Shape()
		if n > 0 {
			shape = append([]int{n}, shape...)
		}
		count := m.Size() * max(n, 1)
		descr := npyDescr(dt)
		name := fmt.Sprintf("c%03d_%s_%s_%v_v%v_big%v.npy", len(cs), descr[1:], order, metadata.FormatShape(shape), version, big)
		cs = append(cs, interopCase{
			entry: interopEntry{File: name, Descr: descr, Big: big && descr[0] != '|', Shape: shape, Order: order, Version: version},
			meta:  m, n: n, dt: dt, logicN: count,
		})
	}
	for _, dt := range elemTypes {
		for _, v := range [][]int{nil, {1, 0}, {2, 0}, {3, 0}} {
			for _, big := range []bool{false, true} {
				add(dt, metadata.MustNew([]int{3, 4}, nil, nil), 2, "C", v, big)               // column, C order
				add(dt, metadata.MustNew([]int{3, 4}, nil, []int{1, 0}), 0, "F", v, big)       // tensor, Fortran
				add(dt, metadata.MustNew([]int{2, 3, 4}, nil, []int{2, 0, 1}), 0, "C", v, big) // 3-cycle copied
			}
		}
	}
	add(arrow.PrimitiveTypes.Float64, metadata.MustNew(nil, nil, nil), 0, "C", nil, false)                       // 0-D tensor
	add(arrow.PrimitiveTypes.Float32, metadata.MustNew(nil, nil, nil), 5, "C", nil, false)                       // column of 0-D
	add(arrow.PrimitiveTypes.Int32, metadata.MustNew([]int{2, 3}, nil, nil), 0, "C", nil, false)                 // empty column below
	add(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{4, 3, 2}, nil, []int{2, 1, 0}), 3, "C", nil, false) // permuted column
	cs[len(cs)-2].n = -1                                                                                         // mark: empty column
	cs[len(cs)-2].entry.Shape = []int{0, 2, 3}
	cs[len(cs)-2].logicN = 0
	return cs
}

func npyDescr(dt arrow.DataType) string {
	h := npy.Header{Type: dt}
	return h.Descr()
}

func TestNumpyInterop(t *testing.T) {
	py := pyrun.Python(t, "numpy")
	dir := t.TempDir()
	cases := interopCases()
	var manifest []interopEntry
	for _, c := range cases {
		vals := patternValues(c.dt, c.logicN)
		a := fromLogical(t, c.dt, c.meta, vals, nil)
		var b bytes.Buffer
		o := []npy.WriteOption{npy.WithBigEndian(c.entry.Big)}
		if c.entry.Version != nil {
			o = append(o, npy.WithVersion(c.entry.Version[0], c.entry.Version[1]))
		}
		var err error
		if c.n == 0 {
			err = npy.WriteTensor(&b, a, 0, o...)
		} else {
			err = npy.WriteColumn(&b, a, o...)
		}
		a.Release()
		if err != nil {
			t.Fatalf("%s: %v", c.entry.File, err)
		}
		if err := os.WriteFile(filepath.Join(dir, c.entry.File), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		manifest = append(manifest, c.entry)
	}
	js, _ := json.Marshal(manifest)
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), js, 0o644); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "check.py")
	if err := os.WriteFile(script, []byte(interopScript), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(py, script, dir).CombinedOutput()
	if err != nil {
		t.Fatalf("numpy check failed: %v\n%s", err, out)
	}
	t.Logf("%s", bytes.TrimSpace(out))

	// Read back what numpy wrote: every file as a column (when it has a
	// batch axis) and as one tensor, from a stream and from bytes.
	for _, c := range cases {
		t.Run(c.entry.File, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			opts := []npy.ReadOption{npy.WithAllocator(mem)}
			b, err := os.ReadFile(filepath.Join(dir, "py_"+c.entry.File))
			if err != nil {
				t.Fatal(err)
			}
			want := patternValues(c.dt, c.logicN)
			reads := []struct {
				name string
				fn   func() (*fixedshape.Array, error)
			}{
				{"decode-tensor", func() (*fixedshape.Array, error) { return npy.DecodeTensor(b, opts...) }},
				{"read-tensor", func() (*fixedshape.Array, error) { return npy.ReadTensor(bytes.NewReader(b), opts...) }},
			}
			if len(c.entry.Shape) > 0 {
				reads = append(reads,
					struct {
						name string
						fn   func() (*fixedshape.Array, error)
					}{"decode-column", func() (*fixedshape.Array, error) { return npy.DecodeColumn(b, opts...) }},
					struct {
						name string
						fn   func() (*fixedshape.Array, error)
					}{"read-column", func() (*fixedshape.Array, error) { return npy.ReadColumn(onlyReader{bytes.NewReader(b)}, opts...) }},
				)
			}
			for _, r := range reads {
				a, err := r.fn()
				if c.logicN == 0 {
					if err == nil && r.name[len(r.name)-6:] == "column" {
						if a.Len() != 0 {
							t.Errorf("%s: %d tensors, want 0", r.name, a.Len())
						}
						a.Release()
					} else if err == nil {
						a.Release()
						t.Errorf("%s of a size-0 tensor: no error", r.name)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%s: %v", r.name, err)
				}
				if diff := cmp.Diff(want, logical(t, a)); diff != "" {
					t.Errorf("%s values (-want +got):\n%s", r.name, diff)
				}
				a.Release()
			}
		})
	}
}

// onlyReader hides every method but Read, to test the growing reader.
type onlyReader struct{ r *bytes.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }
