package engine_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/fstensor/fstensor/expr/internal/engine"
)

func TestCast(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, from := range allTypes {
		for _, to := range allTypes {
			t.Run(fmt.Sprintf("from=%v/to=%v", from, to), func(t *testing.T) {
				shape := []int{2, 7}
				cols := []column{randColumn(rng, from, shape, 17, 0.1)}
				roots := []*engine.Node{cast(in(0, from, shape...), to)}
				check(t, []engine.Input{{DType: from, Shape: shape}}, cols, roots, engine.Options{BlockBytes: 100}, 17, 0)
			})
		}
	}
}

func view(a *engine.Node, off int, shape, strides []int) *engine.Node {
	return &engine.Node{Op: engine.OpView, Args: []*engine.Node{a}, DType: a.DType, Shape: shape, Offset: off, Strides: strides}
}

func TestView(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	tests := []struct {
		name           string
		shape          []int // the operand's
		off            int
		vshape, stride []int
	}{
		{"transpose", []int{3, 4}, 0, []int{4, 3}, []int{1, 4}},
		{"reverse", []int{3, 4}, 11, []int{3, 4}, []int{-4, -1}},
		{"step", []int{6, 5}, 1, []int{3, 2}, []int{10, 2}},
		{"broadcast", []int{4}, 0, []int{3, 4}, []int{0, 1}},
		{"newaxis", []int{4}, 0, []int{1, 4, 1}, []int{0, 1, 0}},
		{"index", []int{3, 4}, 4, []int{4}, []int{1}},
		{"0-D", []int{3, 4}, 5, []int{}, []int{}},
		{"empty", []int{3, 4}, 0, []int{0, 4}, []int{4, 1}},
		{"3-cycle", []int{2, 3, 4}, 0, []int{4, 2, 3}, []int{1, 12, 4}},
	}
	for _, d := range []engine.DType{engine.Bool, engine.Uint8, engine.Int16, engine.Float16, engine.Float32, engine.Int64} {
		for _, tc := range tests {
			t.Run(fmt.Sprintf("%s/dtype=%v", tc.name, d), func(t *testing.T) {
				cols := []column{randColumn(rng, d, tc.shape, 9, 0.2)}
				x := in(0, d, tc.shape...)
				v := view(x, tc.off, tc.vshape, tc.stride)
				// A view of a computed value too.
				roots := []*engine.Node{v, view(un(engine.Abs, x), tc.off, tc.vshape, tc.stride)}
				if d == engine.Bool {
					roots = roots[:1]
				}
				check(t, []engine.Input{{DType: d, Shape: tc.shape}}, cols, roots, engine.Options{BlockBytes: 64}, 9, 0)
			})
		}
	}
}

func TestWhere(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for _, d := range allTypes {
		t.Run(fmt.Sprintf("dtype=%v", d), func(t *testing.T) {
			inputs := []engine.Input{{DType: engine.Bool, Shape: []int{3, 4}}, {DType: d, Shape: []int{4}}, {DType: d, Shape: []int{3, 1}}}
			cols := []column{randColumn(rng, engine.Bool, []int{3, 4}, 21, 0.1), randColumn(rng, d, []int{4}, 21, 0.1), randColumn(rng, d, []int{3, 1}, 21, 0)}
			w := &engine.Node{Op: engine.OpWhere, DType: d, Shape: []int{3, 4},
				Args: []*engine.Node{in(0, engine.Bool, 3, 4), in(1, d, 4), in(2, d, 3, 1)}}
			check(t, inputs, cols, []*engine.Node{w}, engine.Options{BlockBytes: 100}, 21, 0)
		})
	}
}

func matmulNode(a, b *engine.Node) *engine.Node {
	r := len(a.Shape)
	shape := append(append([]int{}, a.Shape[:r-1]...), b.Shape[r-1])
	return &engine.Node{Op: engine.OpMatMul, DType: a.DType, Shape: shape, Args: []*engine.Node{a, b}}
}

func TestMatMul(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	for _, d := range []engine.DType{engine.Int8, engine.Int32, engine.Uint64, engine.Float16, engine.Float32, engine.Float64} {
		t.Run(fmt.Sprintf("dtype=%v/b=const", d), func(t *testing.T) {
			cols := []column{randColumn(rng, d, []int{3, 5}, 15, 0.1), randColumn(rng, d, []int{5, 4}, 1, 0)}
			w := konst(d, []int{5, 4}, make([]float64, 20)...)
			copy(w.Data, cols[1].col.Values)
			roots := []*engine.Node{matmulNode(in(0, d, 3, 5), w)}
			check(t, []engine.Input{{DType: d, Shape: []int{3, 5}}}, cols[:1], roots, engine.Options{BlockBytes: 200}, 15, 64)
		})
		t.Run(fmt.Sprintf("dtype=%v/b=const/shape=2x40x24", d), func(t *testing.T) {
			cols := []column{randColumn(rng, d, []int{2, 40}, 50, 0.1), randColumn(rng, d, []int{40, 24}, 1, 0)}
			w := konst(d, []int{40, 24}, make([]float64, 40*24)...)
			copy(w.Data, cols[1].col.Values)
			roots := []*engine.Node{matmulNode(in(0, d, 2, 40), w)}
			check(t, []engine.Input{{DType: d, Shape: []int{2, 40}}}, cols[:1], roots, engine.Options{BlockBytes: 2000}, 50, 256)
		})
		t.Run(fmt.Sprintf("dtype=%v/b=rows", d), func(t *testing.T) {
			inputs := []engine.Input{{DType: d, Shape: []int{2, 3, 5}}, {DType: d, Shape: []int{2, 5, 4}}}
			cols := []column{randColumn(rng, d, []int{2, 3, 5}, 15, 0.1), randColumn(rng, d, []int{2, 5, 4}, 15, 0.1)}
			roots := []*engine.Node{matmulNode(in(0, d, 2, 3, 5), in(1, d, 2, 5, 4))}
			check(t, inputs, cols, roots, engine.Options{BlockBytes: 200}, 15, 64)
		})
	}
}

func TestConcat(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	for _, d := range []engine.DType{engine.Bool, engine.Uint8, engine.Float16, engine.Float64} {
		for axis := range 2 {
			t.Run(fmt.Sprintf("dtype=%v/axis=%d", d, axis), func(t *testing.T) {
				a, b := []int{2, 3}, []int{2, 3}
				b[axis] = 1
				shape := []int{2, 3}
				shape[axis]++
				c := konst(d, b, []float64{1, 0, 1}[:numel(b)]...)
				node := &engine.Node{Op: engine.OpConcat, DType: d, Shape: shape, Axis: axis, Args: []*engine.Node{in(0, d, a...), c}}
				cols := []column{randColumn(rng, d, a, 7, 0.2)}
				check(t, []engine.Input{{DType: d, Shape: a}}, cols, []*engine.Node{node}, engine.Options{}, 7, 0)
			})
		}
	}
}
