package flightserve_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/flightserve"
	"github.com/fstensor/fstensor/internal/pyrun"
	"github.com/fstensor/fstensor/tensorio"
	"github.com/fstensor/fstensor/varshape"
)

// TestGetComputing checks that tickets take the computing expressions
// fstensor eval takes (norms, means, reductions with axes, similarities,
// and expressions naming a column), that GetSchema and GetFlightInfo give
// the schema of the data DoGet sends, and that the values are those of
// the expression evaluated locally.
func TestGetComputing(t *testing.T) {
	dir := testDir(t)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	addr := serve(t, flightserve.Config{Dir: dir, Allocator: mem, BatchBytes: 3 * 96})
	c, cmem := dialChecked(t, addr)
	fc := rawClient(t, addr)
	ctx := testCtx(t)
	cases := []struct {
		name    string
		ticket  flightserve.Ticket
		column  string // the result column
		input   string // the column it is computed from
		text    string // the expression in x of that column
		nfields int
	}{
		{"norm", flightserve.Ticket{Expr: "norm(x)", Columns: []string{"x"}}, "x", "x", "norm(x)", 1},
		{"mean of every tensor column", flightserve.Ticket{Expr: "x.mean()"}, "p", "p", "x.mean()", 4},
		{"sum over an axis", flightserve.Ticket{Expr: "x.sum(axis=0)", Offset: 5, Limit: 12}, "q", "q", "x.sum(axis=0)", 4},
		{"row norms", flightserve.Ticket{Expr: "norm(x, axis=-1)", Columns: []string{"x"}}, "x", "x", "norm(x, axis=-1)", 1},
		{"dot with a constant", flightserve.Ticket{Expr: "dot(x, [1.0, 0, 0, 0, 0, -1.0])", Columns: []string{"x", "id"}}, "x", "x", "dot(x, [1.0, 0, 0, 0, 0, -1.0])", 2},
		{"normalized", flightserve.Ticket{Expr: "x.astype(float32) / 255 - 0.5", Columns: []string{"p"}}, "p", "p", "x.astype(float32) / 255 - 0.5", 1},
		{"named column", flightserve.Ticket{Expr: "q.max(axis=1)"}, "result", "q", "x.max(axis=1)", 5},
		{"col of a name", flightserve.Ticket{Expr: `col("x").std()`, Columns: []string{"id", "x"}}, "result", "x", "x.std()", 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tk := tc.ticket
			tk.Path = "data.arrow"
			info, err := c.Info(ctx, tk)
			if err != nil {
				t.Fatal(err)
			}
			sr, err := fc.GetSchema(ctx, &flight.FlightDescriptor{Type: flight.DescriptorCMD, Cmd: tk.Marshal()})
			if err != nil {
				t.Fatal(err)
			}
			schema, err := flight.DeserializeSchema(sr.GetSchema(), memory.DefaultAllocator)
			if err != nil {
				t.Fatal(err)
			}
			if !schema.Equal(info.Schema) || schema.NumFields() != tc.nfields {
				t.Fatalf("GetSchema %v, GetFlightInfo %v", schema, info.Schema)
			}
			r, err := c.Get(ctx, tk)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Release()
			if !r.Schema().Equal(schema) {
				t.Fatalf("DoGet schema %v, GetSchema %v", r.Schema(), schema)
			}
			k := schema.FieldIndices(tc.column)[0]
			var parts []arrow.Array
			for r.Next() {
				col := r.RecordBatch().Column(k)
				if !arrow.TypeEqual(col.DataType(), schema.Field(k).Type) {
					t.Fatalf("a batch's column is %v, the schema's %v", col.DataType(), schema.Field(k).Type)
				}
				col.Retain()
				parts = append(parts, col)
			}
			if err := r.Err(); err != nil {
				t.Fatal(err)
			}
			got, err := array.Concatenate(parts, cmem)
			for _, p := range parts {
				p.Release()
			}
			if err != nil {
				t.Fatal(err)
			}
			defer got.Release()
			want := localResult(t, dir, tk, tc.input, tc.text)
			defer want.Release()
			if !array.Equal(want, got) {
				t.Errorf("got %v\nwant %v", got, want)
			}
		})
	}
}

