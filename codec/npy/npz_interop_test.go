package npy_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/codec/npy"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/pyrun"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// npzEntry is one array of an archive exchanged with numpy: pattern
// values of the given dtype and shape (batch axis first), tensors listed
// in nulls filled with fill.
type npzEntry struct {
	Name  string  `json:"name"`
	Descr string  `json:"descr"`
	Shape []int   `json:"shape"`
	Big   bool    `json:"big"`
	Order string  `json:"order"` // memory order numpy saves: "C" or "F"
	Nulls []int   `json:"nulls"`
	Fill  float64 `json:"fill"`
}

// npzArchive is one archive of the exchange.
type npzArchive struct {
	File     string     `json:"file"`
	Compress bool       `json:"compress"`
	Entries  []npzEntry `json:"entries"`
	Big      bool       `json:"big"`
}

// npzScript checks every Go-written archive with np.load (names, dtypes,
// shapes, values, and the compression of each member), then writes the
// same arrays with np.savez or np.savez_compressed as py_<file>, one
// archive with positional arrays (arr_0, ...) too.
const npzScript = `
import json, os, sys, zipfile
import numpy as np
d = sys.argv[1]
archives = json.load(open(os.path.join(d, "manifest.json")))
fails = []
def expected(e, big):
    dt = np.dtype(e["descr"])
    n = int(np.prod(e["shape"], dtype=np.int64))
    k = np.arange(n)
    v = (k % 200) if dt.kind == "u" else (k % 100 - 50)
    arr = v.astype(dt).reshape(e["shape"])
    for i in e["nulls"] or []:
        arr[i] = e["fill"]
    if big or e["big"]:
        arr = arr.astype(dt.newbyteorder(">"))
    if e["order"] == "F":
        arr = np.asfortranarray(arr)
    return arr
for a in archives:
    path = os.path.join(d, a["file"])
    want_method = zipfile.ZIP_DEFLATED if a["compress"] else zipfile.ZIP_STORED
    with zipfile.ZipFile(path) as z:
        if z.testzip() is not None:
            fails.append("%s: bad CRC" % a["file"])
        for info in z.infolist():
            if info.compress_type != want_method:
                fails.append("%s: %s compress_type %d" % (a["file"], info.filename, info.compress_type))
    with np.load(path) as got:
        names = [e["name"] for e in (a["entries"] or [])]
        if list(got.files) != names:
            fails.append("%s: files %r, want %r" % (a["file"], got.files, names))
        for e in (a["entries"] or []):
            want = expected(e, a["big"])
            g = got[e["name"]]
            if g.dtype != want.dtype or g.shape != want.shape or not np.array_equal(g, want):
                fails.append("%s/%s: np.load gives %s %s %r" % (a["file"], e["name"], g.dtype, g.shape, g.ravel()[:8]))
    arrays = {e["name"]: expected(e, a["big"]) for e in (a["entries"] or [])}
    save = np.savez_compressed if a["compress"] else np.savez
    save(os.path.join(d, "py_" + a["file"]), **arrays)
    save(os.path.join(d, "pypos_" + a["file"]), *arrays.values())
if fails:
    print("\n".join(fails))
    sys.exit(1)
print("ok", len(archives), np.__version__)
`

