package expr

import (
	"slices"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/varshape"

	"github.com/fstensor/fstensor/internal/reuse"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
)

// The simplifier, slice arithmetic and stages of a plan are checked by
// the external tests (against NumPy and ndindex) but are not API.
var (
	Simplify    = simplifyExpr
	ReduceSlice = reduceSlice
	Indices     = indices
)

// Stage is one copy of a Plan.
type Stage = stage

// Stages returns a copy of the plan's copies, first to last.
func (p *Plan) Stages() []Stage {
	out := make([]Stage, len(p.stages))
	for i, s := range p.stages {
		out[i] = Stage{Shape: slices.Clone(s.Shape), Strides: slices.Clone(s.Strides), Offset: s.Offset}
	}
	return out
}

// VarExpr compiles a text or a chain over a variable-shape column as
// Compile does, behind the calls of the tests first written for
// per-row-shape plans: each evaluation compiles a Program with its
// options, and Plans counts the engine programs of the last one.
type VarExpr struct {
	typ  *varshape.Type
	text string
	e    Expr
	mu   sync.Mutex
	last *Program
}

// ParseVar returns the VarExpr of text over columns of typ.
func ParseVar(text string, typ *varshape.Type) *VarExpr { return &VarExpr{typ: typ, text: text} }

// CompileVar returns the VarExpr of e over columns of typ, or
// CompileExpr's error.
func CompileVar(e Expr, typ *varshape.Type) (*VarExpr, error) {
	v := &VarExpr{typ: typ, e: e}
	_, err := v.compile(nil)
	return v, err
}

func (v *VarExpr) compile(opts []Option) (*Program, error) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: v.typ, Nullable: true}}, nil)
	if v.e != nil {
		return CompileExpr(v.e, schema, opts...)
	}
	return Compile(v.text, schema, opts...)
}

// Eval compiles with opts and evaluates in.
func (v *VarExpr) Eval(in *varshape.Array, opts ...Option) (arrow.Array, error) {
	p, err := v.compile(opts)
	if err != nil {
		return nil, err
	}
	v.mu.Lock()
	v.last = p
	v.mu.Unlock()
	return p.EvalColumn(in)
}

// EvalAs is Eval with WithResultType(t).
func (v *VarExpr) EvalAs(t arrow.DataType, in *varshape.Array, opts ...Option) (arrow.Array, error) {
	return v.Eval(in, append(slices.Clip(opts), WithResultType(t))...)
}

// ResultType returns the type of the Program's result.
func (v *VarExpr) ResultType() (arrow.DataType, error) {
	p, err := v.compile(nil)
	if err != nil {
		return nil, err
	}
	return p.Schema().Field(0).Type, nil
}

// EvalInto writes the values of Eval's result (the elements of its rows,
// back to back; bytes of bits for bools) to dst and returns their count
// in bytes: an error wrapping arrow.ErrInvalid when dst is shorter.
func (v *VarExpr) EvalInto(dst []byte, in *varshape.Array, opts ...Option) (int, error) {
	out, err := v.Eval(in, opts...)
	if err != nil {
		return 0, err
	}
	defer out.Release()
	var b []byte
	switch a := out.(type) {
	case *fixedshape.Array:
		// the rows that are not null
		size := len(a.ValueBytes()) / max(a.Len(), 1)
		for i, vb := 0, a.ValueBytes(); i < a.Len(); i++ {
			if a.IsValid(i) {
				b = append(b, vb[i*size:(i+1)*size]...)
			}
		}
	case *varshape.Array:
		raw, err := a.Raw()
		if err != nil {
			return 0, err
		}
		b = raw.Values
	default: // one number per row: the rows that are not null
		w := out.DataType().(arrow.FixedWidthDataType).BitWidth() / 8
		vb := out.Data().Buffers()[1].Bytes()[out.Data().Offset()*w:]
		for i := range out.Len() {
			if out.IsValid(i) {
				b = append(b, vb[i*w:(i+1)*w]...)
			}
		}
	}
	if len(dst) < len(b) {
		return 0, errorf("destination of %d bytes for %d", len(dst), len(b))
	}
	return copy(dst, b), nil
}

// Plans returns the number of engine programs (one per combination of
// row shapes) of the last evaluation.
func (v *VarExpr) Plans() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.last == nil {
		return 0
	}
	return v.last.VarPrograms()
}

// PoisonRecycled fills a buffer of reuse.Buffers of the class of size
// bytes with b and frees it, so that the next result of that class may
// get it.
func PoisonRecycled(size int, b byte) { testvec.FillFreed(reuse.Buffers, b, size) }
