package engine_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fstensor/fstensor/expr/internal/engine"
	"github.com/fstensor/fstensor/search"
)

var allTypes = []engine.DType{engine.Bool, engine.Int8, engine.Int16, engine.Int32, engine.Int64,
	engine.Uint8, engine.Uint16, engine.Uint32, engine.Uint64, engine.Float16, engine.Float32, engine.Float64}

var unaryFns = []engine.Fn{engine.Neg, engine.Abs, engine.Sqrt, engine.Square, engine.Exp, engine.Log,
	engine.Log1p, engine.Expm1, engine.Tanh, engine.Floor, engine.Ceil, engine.Round, engine.Sign,
	engine.IsNaN, engine.IsFinite, engine.Not}

var binaryFns = []engine.Fn{engine.Add, engine.Sub, engine.Mul, engine.Div, engine.FloorDiv, engine.Mod,
	engine.Pow, engine.Minimum, engine.Maximum, engine.Less, engine.LessEqual, engine.Greater,
	engine.GreaterEqual, engine.Equal, engine.NotEqual, engine.And, engine.Or, engine.Xor}

var reduceFns = []engine.Fn{engine.Sum, engine.Mean, engine.Min, engine.Max, engine.ArgMax, engine.ArgMin,
	engine.Norm, engine.Var, engine.Std, engine.Any, engine.All}

// unaryOK and binaryOK say which functions apply to which types, as the
// front end lowers them.
func unaryOK(fn engine.Fn, d engine.DType) bool {
	switch fn {
	case engine.Not:
		return !isF(d)
	case engine.Sqrt, engine.Exp, engine.Log, engine.Log1p, engine.Expm1, engine.Tanh:
		return isF(d)
	}
	return d != engine.Bool
}

func binaryOK(fn engine.Fn, d engine.DType) bool {
	switch fn {
	case engine.And, engine.Or, engine.Xor:
		return !isF(d)
	case engine.Div:
		return isF(d)
	case engine.Add, engine.Sub, engine.Mul, engine.FloorDiv, engine.Mod, engine.Pow:
		return d != engine.Bool
	}
	return true
}

// reduceType returns NumPy's result type of fn over d.
func reduceType(fn engine.Fn, d engine.DType) engine.DType {
	switch fn {
	case engine.Min, engine.Max:
		return d
	case engine.ArgMax, engine.ArgMin:
		return engine.Int64
	case engine.Any, engine.All:
		return engine.Bool
	case engine.Sum:
		switch {
		case isF(d):
			return d
		case isU(d) && d != engine.Bool:
			return engine.Uint64
		}
		return engine.Int64
	}
	if isF(d) {
		return d
	}
	return engine.Float64
}

func TestUnary(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, d := range allTypes {
		for _, fn := range unaryFns {
			if !unaryOK(fn, d) {
				continue
			}
			t.Run(fmt.Sprintf("fn=%d/dtype=%v", fn, d), func(t *testing.T) {
				shape := []int{3, 5}
				x := in(0, d, shape...)
				cols := []column{randColumn(rng, d, shape, 23, 0.1)}
				check(t, []engine.Input{{DType: d, Shape: shape}}, cols, []*engine.Node{un(fn, x)}, engine.Options{BlockBytes: 200}, 23, 0)
			})
		}
	}
}

func TestBinary(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	shapes := [][2][]int{
		{{3, 4}, {3, 4}},
		{{3, 4}, {4}},
		{{2, 1, 3}, {4, 1}},
		{{}, {3}},
		{{3, 1}, {}},
		{{0, 3}, {3}},
		{{5, 7, 3}, {3}},
	}
	for _, d := range allTypes {
		for _, fn := range binaryFns {
			if !binaryOK(fn, d) {
				continue
			}
			for _, sh := range shapes {
				t.Run(fmt.Sprintf("fn=%d/dtype=%v/shapes=%v", fn, d, sh), func(t *testing.T) {
					inputs := []engine.Input{{DType: d, Shape: sh[0]}, {DType: d, Shape: sh[1]}}
					cols := []column{randColumn(rng, d, sh[0], 19, 0.1), randColumn(rng, d, sh[1], 19, 0.1)}
					tol := 0.0
					if (fn == engine.FloorDiv || fn == engine.Mod) && isF(d) {
						// Integral values: the quotients are exact or far
						// from integers, where the reference's floor(x / y)
						// is NumPy's divmod.
						roundColumn(&cols[0], d)
						roundColumn(&cols[1], d)
					}
					roots := []*engine.Node{bin(fn, in(0, d, sh[0]...), in(1, d, sh[1]...))}
					check(t, inputs, cols, roots, engine.Options{BlockBytes: 300}, 19, tol)
					// The second operand a constant.
					c := konst(d, sh[1], make([]float64, numel(sh[1]))...)
					copy(c.Data, cols[1].col.Values)
					if d != engine.Bool {
						roots = []*engine.Node{bin(fn, in(0, d, sh[0]...), c)}
						check(t, inputs[:1], cols[:1], roots, engine.Options{BlockBytes: 300}, 19, tol)
					}
				})
			}
		}
	}
}

func TestReduce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	axes := [][]int{{0}, {1}, {2}, {0, 1}, {1, 2}, {0, 2}, {0, 1, 2}}
	for _, d := range allTypes {
		for _, fn := range reduceFns {
			for _, ax := range axes {
				for _, keep := range []bool{false, true} {
					if (fn == engine.ArgMax || fn == engine.ArgMin) && len(ax) == 2 {
						continue
					}
					t.Run(fmt.Sprintf("fn=%d/dtype=%v/axes=%v/keep=%v", fn, d, ax, keep), func(t *testing.T) {
						shape := []int{3, 4, 5}
						cols := []column{randColumn(rng, d, shape, 11, 0.1)}
						roots := []*engine.Node{red(fn, in(0, d, shape...), reduceType(fn, d), keep, ax...)}
						check(t, []engine.Input{{DType: d, Shape: shape}}, cols, roots, engine.Options{BlockBytes: 500}, 11, 64)
					})
				}
			}
		}
	}
}

