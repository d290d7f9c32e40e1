package layout

import (
	"errors"
	"fmt"
	"math"
)

// MaxRank is the largest number of axes a Plan keeps after dropping the
// axes of size 1 and merging the axes that are contiguous in the source.
// Every shape of at most 1<<31 elements fits, with room for the batch axis
// that Plan.Run adds: at most 31 axes of size >= 2 multiply to 1<<31.
const MaxRank = 40

// ErrInvalid is matched by the errors of NewPlan.
var ErrInvalid = errors.New("layout: invalid plan")

type kind uint8

const (
	kindEmpty     kind = iota // no elements
	kindContig                // innermost source stride 1: copy() per run
	kindTranspose             // a source stride-1 axis other than the innermost: tiled
	kindGather                // anything else: strided reads, contiguous writes
)

func (k kind) String() string {
	switch k {
	case kindEmpty:
		return "empty"
	case kindContig:
		return "contiguous"
	case kindTranspose:
		return "transpose"
	default:
		return "gather"
	}
}

// dims is a simplified copy problem: rank axes, outermost first, with
// source and destination element strides. The destination is always the
// dense row-major layout of shape.
type dims struct {
	rank  int
	shape [MaxRank]int
	src   [MaxRank]int
	dst   [MaxRank]int
}

// Plan copies one strided view of a source tensor into a dense row-major
// destination. It is built once per layout and run over any number of
// tensors without allocating. A Plan is a value: it is safe to copy and to
// run from several goroutines at once.
type Plan struct {
	width  int // width in bytes of the units the loops move: 1, 2, 4 or 8
	factor int // units per element: 1, or width/unit for other widths
	size   int // elements per tensor
	offset int // element offset of the view's first element
	minOff int // smallest element offset the view reads, relative to the tensor
	maxOff int // largest element offset the view reads, relative to the tensor
	d      dims
}

// NewPlan returns the plan that copies the view of shape, strides (in
// elements, any sign, 0 allowed) and offset (in elements) of a source
// tensor into a dense row-major destination of shape, for elements of width
// bytes (any width above 0: 1, 2, 4 and 8 are moved as words, other
// widths, such as 16-byte decimals or 3-byte fixed-size binaries, as runs
// of the widest of those dividing them, through an extra innermost axis).
// Errors match ErrInvalid: a width below 1, unequal lengths, a negative
// dimension, an element count or offset that overflows, a view that reads
// before the tensor start (offset plus the most negative reach below 0),
// or too many axes.
func NewPlan(width int, shape, strides []int, offset int) (Plan, error) {
	switch width {
	case 1, 2, 4, 8:
	default:
		return widePlan(width, shape, strides, offset)
	}
	if len(shape) != len(strides) {
		return Plan{}, fmt.Errorf("%w: %d strides for %d axes", ErrInvalid, len(strides), len(shape))
	}
	p := Plan{width: width, factor: 1, offset: offset, size: 1}
	empty := false
	for _, n := range shape {
		if n < 0 {
			return Plan{}, fmt.Errorf("%w: negative dimension %d", ErrInvalid, n)
		}
		if n == 0 {
			empty = true
		}
	}
	if empty {
		p.size = 0
		return p, nil
	}
	lo, hi := offset, offset
	for i, n := range shape {
		s, ok := mulOK(p.size, n)
		if !ok {
			return Plan{}, fmt.Errorf("%w: element count overflows", ErrInvalid)
		}
		p.size = s
		reach, ok := mulOK(abs(strides[i]), n-1)
		if !ok {
			return Plan{}, fmt.Errorf("%w: stride %d overflows over %d elements", ErrInvalid, strides[i], n)
		}
		if strides[i] < 0 {
			lo -= reach
		} else {
			hi += reach
		}
		if lo > offset || hi < offset || lo < math.MinInt/2 || hi > math.MaxInt/2 {
			return Plan{}, fmt.Errorf("%w: offsets overflow", ErrInvalid)
		}
	}
	if lo < 0 {
		return Plan{}, fmt.Errorf("%w: view reads element %d, before the tensor start", ErrInvalid, lo)
	}
	p.minOff, p.maxOff = lo, hi
	// Drop axes of size 1, then merge neighbours contiguous in the source
	// (the destination is row-major, so neighbours are contiguous there).
	var d dims
	for i, n := range shape {
		if n == 1 {
			continue
		}
		if d.rank > 0 && strides[i]*n == d.src[d.rank-1] {
			d.shape[d.rank-1] *= n
			d.src[d.rank-1] = strides[i]
			continue
		}
		if d.rank == MaxRank-1 {
			return Plan{}, fmt.Errorf("%w: more than %d axes of size > 1", ErrInvalid, MaxRank-1)
		}
		d.shape[d.rank] = n
		d.src[d.rank] = strides[i]
		d.rank++
	}
	d.fillDst()
	p.d = d
	return p, nil
}

