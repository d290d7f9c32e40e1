package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/internal/pyrun"
)

// TestUnsupportedColumns reads pyarrow-written IPC and Parquet files whose
// tensor columns have element types fstensor does not view (bool, string)
// or views as raw elements (decimal128, timestamp, fixed_size_binary),
// beside an image tensor and a plain column: every command opens the
// file, names the unsupported columns and why, reads the rest, and
// copies every column unchanged.
func TestUnsupportedColumns(t *testing.T) {
	pyrun.Python(t, "pyarrow", "numpy")
	dir := mixedFiles(t)
	for _, name := range []string{"mixed.arrow", "mixed.parquet"} {
		in := filepath.Join(dir, name)
		t.Run(name, func(t *testing.T) {
			inspectMixed(t, in)
			evalMixed(t, dir, name, in)
			reverseMixed(t, dir, name, in)
			transposeMask(t, dir, name, in)
			convertMixed(t, dir, name, in)
		})
	}
}

// mixedFiles runs testdata/elemtypes/mixed.py, which writes the files of
// mixed and unsupported columns, in a new directory and returns it.
func mixedFiles(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	script, err := os.ReadFile(sample("elemtypes/mixed.py"))
	if err != nil {
		t.Fatal(err)
	}
	pyrun.Run(t, string(script), nil, []string{"pyarrow", "numpy"}, dir)
	return dir
}

// mixedUnsupported are the columns of mixed.py that fstensor does not
// view, and a word of why; mixedRaw those it views as raw elements, and
// their element types.
var (
	mixedUnsupported = map[string]string{"text": "element type utf8"}
	mixedRaw         = map[string]string{"mask": "bool", "dec": "decimal(9, 2)", "ts": "timestamp[us]", "fsb": "fixed_size_binary[3]"}
)

// inspectMixed checks inspect's report of the columns of in.
func inspectMixed(t *testing.T, in string) {
	code, out, stderr := runCmd(t, "inspect", "--json", in)
	if code != 0 {
		t.Fatalf("inspect: code %d: %s", code, stderr)
	}
	var rep inspectReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	var names []string
	for _, c := range rep.Columns {
		names = append(names, c.Name)
		if c.Unsupported != "" {
			got[c.Name] = c.Unsupported
			if want := mixedUnsupported[c.Name]; !strings.Contains(c.Unsupported, want) {
				t.Errorf("column %s: reason %q lacks %q", c.Name, c.Unsupported, want)
			}
		}
		if c.Name == "img" && (!c.Tensor || c.Stats == nil || c.Stats.Rows != 3 || c.Stats.Nulls != 1) {
			t.Errorf("img: %+v", c)
		}
		if want, ok := mixedRaw[c.Name]; ok && (!c.Tensor || c.ElemType != want || c.Stats == nil || c.Stats.Rows != 3 || c.Stats.Nulls != 1) {
			t.Errorf("%s: %+v, want a tensor of %s", c.Name, c, want)
		}
	}
	if diff := cmp.Diff([]string{"img", "mask", "dec", "ts", "fsb", "text", "label"}, names); diff != "" {
		t.Errorf("columns (-want +got):\n%s", diff)
	}
	if len(got) != len(mixedUnsupported) {
		t.Errorf("unsupported columns %v, want %v", got, mixedUnsupported)
	}
	for _, c := range rep.Columns {
		if c.Name == "mask" && (c.Stats == nil || c.Stats.True == nil || *c.Stats.True != 10) {
			t.Errorf("mask: true count %+v, want 10", c.Stats)
		}
	}
}

// evalMixed checks that eval transforms img and keeps the others,
// naming them, and refuses to transform the column of strings.
func evalMixed(t *testing.T, dir, name, in string) {
	code, _, stderr := runCmd(t, "eval", "x.T", in, "-o", filepath.Join(dir, "e-"+name+".arrow"))
	if code != 0 || !strings.Contains(stderr, "text: kept as it is") {
		t.Errorf("eval: code %d: %s", code, stderr)
	}
	code, _, stderr = runCmd(t, "eval", "x.T", in, "--column", "text", "-o", filepath.Join(dir, "x.arrow"))
	if code != 2 || !strings.Contains(stderr, `column "text"`) || !strings.Contains(stderr, "element type utf8") {
		t.Errorf("eval --column text: code %d: %s", code, stderr)
	}
}

// reverseMixed checks that raw element types transform like numeric
// ones: the first axis reversed, against NumPy on the storage.
func reverseMixed(t *testing.T, dir, name, in string) {
	rev := filepath.Join(dir, "r-"+name+".arrow")
	if code, _, stderr := runCmd(t, "eval", "x[::-1]", in, "--column", "dec", "--column", "ts", "--column", "fsb", "--column", "mask", "-o", rev); code != 0 {
		t.Fatalf("eval x[::-1]: %s", stderr)
	}
	if out := pyrun.Run(t, revCheck, nil, []string{"pyarrow", "numpy"}, in, rev); strings.TrimSpace(string(out)) != "ok" {
		t.Errorf("pyarrow check: %s", out)
	}
}