// TestBound runs maximum and minimum of a float32 tensor holding NaNs
// and one number, as clip lowers, the number NaN too (every result NaN,
// as NumPy's), on the fast path of bounds and off it.
func TestBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 10))
	for _, fn := range []engine.Fn{engine.Maximum, engine.Minimum} {
		for _, v := range []float64{0.25, math.NaN(), math.Inf(-1)} {
			t.Run(fmt.Sprintf("fn=%d/bound=%v", fn, v), func(t *testing.T) {
				shape := []int{5, 70}
				cols := []column{randColumn(rng, engine.Float32, shape, 11, 0.1)}
				roots := []*engine.Node{bin(fn, in(0, engine.Float32, shape...), konst(engine.Float32, []int{}, v))}
				check(t, []engine.Input{{DType: engine.Float32, Shape: shape}}, cols, roots, engine.Options{}, 11, 0)
			})
		}
	}
}

// TestReduceCast reduces 8- and 16-bit integers cast to float32, which
// the engine reduces without the cast, every function over leading,
// trailing and all axes, against the reference (which casts); the cast
// also feeds a second root, so that it is computed for that one.
func TestReduceCast(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for _, d := range []engine.DType{engine.Uint8, engine.Int16} {
		for _, fn := range reduceFns {
			for _, ax := range [][]int{{0, 1}, {2}, {0, 1, 2}} {
				if (fn == engine.ArgMax || fn == engine.ArgMin) && len(ax) != 1 {
					continue
				}
				t.Run(fmt.Sprintf("fn=%d/dtype=%v/axes=%v", fn, d, ax), func(t *testing.T) {
					shape := []int{6, 5, 3}
					cols := []column{randColumn(rng, d, shape, 11, 0.1)}
					x := cast(in(0, d, shape...), engine.Float32)
					roots := []*engine.Node{red(fn, x, reduceType(fn, engine.Float32), false, ax...), un(engine.Neg, x)}
					check(t, []engine.Input{{DType: d, Shape: shape}}, cols, roots, engine.Options{BlockBytes: 700}, 11, 64)
				})
			}
		}
	}
}

// TestReducePeriodic reduces the leading axes of tensors whose kept
// inner elements are more than the 32 that one periodic sum of bytes
// takes (40 and 80), and fewer (3), as the channel sums of images.
func TestReducePeriodic(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	for _, d := range []engine.DType{engine.Uint8, engine.Int16, engine.Float32} {
		for _, fn := range []engine.Fn{engine.Sum, engine.Mean, engine.Max, engine.Norm} {
			for _, shape := range [][]int{{5, 2, 40}, {7, 6, 3}} {
				for _, ax := range [][]int{{0}, {0, 1}} {
					t.Run(fmt.Sprintf("fn=%d/dtype=%v/shape=%v/axes=%v", fn, d, shape, ax), func(t *testing.T) {
						cols := []column{randColumn(rng, d, shape, 11, 0.1)}
						roots := []*engine.Node{red(fn, in(0, d, shape...), reduceType(fn, d), false, ax...)}
						check(t, []engine.Input{{DType: d, Shape: shape}}, cols, roots, engine.Options{BlockBytes: 5000}, 11, 64)
					})
				}
			}
		}
	}
}

func TestSimilarity(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, d := range allTypes[1:] {
		for _, m := range []search.Metric{search.MetricDot, search.MetricCosine, search.MetricL2, search.MetricSquaredL2} {
			t.Run(fmt.Sprintf("metric=%v/dtype=%v", m, d), func(t *testing.T) {
				shape := []int{4, 9}
				rt := engine.Float64
				if isF(d) {
					rt = d
				} else if m == search.MetricDot {
					rt = engine.Int64
				}
				cols := []column{randColumn(rng, d, shape, 13, 0.1), randColumn(rng, d, shape, 13, 0.1)}
				node := &engine.Node{Op: engine.OpSimilarity, Metric: m, DType: rt,
					Args: []*engine.Node{in(0, d, shape...), in(1, d, shape...)}}
				inputs := []engine.Input{{DType: d, Shape: shape}, {DType: d, Shape: shape}}
				check(t, inputs, cols, []*engine.Node{node}, engine.Options{}, 13, 256)
				// One operand a constant, first and second (the row
				// kernels of float32 against one query).
				q := konst(d, shape, make([]float64, numel(shape))...)
				copy(q.Data, cols[1].col.Values)
				for _, args := range [][]*engine.Node{{in(0, d, shape...), q}, {q, in(0, d, shape...)}} {
					k := &engine.Node{Op: engine.OpSimilarity, Metric: m, DType: rt, Args: args}
					check(t, inputs[:1], cols[:1], []*engine.Node{k}, engine.Options{}, 13, 256)
				}
			})
		}
	}
}

// roundColumn rounds the values of a float column to integers (NaN and
// infinities kept).
func roundColumn(c *column, d engine.DType) {
	var b []byte
	for _, row := range c.rows {
		for j, f := range row.f {
			row.f[j] = math.Round(f)
			b = encode(b, d, row.f[j], 0)
		}
	}
	copy(c.col.Values, b)
}
