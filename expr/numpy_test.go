package expr_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/pyrun"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// numpyScript evaluates each request's expression text with NumPy on the
// same tensors the Go side builds: physical element k of tensor i of the
// column is (i*size + k) % mod, and the logical tensor is the physical one
// transposed by axes (axes[i] is the physical axis of logical axis i). It
// prints, per request, the result shape and values of each tensor, or the
// text of the exception NumPy raised.
const numpyScript = `
import json, sys
import numpy as np
out = []
for r in json.load(sys.stdin):
    phys = tuple(r["phys"])
    size = int(np.prod(phys, dtype=np.int64))
    total = r["skip"] + r["batch"]
    a = (np.arange(total * size, dtype=np.int64) % r["mod"]).astype(r["dtype"]).reshape((total,) + phys)
    res = {"shape": None, "values": [], "error": None}
    try:
        for i in range(r["skip"], total):
            x = a[i].transpose(r["axes"])
            y = eval(r["text"], {"__builtins__": {}}, {"x": x, "np": np})
            res["shape"] = list(y.shape)
            res["values"].append([int(v) for v in np.ascontiguousarray(y).ravel()])
    except Exception as e:
        res = {"shape": None, "values": [], "error": str(e)}
    out.append(res)
json.dump(out, sys.stdout)
`

type numpyRequest struct {
	DType string `json:"dtype"`
	Phys  []int  `json:"phys"`
	Axes  []int  `json:"axes"`
	Skip  int    `json:"skip"`
	Batch int    `json:"batch"`
	Mod   int    `json:"mod"`
	Text  string `json:"text"`
}

type numpyResult struct {
	Shape  []int     `json:"shape"`
	Values [][]int64 `json:"values"`
	Error  *string   `json:"error"`
}

// numpyCase is one expression over a column of batch tensors of the given
// logical shape and permutation (nil: row-major), whose first skip tensors
// are sliced off.
type numpyCase struct {
	name  string
	dtype arrow.DataType
	shape []int
	perm  []int
	skip  int
	batch int
	text  string
}