// localResult evaluates the expression text in x on the column input
// of the rows tk selects, read locally.
func localResult(t *testing.T, dir string, tk flightserve.Ticket, input, text string) arrow.Array {
	t.Helper()
	local := tk
	local.Expr = ""
	col := localTensors(t, dir, local, input)
	defer col.Release()
	e, err := expr.Parse(text, expr.Input(col.TensorType()))
	if err != nil {
		t.Fatal(err)
	}
	out, err := expr.MustCompilePlan(e).Eval(col)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestGetComputingErrors checks that an expression the server cannot
// evaluate is refused before any data, with InvalidArgument (or
// Unimplemented for what the engine does not do) and a message that
// speaks of the expression (no Go API names).
func TestGetComputingErrors(t *testing.T) {
	dir := testDir(t)
	addr := serve(t, flightserve.Config{Dir: dir})
	c := dial(t, addr)
	ctx := testCtx(t)
	for _, tc := range []struct {
		name, expr string
		code       codes.Code
	}{
		{"unknown column", "norm(y)", codes.InvalidArgument},
		{"two columns that do not broadcast", "x + q", codes.InvalidArgument},
		{"bad axis", "x.sum(axis=5)", codes.InvalidArgument},
		{"x without a tensor column", "x * 2", codes.InvalidArgument},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tk := flightserve.Ticket{Path: "data.arrow", Expr: tc.expr}
			if tc.name == "x without a tensor column" {
				tk.Columns = []string{"id"}
			}
			_, err := c.Info(ctx, tk)
			if status.Code(err) != tc.code {
				t.Fatalf("Info: %v, want %v", err, tc.code)
			}
			if msg := status.Convert(err).Message(); strings.Contains(msg, "ResultType") || !strings.HasPrefix(msg, "flightserve: ") {
				t.Errorf("message %q", msg)
			}
		})
	}
}

// TestGetVarShape checks that a variable-shape column is evaluated in a
// ticket, with the schema decided before the data.
func TestGetVarShape(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "v.arrow")
	vt, vals := varTestColumn(t)
	defer vals.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "img", Type: vt, Nullable: true}}, nil)
	w, err := tensorio.Create(path, schema)
	if err != nil {
		t.Fatal(err)
	}
	rec := array.NewRecordBatch(schema, []arrow.Array{vals}, int64(vals.Len()))
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	rec.Release()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	addr := serve(t, flightserve.Config{Dir: dir, Allocator: mem})
	c := dial(t, addr)
	ctx := testCtx(t)
	for _, tc := range []struct {
		name, expr, want string
	}{
		{"channel sums", "x.sum(axis=(0, 1))", "[[6,9] (null) [2,8]]"},
		{"max", "x.max()", "[5 (null) 7]"},
		{"comparison", "x > 3", "[(3,1,2):[[[false,false]],[[false,false]],[[true,true]]] (null) (1,2,2):[[[false,false],[false,true]]]]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tk := flightserve.Ticket{Path: "v.arrow", Expr: tc.expr}
			info, err := c.Info(ctx, tk)
			if err != nil {
				t.Fatal(err)
			}
			r, err := c.Get(ctx, tk)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Release()
			if !r.Schema().Equal(info.Schema) {
				t.Errorf("DoGet schema %v, GetFlightInfo %v", r.Schema(), info.Schema)
			}
			var got []string
			for r.Next() {
				got = append(got, r.RecordBatch().Column(0).String())
			}
			if err := r.Err(); err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, "") != tc.want {
				t.Errorf("got %v, want %s", got, tc.want)
			}
		})
	}
	var se interface{ GRPCStatus() *status.Status }
	_, err = c.Info(ctx, flightserve.Ticket{Path: "v.arrow", Expr: "x[..., 7]"})
	if !errors.As(err, &se) || se.GRPCStatus().Code() != codes.InvalidArgument {
		t.Errorf("an index out of bounds of a fixed axis: %v", err)
	}
}

