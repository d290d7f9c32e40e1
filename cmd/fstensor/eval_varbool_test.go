package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/internal/pyrun"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/varshape"
)

// boolRowsPy reads, with pyarrow, the variable-shape column "image" of
// the input file (argv[1]) and of eval's output (argv[2]), through
// interop.py (in argv[3]); it prints the output field's extension keys
// (those of its C Data export when pyarrow knows the type), the type of
// its storage's data child,
// its rows (logical shape and elements, from the storage: pyarrow has no
// variable-shape type) and NumPy's x > 100 of each input row.
const boolRowsPy = `
import json, sys
import numpy as np
import pyarrow as pa, pyarrow.ipc, pyarrow.parquet as pq
sys.path.insert(0, sys.argv[3])
from interop import c_metadata

def read(path):
    if path.endswith(".parquet"):
        t = pq.read_table(path)
    else:
        t = pa.ipc.open_file(path).read_all()
    i = t.schema.get_field_index("image")
    f, col = t.schema.field(i), t.column(i).combine_chunks()
    md = {k.decode(): v.decode() for k, v in (f.metadata or {}).items()}
    if isinstance(f.type, pa.BaseExtensionType):
        col, md = col.storage, c_metadata(f)
    return md, col

def rows(md, col, fn):
    perm = json.loads(md.get("ARROW:extension:metadata") or "{}").get("permutation")
    out = []
    for r in col.to_pylist():
        if r is None:
            out.append(None)
            continue
        a = np.asarray(r["data"]).reshape(r["shape"])
        if perm is not None:
            a = a.transpose(perm)
        a = fn(a)
        out.append({"shape": list(a.shape), "values": [bool(v) for v in a.reshape(-1)]})
    return out

imd, icol = read(sys.argv[1])
omd, ocol = read(sys.argv[2])
json.dump({
    "name": omd.get("ARROW:extension:name"),
    "metadata": omd.get("ARROW:extension:metadata"),
    "data": str(ocol.type.field("data").type),
    "rows": rows(omd, ocol, lambda a: a),
    "numpy": rows(imd, icol, lambda a: a.astype(np.uint8) > 100),
}, sys.stdout)
`

// pyBoolRow is a row as boolRowsPy prints it.
type pyBoolRow struct {
	Shape  []int  `json:"shape"`
	Values []bool `json:"values"`
}

// TestEvalVarBool runs eval 'x > 100' over the variable-shape uint8
// images of testdata/varshape/sizes.arrow: the output is a variable-shape
// column of bool elements whose every row is x > 100 of the input row,
// and pyarrow reads the file it writes (IPC and Parquet) as the storage
// struct with a list<bool> data child, the canonical extension keys and
// rows equal to NumPy's.
func TestEvalVarBool(t *testing.T) {
	sizes := filepath.Join("..", "..", "testdata", "varshape", "sizes.arrow")
	src := readAnyColumn(t, sizes, "image")
	defer src.Release()
	in := src.(*varshape.Array)
	col, err := varshape.ColumnOf[uint8](in)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]*pyBoolRow, in.Len())
	above, total := 0, 0
	for i := range want {
		if in.IsNull(i) {
			continue
		}
		r := &pyBoolRow{Shape: in.Shape(nil, i), Values: []bool{}}
		for v := range col.Tensor(i).All() {
			r.Values = append(r.Values, v > 100)
			if total++; v > 100 {
				above++
			}
		}
		want[i] = r
	}
	if above == 0 || above == total {
		t.Fatalf("%d of %d elements above 100: the test needs both kinds", above, total)
	}
	for _, ext := range []string{"arrow", "parquet"} {
		t.Run("format="+ext, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out."+ext)
			code, _, stderr := runCmd(t, "eval", "x > 100", sizes, "-o", out)
			if code != 0 {
				t.Fatalf("code %d: %s", code, stderr)
			}
			if summary := "image: uint8 (?,?,3) -> bool (?,?,3)"; !strings.Contains(stderr, summary) {
				t.Errorf("stderr %q lacks %q", stderr, summary)
			}
			res := readAnyColumn(t, out, "image")
			defer res.Release()
			got, ok := res.(*varshape.Array)
			if !ok || got.TensorType().ElemType().ID() != arrow.BOOL {
				t.Fatalf("eval wrote a %v column, want variable-shape bool", res.DataType())
			}
			if diff := cmp.Diff(want, goBoolRows(got)); diff != "" {
				t.Errorf("rows (-x>100 +eval):\n%s", diff)
			}
			pyrun.Python(t, "pyarrow", "numpy")
			var py struct {
				Name     *string      `json:"name"`
				Metadata *string      `json:"metadata"`
				Data     string       `json:"data"`
				Rows     []*pyBoolRow `json:"rows"`
				NumPy    []*pyBoolRow `json:"numpy"`
			}
			if err := json.Unmarshal(pyrun.Run(t, boolRowsPy, nil, []string{"pyarrow", "numpy"}, sizes, out, filepath.Dir(testvec.Path("varshape/interop.py"))), &py); err != nil {
				t.Fatal(err)
			}
			if py.Name == nil || *py.Name != varshape.ExtensionName || py.Metadata == nil || *py.Metadata != got.TensorType().Serialize() {
				t.Errorf("pyarrow read the keys %v %v, want %q %q", py.Name, py.Metadata, varshape.ExtensionName, got.TensorType().Serialize())
			}
			if py.Data != "list<item: bool>" {
				t.Errorf("pyarrow reads the data child as %s, want list<item: bool>", py.Data)
			}
			if diff := cmp.Diff(py.NumPy, py.Rows); diff != "" {
				t.Errorf("pyarrow's rows (-NumPy +pyarrow):\n%s", diff)
			}
			if diff := cmp.Diff(want, py.Rows); diff != "" {
				t.Errorf("pyarrow's rows (-Go +pyarrow):\n%s", diff)
			}
		})
	}
}

// goBoolRows returns the rows of a bool column in logical order.
func goBoolRows(a *varshape.Array) []*pyBoolRow {
	out := make([]*pyBoolRow, a.Len())
	for i := range out {
		if a.IsNull(i) {
			continue
		}
		shape := a.Shape(nil, i)
		r := &pyBoolRow{Shape: shape, Values: []bool{}}
		for idx := range testvec.Indices(shape) {
			r.Values = append(r.Values, a.BoolAt(i, idx...))
		}
		out[i] = r
	}
	return out
}