var numpyCases = []numpyCase{
	{"slice", arrow.PrimitiveTypes.Float32, []int{4, 5, 6}, nil, 0, 3, "x[:, 1:3, 2:]"},
	{"slice negative step", arrow.PrimitiveTypes.Int16, []int{4, 5, 6}, nil, 0, 2, "x[::-1, :, ::-2]"},
	{"slice negative bounds", arrow.PrimitiveTypes.Int32, []int{7, 6}, nil, 0, 2, "x[-2:-6:-1, -1::-3]"},
	{"slice clipped", arrow.PrimitiveTypes.Int8, []int{5, 4}, nil, 0, 2, "x[-100:100:2, 3:1]"},
	{"slice empty", arrow.PrimitiveTypes.Int64, []int{5, 4}, nil, 0, 2, "x[3:1]"},
	{"slice reversed whole", arrow.PrimitiveTypes.Uint16, []int{3, 4, 5}, nil, 0, 2, "x[::-1, ::-1, ::-1]"},
	{"index", arrow.PrimitiveTypes.Float64, []int{4, 5, 6}, nil, 0, 2, "x[:, 2]"},
	{"index negative", arrow.PrimitiveTypes.Int32, []int{4, 5, 6}, nil, 0, 2, "x[-1, :, -2]"},
	{"index ellipsis", arrow.PrimitiveTypes.Uint8, []int{3, 4, 5}, nil, 0, 2, "x[..., 0]"},
	{"index all to 0-D", arrow.PrimitiveTypes.Float32, []int{3, 4}, nil, 0, 2, "x[1, 2]"},
	{"new axes", arrow.PrimitiveTypes.Int16, []int{3, 4}, nil, 0, 2, "x[None, :, None, ::2]"},
	{"empty index", arrow.PrimitiveTypes.Int16, []int{3, 4}, nil, 0, 1, "x[()]"},
	{"transpose 2-D", arrow.PrimitiveTypes.Float32, []int{5, 7}, nil, 0, 3, "x.T"},
	{"transpose 3-cycle", arrow.PrimitiveTypes.Float64, []int{2, 3, 4}, nil, 0, 2, "x.transpose(2, 0, 1)"},
	{"transpose other 3-cycle", arrow.PrimitiveTypes.Int8, []int{2, 3, 4}, nil, 0, 2, "x.transpose(1, 2, 0)"},
	{"transpose negative axes", arrow.PrimitiveTypes.Int32, []int{2, 3, 4, 5}, nil, 0, 2, "x.transpose(-1, 0, -2, 1)"},
	{"transpose of permuted input", arrow.PrimitiveTypes.Float32, []int{3, 4, 5}, []int{2, 0, 1}, 0, 2, "x.transpose(1, 2, 0)"},
	{"slice of permuted input", arrow.PrimitiveTypes.Uint32, []int{3, 4, 5}, []int{1, 2, 0}, 0, 2, "x[1:, ::-2, 1]"},
	{"reshape view", arrow.PrimitiveTypes.Float32, []int{4, 6}, nil, 0, 2, "x.reshape(2, 2, -1)"},
	{"reshape view of slice", arrow.PrimitiveTypes.Int32, []int{4, 6}, nil, 0, 2, "x[1:3].reshape(-1)"},
	{"reshape view of strided", arrow.PrimitiveTypes.Int32, []int{4, 6}, nil, 0, 2, "x[:, ::2].reshape(4, 3, 1)"},
	{"reshape copy of transpose", arrow.PrimitiveTypes.Float64, []int{4, 6}, nil, 0, 2, "x.T.reshape(3, 8)"},
	{"reshape copy of slice", arrow.PrimitiveTypes.Int16, []int{4, 6}, nil, 0, 2, "x[:, 1:5].reshape(8, 2)"},
	{"reshape copy of reversed", arrow.PrimitiveTypes.Uint8, []int{4, 6}, nil, 0, 2, "x[::-1, ::-1].reshape(2, 12)[::-1]"},
	{"reshape of permuted input", arrow.PrimitiveTypes.Int32, []int{3, 4}, []int{1, 0}, 0, 2, "x.reshape(2, 6)"},
	{"reshape to 0-D", arrow.PrimitiveTypes.Float32, []int{1, 1}, nil, 0, 2, "x.reshape(())"},
	{"0-D input", arrow.PrimitiveTypes.Int64, []int{}, nil, 0, 3, "x[None, None].T"},
	{"chain", arrow.PrimitiveTypes.Float32, []int{6, 8}, nil, 0, 2, "x[1:5].T.reshape(-1)"},
	{"chain long", arrow.PrimitiveTypes.Int32, []int{4, 6, 5}, nil, 0, 2, "x[::-1, 1:].transpose(2, 0, 1)[1:4, None, ..., ::2].reshape(3, -1).T[::-2]"},
	{"chain with copy in the middle", arrow.PrimitiveTypes.Float64, []int{4, 6}, nil, 0, 2, "x.T.reshape(4, 6)[1:3, ::-1].T.reshape(2, -1)[:, 2]"},
	{"chain on 3-cycle input", arrow.PrimitiveTypes.Int16, []int{2, 3, 4}, []int{2, 0, 1}, 0, 2, "x[:, ::-1].transpose(2, 0, 1).reshape(4, 6)[1::2]"},
	{"nchw to nhwc", arrow.PrimitiveTypes.Float32, []int{3, 6, 5}, nil, 0, 2, "x.transpose(1, 2, 0)"},
	{"nhwc to nchw", arrow.PrimitiveTypes.Uint8, []int{6, 5, 4}, nil, 0, 2, "x.transpose(2, 0, 1)"},
	{"sliced column", arrow.PrimitiveTypes.Float32, []int{5, 4}, nil, 2, 3, "x[1:, ::-1].T"},
	{"error index", arrow.PrimitiveTypes.Float32, []int{2, 3}, nil, 0, 1, "x[2]"},
	{"error negative index", arrow.PrimitiveTypes.Float32, []int{2, 3}, nil, 0, 1, "x[:, -4]"},
	{"error too many indices", arrow.PrimitiveTypes.Float32, []int{2, 3}, nil, 0, 1, "x[0, 0, 0]"},
	{"error step", arrow.PrimitiveTypes.Float32, []int{2, 3}, nil, 0, 1, "x[::0]"},
	{"error reshape", arrow.PrimitiveTypes.Float32, []int{2, 3}, nil, 0, 1, "x.reshape(4)"},
	{"error reshape inferred", arrow.PrimitiveTypes.Float32, []int{2, 3}, nil, 0, 1, "x.reshape(4, -1)"},
	{"error transpose", arrow.PrimitiveTypes.Float32, []int{2, 3}, nil, 0, 1, "x.transpose(0)"},
}

