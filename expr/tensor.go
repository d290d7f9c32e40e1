package expr

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/unsafeslice"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/stride"
)

// Apply evaluates the plan on one tensor t and returns the result as a
// dense tensor over dst's memory: dst[:0] grown to the result size when its
// capacity is too small, so a caller can reuse one buffer tensor after
// tensor. It runs on the calling goroutine and, for the common case of a
// single-stage plan and a tensor with the plan's input layout, allocates
// only the result view's shape and strides.
//
// t must have the plan's element type and logical shape. Plans of
// computing expressions are refused (use Plan.Eval). A tensor whose
// layout (permutation) differs from the plan's input is still evaluated,
// through a plan compiled for it on the spot. Errors wrap arrow.ErrInvalid.
func Apply[T fixedshape.Elem](p *Plan, dst []T, t fixedshape.Tensor[T]) (fixedshape.Tensor[T], error) {
	if p.comp != nil {
		return fixedshape.Tensor[T]{}, errorf("Apply takes view expressions; evaluate %s with Plan.Eval", p.expr)
	}
	if want := arrow.GetDataType[T](); !arrow.TypeEqual(want, p.elem) {
		return fixedshape.Tensor[T]{}, errorf("tensor of %v elements for an expression of %v elements", want, p.elem)
	}
	var buf [16]int
	shape := t.AppendShape(buf[:0])
	if !slices.Equal(shape, p.in.Shape()) {
		return fixedshape.Tensor[T]{}, errorf("tensor of shape %s for an expression of shape %s", metadata.FormatShape(shape), metadata.FormatShape(p.in.Shape()))
	}
	if strides := t.AppendElemStrides(buf[len(shape):len(shape)]); !slices.Equal(strides, p.inElem) {
		q, err := p.forLayout(shape, strides)
		if err != nil {
			return fixedshape.Tensor[T]{}, err
		}
		p = q
	}
	size := p.out.Size()
	if cap(dst) < size {
		dst = make([]T, size)
	}
	dst = dst[:size]
	out := unsafeslice.Bytes(dst)
	src := unsafeslice.Bytes(t.PhysicalData())
	if len(p.kernels) == 1 {
		p.kernels[0].Run(out, src, 1, p.inSize, 1)
	} else {
		p.runStaged(out, src, 1, 1)
	}
	return fixedshape.NewTensor(dst, p.out)
}

// forLayout compiles the plan's expression for an input of the same shape
// whose dense layout has the given strides.
func (p *Plan) forLayout(shape, strides []int) (*Plan, error) {
	perm, ok := stride.Dense(shape, strides)
	if !ok {
		return nil, errorf("tensor strides %v are not dense", strides)
	}
	m, err := metadata.New(shape, p.in.DimNames(), perm)
	if err != nil {
		return nil, errorf("tensor layout: %v", err)
	}
	return CompilePlan(rebind(p.expr.node(), InputOf(p.elem, m)))
}

// rebind rebuilds the chain of n over the input x.
func rebind(n *node, x Expr) Expr {
	if n.x == nil {
		return x
	}
	y := rebind(n.x, x)
	switch n.op {
	case opIndex:
		return Subscript(y, n.items...)
	case opTranspose:
		return Transpose(y, n.ints...)
	case opReshape:
		return Reshape(y, n.ints...)
	}
	return recompute(n, y)
}
