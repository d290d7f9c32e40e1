package expr

import (
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/errs"
	"github.com/fstensor/fstensor/internal/unsafeslice"
	"github.com/fstensor/fstensor/metadata"
)

// Option configures Compile (CompileExpr) and the evaluations of a
// Program or a Plan: the options of Compile are those of every
// evaluation of its Program. An invalid option value (a nil allocator,
// workers below 1) fails the call before it starts, with an *Error
// wrapping fstensor.ErrOption and arrow.ErrInvalid.
type Option func(*options)

type options struct {
	mem     memory.Allocator
	relabel bool
	workers int
	// Of Compile and CompileExpr (compile.go): x's column and the result's name.
	input, name       string
	inputSet, nameSet bool
	load              func(string) (Const, error) // WithLoad
	resultType        arrow.DataType              // WithResultType
	err               error                       // of the first invalid option
}

// invalid records the error of an invalid option value, keeping the
// first.
func (o *options) invalid(name string, value any, why string) {
	if o.err == nil {
		b := errs.Option("expr", name, value, why)
		o.err = &Error{Pos: -1, Msg: strings.TrimPrefix(b.Error(), "expr: "), base: b}
	}
}

// WithAllocator makes Eval allocate the result's buffers from mem
// (memory.DefaultAllocator without it), except the values of a result of
// 256 KiB or more, which reuse the memory of results released before (see
// "Memory" in the package documentation) when mem is a
// memory.GoAllocator or offers a recycled variant of itself
// (hugepage.Allocator's Recycled, whose kept mappings are not cleared),
// and come from mem itself otherwise (a checked allocator counts them).
// A nil mem is an invalid option.
func WithAllocator(mem memory.Allocator) Option {
	return func(o *options) {
		if mem == nil {
			o.invalid("WithAllocator", nil, "want an allocator")
			return
		}
		o.mem = mem
	}
}

// WithRelabel lets Eval return, when the result is only a relabelling of
// the input's elements (a transpose, a reshape of a dense layout, or a
// chain of them: see Plan.Relabel), an array that shares the input's
// buffers with a new type (the permutation describes the layout) instead
// of copying. Other expressions are copied as without the option.
func WithRelabel() Option { return func(o *options) { o.relabel = true } }

// WithWorkers bounds the goroutines Eval uses (default and maximum:
// GOMAXPROCS; 1 runs on the calling goroutine). An n below 1 is an
// invalid option.
func WithWorkers(n int) Option {
	return func(o *options) {
		if n < 1 {
			o.invalid("WithWorkers", n, "want 1 or more")
			return
		}
		o.workers = n
	}
}

// config applies opts; the error is that of the first invalid option
// value, an *Error wrapping fstensor.ErrOption. A nil Option is skipped.
func config(opts []Option) (options, error) {
	if len(opts) == 0 { // the options escape only when there are some
		return options{mem: memory.DefaultAllocator, workers: runtime.GOMAXPROCS(0)}, nil
	}
	o := options{mem: memory.DefaultAllocator, workers: runtime.GOMAXPROCS(0)}
	for _, f := range opts {
		if f != nil {
			f(&o)
		}
	}
	return o, o.err
}

// tensorType returns the type of a tensor result column: the plan's
// element type and result metadata, dense row-major. It fails like
// fixedshape.NewType, with arrow.ErrNotImplemented when the result shape
// has a size-0 dimension.
func (p *Plan) tensorType() (*fixedshape.Type, error) {
	if p.comp != nil {
		if p.comp.scalar {
			return nil, errorf("the result of %s is one value per tensor, not a tensor", p.expr)
		}
		return fixedshape.NewType(p.comp.elem.arrow(), p.comp.meta)
	}
	return fixedshape.NewType(p.elem, p.out)
}

// evalView is Plan.Eval of a view plan (no computing operation).
func (p *Plan) evalView(in *fixedshape.Array, o options) (*fixedshape.Array, error) {
	if p.ok && o.relabel {
		perm := p.relabel
		if slices.Equal(perm, p.identity()) {
			perm = nil
		}
		m, err := metadata.New(p.out.Shape(), p.out.DimNames(), perm)
		if err != nil {
			return nil, errorf("relabelled result: %v", err)
		}
		typ, err := fixedshape.NewType(p.elem, m)
		if err != nil {
			return nil, err
		}
		return fixedshape.NewArray(typ, in.Storage())
	}
	typ, err := p.tensorType()
	if err != nil {
		return nil, err
	}
	n := in.Len()
	var values *memory.Buffer
	if p.bits {
		values = memory.NewResizableBuffer(o.mem)
		values.Resize(int(bitutil.BytesForBits(int64(n * p.out.Size()))))
		p.runBits(values.Bytes(), in)
	} else {
		values = resultValues(o, n*p.out.Size()*p.width)
		p.run(values.Bytes(), in, o.workers)
	}
	defer values.Release()
	valid := validity(in, o.mem)
	if valid != nil {
		defer valid.Release()
	}
	child := array.NewData(p.elem, n*p.out.Size(), []*memory.Buffer{nil, values}, nil, 0, 0)
	defer child.Release()
	data := array.NewData(typ, n, []*memory.Buffer{valid}, []arrow.ArrayData{child}, in.NullN(), 0)
	defer data.Release()
	return array.MakeFromData(data).(*fixedshape.Array), nil
}

