package search

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/errs"
	"github.com/fstensor/fstensor/internal/numeric"
	"github.com/fstensor/fstensor/internal/unsafeslice"
)

// Option configures [Rowwise] and its shorthands ([WithAllocator]) and
// [Search] ([WithColumn], [WithColumnIndex]); options that do not apply are
// ignored.
type Option func(*config)

type config struct {
	mem      memory.Allocator
	column   string
	colIndex int
	indexSet bool
	err      error // of the first invalid option
}

// newConfig applies opts; the error is that of the first invalid option
// value, an *Error. A nil Option is skipped.
func newConfig(opts []Option) (config, error) {
	c := config{mem: memory.DefaultAllocator, colIndex: -1}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c, c.err
}

// invalid records the error of an invalid option value, keeping the
// first.
func (c *config) invalid(name string, value any, why string) {
	if c.err == nil {
		c.err = &Error{errs.Option("search", name, value, why)}
	}
}

// WithAllocator allocates the results of [Rowwise] from mem (default
// memory.DefaultAllocator). A nil mem is an invalid option.
func WithAllocator(mem memory.Allocator) Option {
	return func(c *config) {
		if mem == nil {
			c.invalid("WithAllocator", nil, "want an allocator")
			return
		}
		c.mem = mem
	}
}

// Dot returns the row-wise dot products of a and b (see [Rowwise]).
func Dot(a, b *fixedshape.Array, opts ...Option) (arrow.Array, error) {
	return Rowwise(MetricDot, a, b, opts...)
}

// Cosine returns the row-wise cosine similarities of a and b (see
// [Rowwise]).
func Cosine(a, b *fixedshape.Array, opts ...Option) (arrow.Array, error) {
	return Rowwise(MetricCosine, a, b, opts...)
}

// L2 returns the row-wise Euclidean distances of a and b (see [Rowwise]).
func L2(a, b *fixedshape.Array, opts ...Option) (arrow.Array, error) {
	return Rowwise(MetricL2, a, b, opts...)
}

// SquaredL2 returns the row-wise squared Euclidean distances of a and b
// (see [Rowwise]).
func SquaredL2(a, b *fixedshape.Array, opts ...Option) (arrow.Array, error) {
	return Rowwise(MetricSquaredL2, a, b, opts...)
}

// Rowwise returns metric m between tensor i of a and tensor i of b for
// every row i of a; when b has one tensor (a query), between every tensor
// of a and it. a and b hold numeric tensors of the same logical shape;
// their element types and permutations may differ (elements are paired by
// logical index). The result has a.Len() values, null where a's or b's
// tensor is null; it is a new array allocated from [WithAllocator], which
// the caller releases. Its type is float32 when both element types are
// float16 or float32 and float64 otherwise (see the package doc for the
// accuracy of each). Errors wrap arrow.ErrInvalid: an unknown metric,
// other shapes, non-numeric elements, b of neither 1 nor a.Len() tensors.
func Rowwise(m Metric, a, b *fixedshape.Array, opts ...Option) (arrow.Array, error) {
	if !m.valid() {
		return nil, fmt.Errorf("search: unknown metric %d: %w", int(m), arrow.ErrInvalid)
	}
	if a == nil || b == nil {
		return nil, fmt.Errorf("search: %v of a nil column: %w", m, arrow.ErrInvalid)
	}
	ta, tb := a.TensorType(), b.TensorType()
	if err := checkTypes(m.String(), ta, tb); err != nil {
		return nil, err
	}
	if b.Len() != 1 && b.Len() != a.Len() {
		return nil, fmt.Errorf("search: %v of %d tensors with %d tensors (want 1 or %d): %w", m, a.Len(), b.Len(), a.Len(), arrow.ErrInvalid)
	}
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	if float32Acc(ta.ElemType(), tb.ElemType()) {
		return rowwise[float32](m, a, b, c.mem, arrow.PrimitiveTypes.Float32)
	}
	return rowwise[float64](m, a, b, c.mem, arrow.PrimitiveTypes.Float64)
}

func rowwise[F numeric.Float](m Metric, a, b *fixedshape.Array, mem memory.Allocator, dt arrow.DataType) (arrow.Array, error) {
	sa, err := newSource[F](a, nil)
	if err != nil {
		return nil, err
	}
	sb, err := newSource[F](b, gatherOrder(a.TensorType(), b.TensorType()))
	if err != nil {
		return nil, err
	}
	n, ls := a.Len(), sa.ls
	bcast := b.Len() == 1 && a.Len() != 1

	var zero F
	size := int(unsafeSizeof(zero))
	vals := memory.NewResizableBuffer(mem)
	defer vals.Release()
	vals.Resize(n * size)
	out, err := unsafeslice.Cast[F](vals.Bytes())
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	out = out[:n]

	// Validity: a row is valid when its tensor and its partner are.
	var valid *memory.Buffer
	nulls := 0
	if a.NullN() > 0 || b.NullN() > 0 {
		valid = memory.NewResizableBuffer(mem)
		defer valid.Release()
		valid.Resize(int(bitutil.BytesForBits(int64(n))))
		bits := valid.Bytes()
		clear(bits)
		for i := range n {
			j := i
			if bcast {
				j = 0
			}
			if a.IsValid(i) && b.IsValid(j) {
				bitutil.SetBit(bits, i)
			} else {
				nulls++
			}
		}
	}
	isValid := func(i int) bool { return valid == nil || bitutil.BitIsSet(valid.Bytes(), i) }

	var sa1, sb1 []F
	if sa.direct == nil {
		sa1 = make([]F, ls)
	}
	if sb.direct == nil {
		sb1 = make([]F, ls)
	}
	var q []F
	var qq F
	if bcast {
		q = sb.row(0, sb1)
		if m == MetricCosine {
			qq = numeric.Norm(q)
		}
	}
	for i := range n {
		if !isValid(i) {
			out[i] = 0
			continue
		}
		x := sa.row(i, sa1)
		y := q
		if !bcast {
			y = sb.row(i, sb1)
		}
		switch m {
		case MetricDot:
			out[i] = numeric.Dot(x, y)
		case MetricSquaredL2:
			out[i] = numeric.SquaredL2(x, y)
		case MetricL2:
			out[i] = F(math.Sqrt(float64(numeric.SquaredL2(x, y))))
		case MetricCosine:
			if bcast {
				out[i] = numeric.Cosine(x, y, qq)
			} else {
				xy, xx, yy := numeric.DotNorms(x, y)
				out[i] = xy / (F(math.Sqrt(float64(xx))) * F(math.Sqrt(float64(yy))))
			}
		}
	}
	data := array.NewData(dt, n, []*memory.Buffer{valid, vals}, nil, nulls, 0)
	defer data.Release()
	return array.MakeFromData(data), nil
}

func unsafeSizeof[F numeric.Float](v F) uintptr {
	if _, ok := any(v).(float32); ok {
		return 4
	}
	return 8
}
