package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/arrowipc"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/pyrun"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/tensorio"
	"github.com/fstensor/fstensor/varshape"
)

// writeImages writes an IPC file of one uint8 (h, w, 3) variable-shape
// column "img" (nil shape: a null row) whose elements count up from
// 7*row, in batches of the given sizes.
func writeImages(t *testing.T, shapes [][]int, batches ...int) string {
	t.Helper()
	typ := varshape.MustNewType(arrow.PrimitiveTypes.Uint8, 3, varshape.Options{
		DimNames: []string{"h", "w", "c"}, UniformShape: []int{varshape.Varies, varshape.Varies, 3}})
	vals := make([][]uint8, len(shapes))
	for i, s := range shapes {
		if s != nil {
			vals[i] = make([]uint8, s[0]*s[1]*s[2])
			for k := range vals[i] {
				vals[i][k] = uint8(7*i + k)
			}
		}
	}
	arr, err := varshape.FromSlices(memory.DefaultAllocator, typ, shapes, vals)
	if err != nil {
		t.Fatal(err)
	}
	defer arr.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "img", Type: typ, Nullable: true}, {Name: "id", Type: arrow.PrimitiveTypes.Int64}}, nil)
	ib := array.NewInt64Builder(memory.DefaultAllocator)
	defer ib.Release()
	for i := range shapes {
		ib.Append(int64(i))
	}
	ids := ib.NewArray()
	defer ids.Release()
	rec := array.NewRecordBatch(schema, []arrow.Array{arr, ids}, int64(arr.Len()))
	defer rec.Release()
	path := filepath.Join(t.TempDir(), "images.arrow")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := arrowipc.NewIPCFileWriter(f, schema)
	if err != nil {
		t.Fatal(err)
	}
	start := 0
	for _, n := range batches {
		s := rec.NewSlice(int64(start), int64(start+n))
		err := w.Write(s)
		s.Release()
		if err != nil {
			t.Fatal(err)
		}
		start += n
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// readColumn reads column 0 of every batch of path and returns its type
// and each row as the dense bytes of its result (nil for a null row) and
// its logical shape.
func readColumn(t *testing.T, path string) (arrow.DataType, [][]byte, [][]int) {
	t.Helper()
	r, err := tensorio.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var rows [][]byte
	var shapes [][]int
	dt := r.Schema().Field(0).Type
	for r.Next() {
		switch a := r.RecordBatch().Column(0).(type) {
		case *varshape.Array:
			rows, shapes = appendRows(t, rows, shapes, a, func(row *fixedshape.Array) (*fixedshape.Array, error) {
				return applyExpr(row, "x")
			})
		case *fixedshape.Array:
			size := a.TensorType().ListSize()
			for i := range a.Len() {
				if a.IsNull(i) {
					rows, shapes = append(rows, nil), append(shapes, nil)
					continue
				}
				rows = append(rows, append([]byte{}, a.ValueBytes()[i*size:(i+1)*size]...))
				shapes = append(shapes, a.TensorType().Shape())
			}
		default:
			t.Fatalf("column 0 of %s is %T", path, a)
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return dt, rows, shapes
}

// wantRows evaluates text on every row of column 0 of path alone through
// the fixed-shape path.
func wantRows(t *testing.T, path, text string) ([][]byte, [][]int) {
	t.Helper()
	r, err := tensorio.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var rows [][]byte
	var shapes [][]int
	for r.Next() {
		a := r.RecordBatch().Column(0).(*varshape.Array)
		rows, shapes = appendRows(t, rows, shapes, a, func(row *fixedshape.Array) (*fixedshape.Array, error) {
			return applyExpr(row, text)
		})
	}
	return rows, shapes
}

// appendRows appends to rows and shapes each row of a passed through f,
// as the dense bytes and logical shape of f's result (nil and nil for a
// null row), and returns them.
func appendRows(t *testing.T, rows [][]byte, shapes [][]int, a *varshape.Array, f func(row *fixedshape.Array) (*fixedshape.Array, error)) ([][]byte, [][]int) {
	t.Helper()
	for i := range a.Len() {
		if a.IsNull(i) {
			rows, shapes = append(rows, nil), append(shapes, nil)
			continue
		}
		row, err := a.Row(i)
		if err != nil {
			t.Fatal(err)
		}
		out, err := f(row)
		row.Release()
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, append([]byte{}, out.ValueBytes()...))
		shapes = append(shapes, out.TensorType().Shape())
		out.Release()
	}
	return rows, shapes
}

// TestEvalVariableShape runs eval on a variable-shape column through the
// built binary into every Arrow and Parquet output: the output type
// decided up front, --fixed, and the errors naming the row.
func TestEvalVariableShape(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBinary(t)
	big := writeImages(t, [][]int{{3, 4, 3}, {2, 2, 3}, nil, {5, 2, 3}, {2, 3, 3}}, 2, 3)
	mixed := writeImages(t, [][]int{{3, 4, 3}, {2, 2, 3}, nil, {1, 5, 3}}, 2, 2)
	tests := []struct {
		name, in, text string
		flags          []string
		want           string // the result type's String, or a part of the error
		wantErr        bool
	}{
		{"crop stays variable-shape", big, "x[:2, :2]", nil, "uniform_shape=[null,null,3]", false},
		{"crop --fixed", big, "x[:2, :2]", []string{"--fixed"}, "fixed_shape_tensor[value_type=uint8, shape=[2,2,3], dim_names=[h,w,c]]", false},
		{"pixel is fixed", mixed, "x[0, 0]", nil, "fixed_shape_tensor[value_type=uint8, shape=[3], dim_names=[c]]", false},
		{"channels first", mixed, "x.transpose(2, 0, 1)", nil, "dim_names=[c,h,w], uniform_shape=[3,null,null]", false},
		{"--fixed, a row differs", mixed, "x[:2, :2]", []string{"--fixed"}, `column "img": batch 2 (rows 2 to 3): row 1 of 2: the result shape (1,2,3) differs from the fixed shape (2,2,3)`, true},
		{"index out of bounds", mixed, "x[2]", nil, `column "img": batch 1 (rows 0 to 1): expr: row 1 (column "img" of shape (2,2,3)): index 2 is out of bounds for axis 0 with size 2`, true},
		{"index out of a fixed axis", mixed, "x[0, 0, 3]", nil, `column "img"`, true},
	}
	for _, tt := range tests {
		for _, ext := range []string{"arrow", "arrows", "parquet"} {
			t.Run(tt.name+"/"+ext, func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "out."+ext)
				cmd := exec.Command(bin, append([]string{"eval", tt.text, tt.in, "-o", out}, tt.flags...)...)
				stderr, err := cmd.CombinedOutput()
				if tt.wantErr {
					if err == nil || cmd.ProcessState.ExitCode() != 1 || !strings.Contains(string(stderr), tt.want) {
						t.Fatalf("err %v, output:\n%s\nwant exit 1 and %q", err, stderr, tt.want)
					}
					if strings.Contains(string(stderr), "goroutine ") {
						t.Errorf("stack trace:\n%s", stderr)
					}
					if _, err := os.Stat(out); !os.IsNotExist(err) {
						t.Errorf("output left behind: %v", err)
					}
					return
				}
				if err != nil {
					t.Fatalf("%v:\n%s", err, stderr)
				}
				dt, rows, shapes := readColumn(t, out)
				if !strings.Contains(dt.String(), tt.want) {
					t.Errorf("type %v, want %q", dt, tt.want)
				}
				want, wantShapes := wantRows(t, tt.in, tt.text)
				if diff := cmp.Diff(wantShapes, shapes); diff != "" {
					t.Errorf("shapes (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(want, rows); diff != "" {
					t.Errorf("values (-want +got):\n%s", diff)
				}
			})
		}
	}
}

// TestVariableShapePyarrow takes a file pyarrow wrote
// (testdata/varshape/interop.py: float32, permuted, a null row and a row
// of no element) through convert and eval into .arrows and .parquet, and
// reads the results back with pyarrow, values checked through NumPy.
func TestVariableShapePyarrow(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	pyrun.Python(t, "pyarrow", "numpy")
	bin := buildBinary(t)
	dir := t.TempDir()
	script := testvec.Path("varshape/interop.py")
	type rows struct {
		Rows []*struct {
			Shape  []int     `json:"shape"`
			Values []float64 `json:"values"`
		} `json:"rows"`
	}
	var written rows
	if err := json.Unmarshal(runPy(t, script, "write", dir), &written); err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{"py.arrow", "py.parquet"} {
		for _, ext := range []string{"arrows", "parquet"} {
			t.Run(in+"/"+ext, func(t *testing.T) {
				conv := filepath.Join(t.TempDir(), "conv."+ext)
				if out, err := exec.Command(bin, "convert", filepath.Join(dir, in), conv).CombinedOutput(); err != nil {
					t.Fatalf("convert: %v\n%s", err, out)
				}
				if ext == "parquet" { // interop.py reads IPC files and Parquet
					var got rows
					if err := json.Unmarshal(runPy(t, script, "read", conv), &got); err != nil {
						t.Fatal(err)
					}
					if diff := cmp.Diff(written, got); diff != "" {
						t.Errorf("convert (-want +got):\n%s", diff)
					}
				}
				// Logical (c, h, w): keep one row and two columns.
				out := filepath.Join(t.TempDir(), "crop."+ext)
				if msg, err := exec.Command(bin, "eval", "x[:, :1, :2]", filepath.Join(dir, in), "-o", out).CombinedOutput(); err != nil {
					t.Fatalf("eval: %v\n%s", err, msg)
				}
				if ext != "parquet" {
					return
				}
				var got rows
				if err := json.Unmarshal(runPy(t, script, "read", out), &got); err != nil {
					t.Fatal(err)
				}
				want := written
				want.Rows = nil
				for _, r := range written.Rows {
					if r == nil {
						want.Rows = append(want.Rows, nil)
						continue
					}
					c, h, w := r.Shape[0], r.Shape[1], r.Shape[2]
					nh, nw := min(h, 1), min(w, 2)
					vals := []float64{}
					for ci := range c {
						for hi := range nh {
							for wi := range nw {
								vals = append(vals, r.Values[(ci*h+hi)*w+wi])
							}
						}
					}
					want.Rows = append(want.Rows, &struct {
						Shape  []int     `json:"shape"`
						Values []float64 `json:"values"`
					}{[]int{c, nh, nw}, vals})
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("eval (-want +got):\n%s", diff)
				}
			})
		}
	}
}

// runPy runs a script file under the test interpreter and returns its
// standard output.
func runPy(t *testing.T, script string, args ...string) []byte {
	t.Helper()
	py := pyrun.Python(t, "pyarrow", "numpy")
	cmd := exec.Command(py, append([]string{script}, args...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", script, args, err, stderr.String())
	}
	return out
}