// revCheck compares the reversed columns with NumPy on the storage.
const revCheck = `
import sys, numpy as np, pyarrow as pa, pyarrow.parquet as pq
src = pq.read_table(sys.argv[1]) if sys.argv[1].endswith(".parquet") else pa.ipc.open_file(sys.argv[1]).read_all()
got = pa.ipc.open_file(sys.argv[2]).read_all()
# mask: physical (3,5), permutation [1,0]: logical is the transpose.
for name, shape, perm in [("dec", (2,), (0,)), ("ts", (2, 2), (0, 1)), ("fsb", (2,), (0,)), ("mask", (3, 5), (1, 0))]:
    s = src.column(name).combine_chunks().storage.to_pylist()
    g = got.column(name).combine_chunks().storage.to_pylist()
    want = [None if v is None else np.array(v, dtype=object).reshape(shape).transpose(perm)[::-1].reshape(-1).tolist() for v in s]
    assert g == want, (name, g, want)
    if name != "mask":
        assert got.schema.field(name).type == src.schema.field(name).type
print("ok")
`

// transposeMask checks the bool mask transposed: logical (5,3) over
// physical (3,5) with permutation [1,0], so x.T is the physical order.
func transposeMask(t *testing.T, dir, name, in string) {
	tr := filepath.Join(dir, "t-"+name+".arrow")
	if code, _, stderr := runCmd(t, "eval", "x.T", in, "--column", "mask", "-o", tr); code != 0 {
		t.Fatalf("eval x.T: %s", stderr)
	}
	if out := pyrun.Run(t, trCheck, nil, []string{"pyarrow", "numpy"}, tr, filepath.Join(dir, "mixed.json")); strings.TrimSpace(string(out)) != "ok" {
		t.Errorf("transpose check: %s", out)
	}
}

// trCheck compares the transposed mask with the values mixed.py wrote.
const trCheck = `
import sys, json, numpy as np, pyarrow as pa
want = json.load(open(sys.argv[2]))["mask"]
got = pa.ipc.open_file(sys.argv[1]).read_all().column("mask").combine_chunks()
assert got.type.shape == [3, 5] and got.type.permutation in (None, [0, 1]), got.type
rows = got.storage.to_pylist()
for g, w in zip(rows, want):
    assert (g is None) == (w is None), (g, w)
    if w is not None:
        assert g == np.array(w).reshape(5, 3).T.reshape(-1).tolist(), (g, w)
print("ok")
`

// convertMixed checks that convert copies every column: Parquet output
// of rows without nulls (arrow-go writes no null FixedSizeList entries
// through pqarrow), IPC output of every row.
func convertMixed(t *testing.T, dir, name, in string) {
	arrowOut := filepath.Join(dir, "c-"+name+".arrow")
	if code, _, stderr := runCmd(t, "convert", in, arrowOut); code != 0 {
		t.Fatalf("convert: %s", stderr)
	}
	pqOut := filepath.Join(dir, "c-"+name+".parquet")
	if code, _, stderr := runCmd(t, "convert", in, pqOut, "--rows", "2:3"); code != 0 {
		t.Fatalf("convert: %s", stderr)
	}
	pqCol := filepath.Join(dir, "m-"+name+".arrow")
	if code, _, stderr := runCmd(t, "convert", in, pqCol, "--column", "mask", "--column", "label"); code != 0 {
		t.Fatalf("convert --column: %s", stderr)
	}
	if out := pyrun.Run(t, convertCheck, nil, []string{"pyarrow"}, in, arrowOut, pqOut, pqCol); strings.TrimSpace(string(out)) != "ok" {
		t.Errorf("pyarrow check: %s", out)
	}
}

// convertCheck compares the converted files with the source.
const convertCheck = `
import sys, pyarrow as pa, pyarrow.parquet as pq
src = pq.read_table(sys.argv[1]) if sys.argv[1].endswith(".parquet") else pa.ipc.open_file(sys.argv[1]).read_all()
a = pa.ipc.open_file(sys.argv[2]).read_all()
p = pq.read_table(sys.argv[3])
m = pa.ipc.open_file(sys.argv[4]).read_all()
assert a.equals(src), (a.schema, src.schema)
assert p.equals(src.slice(2)), (p.schema, src.schema)
assert m.equals(src.select(["mask", "label"])), m.schema
assert str(m.schema.field("mask").type.value_type) == "bool"
print("ok")
`

// TestInvalidTensorMetadata reads pyarrow-written files with a column
// whose tensor metadata is invalid (which Arrow C++ itself refuses to
// read): the column is named with the reason, the others are read, and
// a conversion keeps the column and its metadata as they were.
func TestInvalidTensorMetadata(t *testing.T) {
	dir := mixedFiles(t)
	for _, name := range []string{"badmeta.arrow", "badmeta.parquet"} {
		t.Run(name, func(t *testing.T) {
			in := filepath.Join(dir, name)
			out := filepath.Join(dir, "c-"+name+".arrow")
			if code, _, stderr := runCmd(t, "convert", in, out); code != 0 {
				t.Fatalf("convert: %s", stderr)
			}
			for _, f := range []string{in, out} {
				code, js, stderr := runCmd(t, "inspect", "--json", f)
				if code != 0 {
					t.Fatalf("inspect %s: code %d: %s", f, code, stderr)
				}
				var rep inspectReport
				if err := json.Unmarshal([]byte(js), &rep); err != nil {
					t.Fatal(err)
				}
				if len(rep.Columns) != 3 || rep.Rows != 3 {
					t.Fatalf("report %+v", rep)
				}
				img, bad := rep.Columns[0], rep.Columns[1]
				if !img.Tensor || img.Stats == nil || img.Stats.Rows != 3 {
					t.Errorf("img: %+v", img)
				}
				if !strings.Contains(bad.Unsupported, `"shape" [3] has 3 elements but the storage list size is 2`) ||
					bad.Type != "fixed_size_list<item: int32, nullable>[2]" {
					t.Errorf("bad: %+v", bad)
				}
			}
		})
	}
}