func TestNPZNumpyInterop(t *testing.T) {
	pyrun.Python(t, "numpy")
	entries := []npzEntry{
		{Name: "f32", Descr: "<f4", Shape: []int{2, 3, 4}, Order: "C"},
		{Name: "scalars", Descr: "<i8", Shape: []int{5}, Order: "C"},
		{Name: "bytes", Descr: "|u1", Shape: []int{3, 2}, Order: "C"},
		{Name: "half", Descr: "<f2", Shape: []int{1, 2, 5}, Order: "C"},
		{Name: "filled", Descr: "<i2", Shape: []int{3, 2, 2}, Order: "C", Nulls: []int{1}, Fill: 9},
		{Name: "fortran", Descr: "<u4", Shape: []int{4, 3, 2}, Order: "F"},
		{Name: "empty", Descr: "<f8", Shape: []int{0, 2}, Order: "C"},
	}
	var archives []npzArchive
	for _, compress := range []bool{false, true} {
		for _, big := range []bool{false, true} {
			name := map[bool]string{false: "stored", true: "deflated"}[compress] + map[bool]string{false: "", true: "_be"}[big] + ".npz"
			archives = append(archives, npzArchive{File: name, Compress: compress, Entries: entries, Big: big}, npzArchive{File: "empty_" + name, Compress: compress, Big: big})
		}
	}
	dir := t.TempDir()
	for _, a := range archives {
		var names []string
		var cols []*fixedshape.Array
		for _, e := range a.Entries {
			names = append(names, e.Name)
			a, _ := interopColumn(t, e)
			cols = append(cols, a)
		}
		f, err := os.Create(filepath.Join(dir, a.File))
		if err != nil {
			t.Fatal(err)
		}
		opts := []npy.WriteOption{npy.WithCompression(deflate(a.Compress)), npy.WithBigEndian(a.Big), npy.WithFillNulls(9)}
		err = npy.WriteNPZ(f, names, cols, opts...)
		release(cols)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	js, _ := json.Marshal(archives)
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), js, 0o644); err != nil {
		t.Fatal(err)
	}
	out := pyrun.Run(t, npzScript, nil, []string{"numpy"}, dir)
	t.Logf("%s", out)

	for _, a := range archives {
		for _, prefix := range []string{"py_", "pypos_"} {
			t.Run(prefix+a.File, func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				b, err := os.ReadFile(filepath.Join(dir, prefix+a.File))
				if err != nil {
					t.Fatal(err)
				}
				names, cols, err := npz(b, npy.WithAllocator(mem))
				if err != nil {
					t.Fatal(err)
				}
				defer release(cols)
				var wantNames []string
				for i, e := range a.Entries {
					if prefix == "pypos_" {
						wantNames = append(wantNames, "arr_"+string(rune('0'+i)))
					} else {
						wantNames = append(wantNames, e.Name)
					}
				}
				if diff := cmp.Diff(wantNames, names); diff != "" {
					t.Fatalf("names (-want +got):\n%s", diff)
				}
				for i, e := range a.Entries {
					want, wantVals := interopColumn(t, e)
					if diff := cmp.Diff(wantVals, logical(t, cols[i]), cmpopts.EquateEmpty()); diff != "" {
						t.Errorf("%s values (-want +got):\n%s", e.Name, diff)
					}
					if diff := cmp.Diff(want.TensorType().Shape(), cols[i].TensorType().Shape()); diff != "" {
						t.Errorf("%s tensor shape (-want +got):\n%s", e.Name, diff)
					}
					want.Release()
				}
			})
		}
	}
}

// interopColumn builds the column of e, with a reversed permutation for
// Fortran order (WriteColumn copies it to C order; numpy reads the same
// logical values) and null tensors at e.Nulls, and returns it with the
// logical values it reads back as, nulls filled with e.Fill.
func interopColumn(t testing.TB, e npzEntry) (*fixedshape.Array, []float64) {
	t.Helper()
	var dt arrow.DataType
	for _, d := range elemTypes {
		if npyDescr(d) == e.Descr {
			dt = d
		}
	}
	if dt == nil {
		t.Fatalf("no element type for %s", e.Descr)
	}
	var perm []int
	if e.Order == "F" {
		perm = reversedPerm(len(e.Shape) - 1)
	}
	var valid []bool
	if len(e.Nulls) > 0 {
		valid = make([]bool, e.Shape[0])
		for i := range valid {
			valid[i] = true
		}
		for _, i := range e.Nulls {
			valid[i] = false
		}
	}
	c := npzCol{dt: dt, shape: e.Shape[1:], perm: perm, n: e.Shape[0], valid: valid}
	return c.make(t, e.Fill)
}