// EvalInto evaluates the plan over every tensor of in into dst, the dense
// row-major result elements, in.Len()*Metadata().Size() of them, as bytes
// (bool elements: as bits, least significant first, from bit 0);
// null tensors' slots are zero-filled. It allocates nothing on one worker,
// so a caller can reuse dst across batches. It fails, with an error
// wrapping arrow.ErrInvalid, when in does not match the plan's input (see
// Plan.Eval) or dst is too short. For a computing expression dst holds
// the result values (Plan.ResultType's elements, one tensor or value per
// input tensor) and each call allocates the workers' scratch.
func (p *Plan) EvalInto(dst []byte, in *fixedshape.Array, opts ...Option) error {
	if p.comp != nil {
		return p.evalComputeInto(dst, in, opts)
	}
	o, err := config(opts)
	if err != nil {
		return err
	}
	if err := p.checkInput(in.TensorType()); err != nil {
		return err
	}
	if p.bits {
		if need := int(bitutil.BytesForBits(int64(in.Len() * p.out.Size()))); len(dst) < need {
			return errorf("destination of %d bytes for %d bytes", len(dst), need)
		}
		p.runBits(dst, in)
		return nil
	}
	if need := in.Len() * p.out.Size() * p.width; len(dst) < need {
		return errorf("destination of %d bytes for %d bytes", len(dst), need)
	}
	p.run(dst, in, o.workers)
	return nil
}

func (p *Plan) identity() []int {
	id := make([]int, len(p.relabel))
	for i := range id {
		id[i] = i
	}
	return id
}

// checkInput reports an error unless t has the plan's element type,
// logical shape and element strides.
func (p *Plan) checkInput(t *fixedshape.Type) error {
	if !arrow.TypeEqual(t.ElemType(), p.elem) {
		return errorf("input of %v elements for an expression of %v elements", t.ElemType(), p.elem)
	}
	m := t.Metadata()
	// Compare through a stack buffer: no allocation for up to 8 axes.
	var buf [16]int
	shape := m.AppendShape(buf[:0])
	strides := m.AppendElemStrides(shape[len(shape):len(shape)])
	if !slices.Equal(shape, p.inShape) || !slices.Equal(strides, p.inElem) {
		return errorf("input %v for an expression of %v", m, p.in)
	}
	return nil
}

// run writes the result of every tensor of in to dst and zeroes null slots.
func (p *Plan) run(dst []byte, in *fixedshape.Array, workers int) {
	n := in.Len()
	if n == 0 {
		return
	}
	src := in.ValueBytes()
	if len(p.kernels) == 1 {
		p.kernels[0].Run(dst, src, n, p.inSize, workers)
	} else {
		p.runStaged(dst, src, n, workers)
	}
	if in.NullN() > 0 {
		size := p.out.Size() * p.width
		for i := range n {
			if in.IsNull(i) {
				clear(dst[i*size : (i+1)*size])
			}
		}
	}
}

// runStaged runs a plan of several stages tensor by tensor, each worker
// through its own two scratch buffers.
func (p *Plan) runStaged(dst, src []byte, n, workers int) {
	workers = max(1, min(workers, runtime.GOMAXPROCS(0), n))
	if n*p.inSize*p.width < 1<<20 {
		workers = 1
	}
	outBytes := p.out.Size() * p.width
	inBytes := p.inSize * p.width
	work := func(lo, hi int) {
		a := make([]uint64, (p.scratch*p.width+7)/8)
		b := make([]uint64, len(a))
		sa, sb := unsafeslice.Bytes(a), unsafeslice.Bytes(b)
		for t := lo; t < hi; t++ {
			s := src[t*inBytes : (t+1)*inBytes]
			for k := range p.kernels {
				d := sa
				if k == len(p.kernels)-1 {
					d = dst[t*outBytes : (t+1)*outBytes]
				}
				p.kernels[k].Run(d, s, 1, 0, 1)
				s = d
				sa, sb = sb, sa
			}
		}
	}
	runRows(workers, n, work)
}

// runRows calls f on contiguous ranges of rows 0..n-1, one range per
// goroutine, across at most workers goroutines (one call on the caller's
// goroutine for one worker).
func runRows(workers, n int, f func(lo, hi int)) {
	workers = max(1, min(workers, runtime.GOMAXPROCS(0), n))
	if workers == 1 {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	per := (n + workers - 1) / workers
	for lo := 0; lo < n; lo += per {
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			f(lo, hi)
		}(lo, min(n, lo+per))
	}
	wg.Wait()
}

// validity returns a copy of in's validity bitmap from offset 0, nil when
// in has no nulls.
func validity(in arrow.Array, mem memory.Allocator) *memory.Buffer {
	if in.NullN() == 0 {
		return nil
	}
	n := in.Len()
	valid := memory.NewResizableBuffer(mem)
	valid.Resize(int(bitutil.BytesForBits(int64(n))))
	bitutil.CopyBitmap(in.NullBitmapBytes(), in.Data().Offset(), n, valid.Bytes(), 0)
	return valid
}
