package peers_test

import (
	"encoding/binary"
	"flag"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/bench"
	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"gonum.org/v1/gonum/mat"
	"gorgonia.org/tensor"
)

var sizeFlag = flag.String("size", "all", "benchmark batch sizes: small (about 1 MiB), large (about 128 MiB) or all")

func sizes(tb testing.TB) []bench.Size {
	if testing.Short() {
		return []bench.Size{bench.Small}
	}
	s, err := bench.ParseSize(*sizeFlag)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

type float interface{ float32 | float64 }

// contender computes one case; its setup runs once, outside the timed
// loop.
type contender[T float] struct {
	impl string
	// setup returns the timed function and a function returning the
	// result of its last run as little-endian bytes (dense, batch first),
	// or nils when the library cannot express the case.
	setup func(tb testing.TB, c bench.Case, in []T) (run func(), result func() []byte)
}

// leBytes returns s as little-endian bytes (for checks only).
func leBytes[T float](s []T) []byte {
	var out []byte
	for _, v := range s {
		switch v := any(v).(type) {
		case float32:
			out = binary.LittleEndian.AppendUint32(out, math.Float32bits(v))
		case float64:
			out = binary.LittleEndian.AppendUint64(out, math.Float64bits(v))
		}
	}
	return out
}

// input returns the pattern data of case c.
func input[T float](c bench.Case) []T {
	n := c.Batch
	for _, d := range c.Shape {
		n *= d
	}
	data := make([]T, n)
	for i := range data {
		data[i] = T(bench.Pattern(i))
	}
	return data
}

func elemType[T float]() arrow.DataType {
	var zero T
	if any(zero) == any(float64(0)) {
		return arrow.PrimitiveTypes.Float64
	}
	return arrow.PrimitiveTypes.Float32
}

// fstensorPlan compiles case c over a zero-copy column of in.
func fstensorPlan[T float](tb testing.TB, c bench.Case, in []T) (*expr.Plan, *fixedshape.Array) {
	tb.Helper()
	typ, err := fixedshape.NewType(elemType[T](), metadata.MustNew(c.Shape, nil, nil))
	if err != nil {
		tb.Fatal(err)
	}
	arr, err := fixedshape.FromSlice(typ, in, nil)
	if err != nil {
		tb.Fatal(err)
	}
	p, err := expr.CompilePlan(expr.MustParse(c.Expr, expr.Input(typ)))
	if err != nil {
		tb.Fatal(err)
	}
	return p, arr
}

// outLen returns the number of result elements of case c.
func outLen(tb testing.TB, c bench.Case) int {
	e, err := expr.Parse(c.Expr, expr.InputOf(arrow.PrimitiveTypes.Float32, metadata.MustNew(c.Shape, nil, nil)))
	if err != nil {
		tb.Fatal(err)
	}
	return c.Batch * e.Metadata().Size()
}

func fstensorContender[T float](impl string, workers int) contender[T] {
	return contender[T]{impl, func(tb testing.TB, c bench.Case, in []T) (func(), func() []byte) {
		p, arr := fstensorPlan(tb, c, in)
		var zero T
		out := make([]byte, outLen(tb, c)*binary.Size(zero))
		return func() {
			if err := p.EvalInto(out, arr, expr.WithWorkers(workers)); err != nil {
				tb.Fatal(err)
			}
		}, func() []byte { return out }
	}}
}

// gorgoniaContender runs the case as a gorgonia.org/tensor user would: a
// Dense over the batch, tensor.Transpose for transposes (a new tensor),
// Slice views made dense with Materialize, Clone then Reshape. The result
// of the last run is kept for the check.
func gorgoniaContender[T float]() contender[T] {
	return contender[T]{"gorgonia", func(tb testing.TB, c bench.Case, in []T) (func(), func() []byte) {
		f := gorgoniaOp(tb, c, in)
		if f == nil {
			return nil, nil
		}
		var last tensor.Tensor
		return func() { last = f() }, func() []byte { return leBytes(last.Data().([]T)) }
	}}
}

func gorgoniaOp[T float](tb testing.TB, c bench.Case, in []T) func() tensor.Tensor {
	shape := append([]int{c.Batch}, c.Shape...)
	a := tensor.New(tensor.WithShape(shape...), tensor.WithBacking(in))
	must := func(t tensor.Tensor, err error) tensor.Tensor {
		if err != nil {
			tb.Fatal(err)
		}
		return t
	}
	view := func(s ...tensor.Slice) tensor.Tensor {
		return must(a.Slice(s...)).(*tensor.Dense).Materialize()
	}
	switch c.Op {
	case "transpose":
		return func() tensor.Tensor { return must(tensor.Transpose(a, 0, 2, 1)) }
	case "nchw-nhwc":
		return func() tensor.Tensor { return must(tensor.Transpose(a, 0, 2, 3, 1)) }
	case "nhwc-nchw":
		return func() tensor.Tensor { return must(tensor.Transpose(a, 0, 3, 1, 2)) }
	case "slice-rows":
		return func() tensor.Tensor { return view(nil, tensor.S(16, 48)) }
	case "slice-cols":
		return func() tensor.Tensor { return view(nil, nil, tensor.S(16, 48)) }
	case "index":
		return func() tensor.Tensor { return view(nil, tensor.S(5)) }
	case "reshape":
		return func() tensor.Tensor {
			r := a.Clone().(*tensor.Dense)
			if err := r.Reshape(c.Batch, r.DataSize()/c.Batch); err != nil {
				tb.Fatal(err)
			}
			return r
		}
	case "fused":
		return func() tensor.Tensor {
			s := view(nil, tensor.S(16, 48))
			return must(tensor.Transpose(s, 0, 2, 1))
		}
	}
	return nil
}

// gonumContender runs the 2-D cases as gonum.org/v1/gonum/mat does them:
// one Dense view per input and output matrix, made once outside the timed
// loop, and dst.Copy of the transposed (T()) or sliced (Slice) input.
// NCHW<->NHWC is the transpose of a C x HW matrix. float64 only.
func gonumContender() contender[float64] {
	return contender[float64]{"gonum", func(tb testing.TB, c bench.Case, in []float64) (func(), func() []byte) {
		var r, k int // input matrix rows and columns
		switch c.Op {
		case "nchw-nhwc":
			r, k = c.Shape[0], c.Shape[1]*c.Shape[2]
		case "nhwc-nchw":
			r, k = c.Shape[0]*c.Shape[1], c.Shape[2]
		default:
			if len(c.Shape) != 2 {
				return nil, nil
			}
			r, k = c.Shape[0], c.Shape[1]
		}
		var view func(src *mat.Dense) mat.Matrix
		var or, ok int // output matrix rows and columns
		switch c.Op {
		case "transpose", "nchw-nhwc", "nhwc-nchw":
			view, or, ok = func(src *mat.Dense) mat.Matrix { return src.T() }, k, r
		case "slice-rows":
			view, or, ok = func(src *mat.Dense) mat.Matrix { return src.Slice(16, 48, 0, k) }, 32, k
		case "slice-cols":
			view, or, ok = func(src *mat.Dense) mat.Matrix { return src.Slice(0, r, 16, 48) }, r, 32
		case "index":
			view, or, ok = func(src *mat.Dense) mat.Matrix { return src.Slice(5, 6, 0, k) }, 1, k
		case "fused":
			view, or, ok = func(src *mat.Dense) mat.Matrix { return src.Slice(16, 48, 0, k).T() }, k, 32
		default:
			return nil, nil
		}
		dst := make([]float64, c.Batch*or*ok)
		srcs := make([]*mat.Dense, c.Batch)
		dsts := make([]*mat.Dense, c.Batch)
		views := make([]mat.Matrix, c.Batch)
		for i := range c.Batch {
			srcs[i] = mat.NewDense(r, k, in[i*r*k:(i+1)*r*k])
			dsts[i] = mat.NewDense(or, ok, dst[i*or*ok:(i+1)*or*ok])
			views[i] = view(srcs[i])
		}
		return func() {
			for i, d := range dsts {
				d.Copy(views[i])
			}
		}, func() []byte { return leBytes(dst) }
	}}
}
