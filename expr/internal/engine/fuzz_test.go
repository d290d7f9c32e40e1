package engine_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/fstensor/fstensor/expr/internal/engine"
	"github.com/fstensor/fstensor/search"
)

// genGraph builds a random well-typed graph over two inputs of type d
// and shapes (2, 3) and (3,), with n operations, and returns its roots
// and whether it reduces (so floats compare with a tolerance).
func genGraph(rng *rand.Rand, d engine.DType, n int) (roots []*engine.Node, reduces bool) {
	pool := []*engine.Node{in(0, d, 2, 3), in(1, d, 3)}
	var leaves []*engine.Node
	pick := func(ok func(*engine.Node) bool) *engine.Node {
		var c []*engine.Node
		for _, x := range pool {
			if ok(x) {
				c = append(c, x)
			}
		}
		if len(c) == 0 {
			return nil
		}
		return c[rng.IntN(len(c))]
	}
	any := func(*engine.Node) bool { return true }
	for range n {
		x := pool[rng.IntN(len(pool))]
		var node *engine.Node
		switch rng.IntN(10) {
		case 0:
			fn := unaryFns[rng.IntN(len(unaryFns))]
			if unaryOK(fn, x.DType) {
				node = un(fn, x)
			}
		case 1, 2:
			fn := binaryFns[rng.IntN(len(binaryFns))]
			isFloat := isF(x.DType)
			if !binaryOK(fn, x.DType) || isFloat && (fn == engine.FloorDiv || fn == engine.Mod) {
				break
			}
			if fn == engine.Pow && !isFloat {
				node = bin(fn, x, konst(x.DType, nil, float64(rng.IntN(4))))
				break
			}
			y := pick(func(y *engine.Node) bool { return y.DType == x.DType && broadcasts(x.Shape, y.Shape) })
			node = bin(fn, x, y)
		case 3:
			node = cast(x, allTypes[rng.IntN(len(allTypes))])
		case 4:
			if len(x.Shape) > 0 && x.DType != engine.Bool {
				fn := reduceFns[rng.IntN(len(reduceFns))]
				ax := rng.IntN(len(x.Shape))
				if x.Shape[ax] > 0 || fn != engine.Min && fn != engine.Max && fn != engine.ArgMax && fn != engine.ArgMin {
					node = red(fn, x, reduceType(fn, x.DType), rng.IntN(2) == 0, ax)
				}
			}
		case 5:
			if len(x.Shape) == 2 && rng.IntN(3) == 0 {
				node = view(x, 0, []int{0, x.Shape[1]}, []int{x.Shape[1], 1}) // x[:0]
			} else if len(x.Shape) == 2 {
				node = view(x, 0, []int{x.Shape[1], x.Shape[0]}, []int{1, x.Shape[1]})
			} else if len(x.Shape) == 1 && x.Shape[0] > 0 {
				node = view(x, x.Shape[0]-1, x.Shape, []int{-1})
			}
		case 6:
			c := pick(func(c *engine.Node) bool { return c.DType == engine.Bool && broadcasts(c.Shape, x.Shape) })
			y := pick(func(y *engine.Node) bool { return y.DType == x.DType && broadcasts(x.Shape, y.Shape) })
			if c != nil && broadcasts(bshape(x.Shape, y.Shape), c.Shape) {
				node = &engine.Node{Op: engine.OpWhere, DType: x.DType, Shape: bshape(c.Shape, bshape(x.Shape, y.Shape)), Args: []*engine.Node{c, x, y}}
			}
		case 7:
			y := pick(func(y *engine.Node) bool { return y.DType == x.DType && slices.Equal(y.Shape, x.Shape) })
			if x.DType != engine.Bool && len(x.Shape) > 0 {
				m := search.Metric(rng.IntN(4))
				rt := engine.Float64
				if isF(x.DType) {
					rt = x.DType
				} else if m == search.MetricDot {
					rt = engine.Int64
				}
				node = &engine.Node{Op: engine.OpSimilarity, Metric: m, DType: rt, Args: []*engine.Node{x, y}}
			}
		case 8:
			y := pick(any)
			if y.DType == x.DType && len(x.Shape) == 2 && len(y.Shape) == 2 && x.Shape[0] == y.Shape[0] && x.DType != engine.Bool {
				node = &engine.Node{Op: engine.OpConcat, DType: x.DType, Axis: 1, Shape: []int{x.Shape[0], x.Shape[1] + y.Shape[1]}, Args: []*engine.Node{x, y}}
			}
		case 9:
			y := pick(func(y *engine.Node) bool {
				return y.DType == x.DType && len(x.Shape) == 2 && len(y.Shape) == 2 && y.Shape[0] == x.Shape[1]
			})
			if y != nil && x.DType != engine.Bool {
				node = matmulNode(x, y)
			}
		}
		switch {
		case node == nil:
		case inexact(node):
			// Rounded differently from the reference: a root only, as an
			// integer cast or a comparison of it would amplify the
			// difference.
			leaves = append(leaves, node)
		default:
			pool = append(pool, node)
		}
	}
	k := 1 + rng.IntN(3)
	roots = append(roots, pool[max(0, len(pool)-k):]...)
	return append(roots, leaves[max(0, len(leaves)-2):]...), len(leaves) > 0
}

// inexact reports whether n's value is a float summed in another order
// than the reference's.
func inexact(n *engine.Node) bool {
	if !isF(n.DType) {
		return false
	}
	switch n.Op {
	case engine.OpSimilarity, engine.OpMatMul:
		return true
	case engine.OpReduce:
		return n.Fn != engine.Min && n.Fn != engine.Max
	}
	return false
}

func broadcasts(a, b []int) bool {
	for i := 1; i <= min(len(a), len(b)); i++ {
		x, y := a[len(a)-i], b[len(b)-i]
		if x != y && x != 1 && y != 1 {
			return false
		}
	}
	return true
}

// FuzzGraph generates random well-typed graphs and compares the engine
// with the reference evaluator.
func FuzzGraph(f *testing.F) {
	f.Add(uint64(1), uint8(5), uint8(10), uint16(17), uint16(64))
	f.Add(uint64(2), uint8(12), uint8(3), uint16(1), uint16(1))
	f.Add(uint64(3), uint8(20), uint8(0), uint16(0), uint16(0))
	f.Fuzz(func(t *testing.T, seed uint64, ops, dt uint8, rows, block uint16) {
		rng := rand.New(rand.NewPCG(seed, uint64(ops)))
		d := allTypes[int(dt)%len(allTypes)]
		r := int(rows % 300)
		roots, reduces := genGraph(rng, d, int(ops%24))
		inputs := []engine.Input{{DType: d, Shape: []int{2, 3}}, {DType: d, Shape: []int{3}}}
		cols := []column{randColumn(rng, d, []int{2, 3}, r, 0.1), randColumn(rng, d, []int{3}, r, 0.1)}
		tol := 0.0
		if reduces {
			tol = 1 << 16
		}
		o := engine.Options{BlockBytes: int(block), Workers: 1 + int(seed%3)}
		check(t, inputs, cols, roots, o, r, tol)
	})
}