// widePlan is NewPlan for a width other than 1, 2, 4 or 8: each element
// becomes factor units of the widest word dividing width, on a new
// innermost axis of stride 1, and strides and offset are scaled to units.
func widePlan(width int, shape, strides []int, offset int) (Plan, error) {
	if width < 1 {
		return Plan{}, fmt.Errorf("%w: element width %d", ErrInvalid, width)
	}
	if len(shape) != len(strides) {
		return Plan{}, fmt.Errorf("%w: %d strides for %d axes", ErrInvalid, len(strides), len(shape))
	}
	unit := 8
	for width%unit != 0 {
		unit /= 2
	}
	f := width / unit
	us := make([]int, len(strides)+1)
	for i, s := range strides {
		var ok bool
		if us[i], ok = mulOK(abs(s), f); !ok {
			return Plan{}, fmt.Errorf("%w: stride %d of %d-byte elements overflows", ErrInvalid, s, width)
		}
		if s < 0 {
			us[i] = -us[i]
		}
	}
	us[len(strides)] = 1
	uo, ok := mulOK(offset, f)
	if !ok {
		return Plan{}, fmt.Errorf("%w: offset %d of %d-byte elements overflows", ErrInvalid, offset, width)
	}
	p, err := NewPlan(unit, append(append(make([]int, 0, len(shape)+1), shape...), f), us, uo)
	if err != nil {
		return Plan{}, err
	}
	p.factor = f
	return p, nil
}

// fillDst sets the row-major destination strides of d's shape.
func (d *dims) fillDst() {
	s := 1
	for i := d.rank - 1; i >= 0; i-- {
		d.dst[i] = s
		s *= d.shape[i]
	}
}

// Size returns the number of elements of one destination tensor.
func (p *Plan) Size() int { return p.size / p.units() }

// Width returns the element width in bytes.
func (p *Plan) Width() int { return p.width * p.units() }

// units returns the units per element (1 for the zero Plan).
func (p *Plan) units() int { return max(p.factor, 1) }

// MinSource returns the number of elements a source tensor must have for
// the plan to stay inside it: one more than the largest offset it reads
// (0 for an empty view).
func (p *Plan) MinSource() int {
	if p.size == 0 {
		return 0
	}
	return (p.maxOff + 1) / p.units()
}

// Kind names the kernel that Run uses for a single tensor: "empty",
// "contiguous", "transpose" or "gather". It is meant for tests and
// diagnostics.
func (p *Plan) Kind() string { return p.d.kind().String() }

// kind picks the kernel for d.
func (d *dims) kind() kind {
	switch {
	case d.rank == 0:
		return kindContig // a single element
	case d.src[d.rank-1] == 1:
		return kindContig
	case d.unitAxis() >= 0:
		return kindTranspose
	default:
		return kindGather
	}
}

// unitAxis returns the outermost-but-innermost axis with source stride 1
// (the axis read contiguously by a transpose), or -1.
func (d *dims) unitAxis() int {
	for i := d.rank - 2; i >= 0; i-- {
		if d.src[i] == 1 {
			return i
		}
	}
	return -1
}

func mulOK(a, b int) (int, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	c := a * b
	if c/b != a || c < 0 {
		return 0, false
	}
	return c, true
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