// varTestColumn returns an int32 variable-shape column of images (?, ?, 2)
// of shapes (3, 1, 2), null and (1, 2, 2).
func varTestColumn(t *testing.T) (*varshape.Type, *varshape.Array) {
	t.Helper()
	vt, err := varshape.NewType(arrow.PrimitiveTypes.Int32, 3, varshape.Options{UniformShape: []int{varshape.Varies, varshape.Varies, 2}})
	if err != nil {
		t.Fatal(err)
	}
	a, err := varshape.FromSlices(memory.DefaultAllocator, vt, [][]int{{3, 1, 2}, nil, {1, 2, 2}}, [][]int32{{0, 1, 2, 3, 4, 5}, nil, {0, 1, 2, 7}})
	if err != nil {
		t.Fatal(err)
	}
	return vt, a
}

// pyComputingScript fetches computing expressions of the test data with
// pyarrow.flight and checks them against NumPy; it prints "ok".
const pyComputingScript = `
import json, sys
import numpy as np
import pyarrow as pa
import pyarrow.flight as fl
c = fl.connect(sys.argv[1])
xs = np.array([[i * 100 + j for j in range(24)] for i in range(23)], np.float32).reshape(23, 4, 6)
def get(e, cols=["x"]):
    tk = json.dumps({"path": "data.arrow", "columns": cols, "expr": e}).encode()
    schema = c.get_schema(fl.FlightDescriptor.for_command(tk)).schema
    t = c.do_get(fl.Ticket(tk)).read_all()
    assert t.schema == schema, (t.schema, schema)
    return t.column("x").combine_chunks()
got = get("norm(x)").to_numpy()
assert np.allclose(got, [np.linalg.norm(v) for v in xs], rtol=1e-6), got
got = get("x.mean()").to_numpy()
assert np.allclose(got, xs.mean(axis=(1, 2)), rtol=1e-6), got
got = get("x.sum(axis=0)").to_numpy_ndarray()
assert np.array_equal(got, xs.sum(axis=1)), got
got = get("x.sum() + q.sum()", ["x", "q"]).to_numpy()
assert np.allclose(got, xs.sum(axis=(1, 2)) + [60 * i + 15 for i in range(23)], rtol=1e-6), got
try:
    get("x + q", ["x", "q"])
    raise SystemExit("shapes that do not broadcast accepted")
except pa.ArrowException as e:
    assert "operands could not be broadcast together" in str(e) and "ResultType" not in str(e), str(e)
print("ok")
`

// TestPyArrowComputing checks reductions in tickets from pyarrow.flight:
// the schema of GetSchema, the values against NumPy (of x and of an
// expression of two columns), and the message of a refused expression.
func TestPyArrowComputing(t *testing.T) {
	pyrun.Python(t, "pyarrow.flight", "numpy")
	dir := testDir(t)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	addr := serve(t, flightserve.Config{Dir: dir, Allocator: mem})
	out := pyrun.Run(t, pyComputingScript, nil, []string{"pyarrow.flight", "numpy"}, "grpc://"+addr)
	if strings.TrimSpace(string(out)) != "ok" {
		t.Fatalf("script printed %q", out)
	}
}

// TestGetTwoColumns checks that a ticket's expression may read two
// tensor columns (evaluated by the engine): the sum of x's elements
// (i*100+j, j < 24) plus those of q (i*10+j, j < 6) is 2460*i + 291 in
// row i, as float64 (float32 with int64).
func TestGetTwoColumns(t *testing.T) {
	dir := testDir(t)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	addr := serve(t, flightserve.Config{Dir: dir, Allocator: mem, BatchBytes: 3 * 96})
	c, _ := dialChecked(t, addr)
	ctx := testCtx(t)
	r, err := c.Get(ctx, flightserve.Ticket{Path: "data.arrow", Expr: `col("x").sum() + q.sum()`})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Release()
	var got []float64
	for r.Next() {
		rec := r.RecordBatch()
		col, ok := rec.Column(int(rec.NumCols()) - 1).(*array.Float64)
		if !ok {
			t.Fatalf("result column %v, want float64", rec.Column(int(rec.NumCols())-1).DataType())
		}
		got = append(got, col.Float64Values()...)
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	var want []float64
	for i := range 23 {
		want = append(want, float64(2460*i+291))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