// askNumPy runs script with Python and NumPy, reqs as JSON on its
// standard input, and decodes the one result a request it prints.
func askNumPy[R, Q any](t *testing.T, script string, reqs []Q) []R {
	t.Helper()
	stdin, err := json.Marshal(reqs)
	if err != nil {
		t.Fatal(err)
	}
	var results []R
	if err := json.Unmarshal(pyrun.Run(t, script, stdin, []string{"numpy"}), &results); err != nil {
		t.Fatal(err)
	}
	if len(results) != len(reqs) {
		t.Fatalf("numpy answered %d cases of %d", len(results), len(reqs))
	}
	return results
}

// TestNumPy checks shapes, values and error texts of every case against
// NumPy evaluating the same text on the same tensors.
func TestNumPy(t *testing.T) {
	reqs := make([]numpyRequest, len(numpyCases))
	for i, c := range numpyCases {
		m := metadata.MustNew(c.shape, nil, c.perm)
		axes := make([]int, m.NDim())
		for k := range axes {
			axes[k] = m.Axis(k)
		}
		mod := 1 << 24
		switch c.dtype.ID() {
		case arrow.INT8:
			mod = 127
		case arrow.UINT8:
			mod = 251
		case arrow.INT16:
			mod = 32749
		}
		reqs[i] = numpyRequest{DType: numpyDType(c.dtype), Phys: m.PhysicalShape(), Axes: axes,
			Skip: c.skip, Batch: c.batch, Mod: mod, Text: c.text}
	}
	results := askNumPy[numpyResult](t, numpyScript, reqs)
	for i, c := range numpyCases {
		t.Run(c.name, func(t *testing.T) {
			want := results[i]
			var shape []int
			var values [][]int64
			var err error
			switch c.dtype.ID() {
			case arrow.INT8:
				shape, values, err = evalNumpyCase[int8](t, c, reqs[i].Mod)
			case arrow.UINT8:
				shape, values, err = evalNumpyCase[uint8](t, c, reqs[i].Mod)
			case arrow.INT16:
				shape, values, err = evalNumpyCase[int16](t, c, reqs[i].Mod)
			case arrow.UINT16:
				shape, values, err = evalNumpyCase[uint16](t, c, reqs[i].Mod)
			case arrow.INT32:
				shape, values, err = evalNumpyCase[int32](t, c, reqs[i].Mod)
			case arrow.UINT32:
				shape, values, err = evalNumpyCase[uint32](t, c, reqs[i].Mod)
			case arrow.INT64:
				shape, values, err = evalNumpyCase[int64](t, c, reqs[i].Mod)
			case arrow.FLOAT32:
				shape, values, err = evalNumpyCase[float32](t, c, reqs[i].Mod)
			case arrow.FLOAT64:
				shape, values, err = evalNumpyCase[float64](t, c, reqs[i].Mod)
			default:
				t.Fatalf("no case for %v", c.dtype)
			}
			if want.Error != nil {
				var e *expr.Error
				if !errors.As(err, &e) || !errors.Is(err, arrow.ErrInvalid) {
					t.Fatalf("%s: numpy fails with %q, Go with %v", c.text, *want.Error, err)
				}
				if diff := cmp.Diff(*want.Error, e.Msg); diff != "" {
					t.Errorf("%s: error text (-numpy +go):\n%s", c.text, diff)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s: %v", c.text, err)
			}
			if diff := cmp.Diff(want.Shape, shape); diff != "" {
				t.Errorf("%s: shape (-numpy +go):\n%s", c.text, diff)
			}
			if diff := cmp.Diff(want.Values, values, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("%s: values (-numpy +go):\n%s", c.text, diff)
			}
		})
	}
}

// evalNumpyCase evaluates c in Go over the column numpyScript describes,
// with Eval on one and two workers and with Apply per tensor, and returns
// the result shape and each tensor's values. It fails the test when the
// ways disagree.
func evalNumpyCase[T int8 | uint8 | int16 | uint16 | int32 | uint32 | int64 | float32 | float64](t *testing.T, c numpyCase, mod int) ([]int, [][]int64, error) {
	t.Helper()
	m := metadata.MustNew(c.shape, nil, c.perm)
	typ, err := fixedshape.NewType(c.dtype, m)
	if err != nil {
		t.Fatal(err)
	}
	size := m.Size()
	data := make([]T, (c.skip+c.batch)*size)
	for k := range data {
		data[k] = T(k % mod)
	}
	e, err := expr.Parse(c.text, expr.Input(typ))
	if err != nil {
		return nil, nil, err
	}
	p, err := expr.CompilePlan(e)
	if err != nil {
		t.Fatalf("Compile after Parse: %v", err)
	}
	mem := testvec.CheckedMem(t)
	full, err := fixedshape.FromSlice(typ, data, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer full.Release()
	in := array.NewSlice(full, int64(c.skip), int64(c.skip+c.batch)).(*fixedshape.Array)
	defer in.Release()
	shape := p.Metadata().Shape()
	var got [][]int64
	for _, workers := range []int{1, 2} {
		out, err := p.Eval(in, expr.WithAllocator(mem), expr.WithWorkers(workers))
		if p.Metadata().Size() == 0 {
			// A column of size-0 tensors cannot be represented; Apply
			// below still evaluates each tensor.
			if !errors.Is(err, arrow.ErrNotImplemented) {
				t.Fatalf("Eval of a size-0 result = %v, want ErrNotImplemented", err)
			}
			got = make([][]int64, c.batch)
			break
		}
		if err != nil {
			t.Fatalf("Eval: %v", err)
		}
		col, err := fixedshape.ColumnOf[T](out.(*fixedshape.Array))
		if err != nil {
			out.Release()
			t.Fatal(err)
		}
		vals := col.Values()
		rows := make([][]int64, c.batch)
		osize := p.Metadata().Size()
		for i := range rows {
			rows[i] = make([]int64, osize)
			for k := range osize {
				rows[i][k] = int64(vals[i*osize+k])
			}
		}
		out.Release()
		if got == nil {
			got = rows
		} else if diff := cmp.Diff(got, rows); diff != "" {
			t.Fatalf("Eval with %d workers differs (-1 worker +%d):\n%s", workers, workers, diff)
		}
	}
	col, err := fixedshape.ColumnOf[T](in)
	if err != nil {
		t.Fatal(err)
	}
	var buf []T
	for i := range c.batch {
		r, err := expr.Apply(p, buf, col.Tensor(i))
		if err != nil {
			t.Fatalf("Apply: %v", err)
		}
		var vals []int64
		for v := range r.All() {
			vals = append(vals, int64(v))
		}
		if diff := cmp.Diff(got[i], vals, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("Apply on tensor %d differs from Eval (-Eval +Apply):\n%s", i, diff)
		}
		buf = r.PhysicalData()
	}
	return shape, got, nil
}
