package engine_test

import (
	"math/rand/v2"
	"testing"

	"github.com/fstensor/fstensor/expr/internal/engine"
)

func TestSmoke(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	x := in(0, engine.Float32, 4, 5)
	inputs := []engine.Input{{DType: engine.Float32, Shape: []int{4, 5}}}
	cols := []column{randColumn(rng, engine.Float32, []int{4, 5}, 37, 0.2)}
	norm := red(engine.Norm, x, engine.Float32, true, 1)
	roots := []*engine.Node{bin(engine.Div, x, norm), bin(engine.Add, bin(engine.Mul, x, konst(engine.Float32, nil, 2)), konst(engine.Float32, nil, 1))}
	check(t, inputs, cols, roots, engine.Options{BlockBytes: 1000}, 37, 8)
}
