package expr_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// The reference below evaluates expressions element by element on dense
// logical arrays, written from NumPy's definitions and independently of
// the package's planner and kernels.

type refArray struct {
	shape []int
	vals  []uint64
}

func refSize(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// refIndexes yields every index of shape in row-major order.
func refIndexes(shape []int, f func(idx []int)) {
	n := refSize(shape)
	idx := make([]int, len(shape))
	for range n {
		f(idx)
		for i := len(idx) - 1; i >= 0; i-- {
			idx[i]++
			if idx[i] < shape[i] {
				break
			}
			idx[i] = 0
		}
	}
}

// refInput returns the logical array of a tensor whose physical element k
// is id k: logical axis i walks physical axis perm[i].
func refInput(m metadata.Metadata) refArray {
	shape := m.Shape()
	phys := make([]int, len(shape))
	for i := range shape {
		phys[m.Axis(i)] = shape[i]
	}
	rm := make([]int, len(phys))
	s := 1
	for i := len(phys) - 1; i >= 0; i-- {
		rm[i] = s
		s *= phys[i]
	}
	var out refArray
	out.shape = shape
	refIndexes(shape, func(idx []int) {
		off := 0
		for i, v := range idx {
			off += v * rm[m.Axis(i)]
		}
		out.vals = append(out.vals, uint64(off))
	})
	return out
}

// refSlice lists the positions a Python slice selects on an axis of n.
func refSlice(start, stop, step, n int) []int {
	if step == expr.Omit {
		step = 1
	}
	norm := func(v int, def int) int {
		if v == expr.Omit {
			return def
		}
		if v < 0 {
			v += n
		}
		return v
	}
	var out []int
	if step > 0 {
		a, b := max(0, norm(start, 0)), min(n, norm(stop, n))
		for i := a; i < b; i += step {
			out = append(out, i)
		}
	} else {
		a, b := min(n-1, norm(start, n-1)), max(-1, norm(stop, -1))
		for i := a; i > b; i += step {
			out = append(out, i)
		}
	}
	return out
}

// refOp is one operation as the generator made it.
type refOp struct {
	kind  byte // 'i' subscript, 't' transpose, 'r' reshape
	items []refItem
	ints  []int
}

type refItem struct {
	kind              byte // 's' slice, 'n' integer, 'N' None, 'E' ellipsis
	start, stop, step int
}

func (it refItem) item() expr.Item {
	switch it.kind {
	case 'n':
		return expr.At(it.start)
	case 'N':
		return expr.NewAxis()
	case 'E':
		return expr.Ellipsis()
	}
	return expr.Span(it.start, it.stop, it.step)
}

func refApply(a refArray, op refOp) refArray {
	switch op.kind {
	case 't':
		perm := op.ints
		if perm == nil {
			for i := len(a.shape) - 1; i >= 0; i-- {
				perm = append(perm, i)
			}
		}
		var out refArray
		for _, p := range perm {
			out.shape = append(out.shape, a.shape[(p+len(a.shape))%len(a.shape)])
		}
		src := make([]int, len(a.shape))
		refIndexes(out.shape, func(idx []int) {
			for i, p := range perm {
				src[(p+len(a.shape))%len(a.shape)] = idx[i]
			}
			out.vals = append(out.vals, a.vals[refFlat(a.shape, src)])
		})
		return out
	case 'r':
		shape := slices.Clone(op.ints)
		known := 1
		for _, d := range shape {
			if d != -1 {
				known *= d
			}
		}
		for i, d := range shape {
			if d == -1 {
				shape[i] = len(a.vals) / known
			}
		}
		return refArray{shape: shape, vals: a.vals}
	}
	// Subscript: expand the ellipsis, then one position list per item.
	items := op.items
	indexed := 0
	for _, it := range items {
		if it.kind == 's' || it.kind == 'n' {
			indexed++
		}
	}
	var full []refItem
	hasEllipsis := false
	for _, it := range items {
		if it.kind == 'E' {
			hasEllipsis = true
			for range len(a.shape) - indexed {
				full = append(full, refItem{kind: 's', start: expr.Omit, stop: expr.Omit, step: expr.Omit})
			}
			continue
		}
		full = append(full, it)
	}
	if !hasEllipsis {
		for range len(a.shape) - indexed {
			full = append(full, refItem{kind: 's', start: expr.Omit, stop: expr.Omit, step: expr.Omit})
		}
	}
	type axisMap struct {
		src  int   // source axis, -1 for a new axis
		pos  []int // positions; one for an integer
		keep bool
	}
	var maps []axisMap
	axis := 0
	var outShape []int
	for _, it := range full {
		switch it.kind {
		case 'N':
			maps = append(maps, axisMap{src: -1, pos: []int{0}, keep: true})
			outShape = append(outShape, 1)
		case 'n':
			i := it.start
			if i < 0 {
				i += a.shape[axis]
			}
			maps = append(maps, axisMap{src: axis, pos: []int{i}})
			axis++
		default:
			p := refSlice(it.start, it.stop, it.step, a.shape[axis])
			maps = append(maps, axisMap{src: axis, pos: p, keep: true})
			outShape = append(outShape, len(p))
			axis++
		}
	}
	out := refArray{shape: outShape}
	src := make([]int, len(a.shape))
	refIndexes(outShape, func(idx []int) {
		k := 0
		for _, m := range maps {
			v := m.pos[0]
			if m.keep {
				v = m.pos[idx[k]]
				k++
			}
			if m.src >= 0 {
				src[m.src] = v
			}
		}
		out.vals = append(out.vals, a.vals[refFlat(a.shape, src)])
	})
	return out
}

func refFlat(shape, idx []int) int {
	off := 0
	for i, v := range idx {
		off = off*shape[i] + v
	}
	return off
}

// randomChain makes a valid random chain of 1 to 4 operations on shape.
func randomChain(r *rand.Rand, shape []int) []refOp {
	var ops []refOp
	cur := refArray{shape: slices.Clone(shape), vals: make([]uint64, refSize(shape))}
	for range 1 + r.IntN(4) {
		var op refOp
		nd := len(cur.shape)
		switch k := r.IntN(10); {
		case k < 5:
			op.kind = 'i'
			ell := r.IntN(3) == 0
			for axis := 0; axis < nd; axis++ {
				if r.IntN(5) == 0 {
					op.items = append(op.items, refItem{kind: 'N'})
				}
				if ell && r.IntN(2) == 0 {
					op.items = append(op.items, refItem{kind: 'E'})
					ell = false
					axis += r.IntN(nd - axis + 1)
					if axis >= nd {
						break
					}
				}
				n := cur.shape[axis]
				switch r.IntN(4) {
				case 0:
					if n > 0 {
						op.items = append(op.items, refItem{kind: 'n', start: r.IntN(2*n) - n})
						continue
					}
					fallthrough
				default:
					b := func() int {
						if r.IntN(4) == 0 {
							return expr.Omit
						}
						return r.IntN(2*n+5) - n - 2
					}
					step := expr.Omit
					if r.IntN(2) == 0 {
						step = []int{1, 2, 3, -1, -2, -3}[r.IntN(6)]
					}
					op.items = append(op.items, refItem{kind: 's', start: b(), stop: b(), step: step})
				}
			}
			if r.IntN(6) == 0 {
				op.items = append(op.items, refItem{kind: 'N'})
			}
		case k < 8:
			op.kind = 't'
			if r.IntN(3) > 0 {
				op.ints = r.Perm(nd)
				if nd > 0 && r.IntN(3) == 0 {
					op.ints[0] -= nd
				}
			}
		default:
			op.kind = 'r'
			size := refSize(cur.shape)
			var shape []int
			rest := size
			for rest > 1 && len(shape) < 4 {
				ds := divisors(rest)
				d := ds[r.IntN(len(ds))]
				shape = append(shape, d)
				rest /= d
			}
			if rest != 1 || size == 0 {
				shape = append(shape, rest)
			}
			if r.IntN(4) == 0 {
				shape = append(shape, 1)
			}
			r.Shuffle(len(shape), func(i, j int) { shape[i], shape[j] = shape[j], shape[i] })
			if len(shape) > 0 && size > 0 && r.IntN(2) == 0 {
				shape[r.IntN(len(shape))] = -1
			}
			op.ints = shape
		}
		ops = append(ops, op)
		cur = refApply(cur, op)
	}
	return ops
}

func divisors(n int) []int {
	var ds []int
	for d := 1; d <= n; d++ {
		if n%d == 0 {
			ds = append(ds, d)
		}
	}
	return ds
}

func buildChain(x expr.Expr, ops []refOp) expr.Expr {
	e := x
	for _, op := range ops {
		switch op.kind {
		case 'i':
			items := make([]expr.Item, len(op.items))
			for i, it := range op.items {
				items[i] = it.item()
			}
			e = expr.Subscript(e, items...)
		case 't':
			e = expr.Transpose(e, op.ints...)
		default:
			e = expr.Reshape(e, op.ints...)
		}
	}
	return e
}

var elemTypes = []arrow.DataType{arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Uint16, arrow.PrimitiveTypes.Uint32, arrow.PrimitiveTypes.Uint64}

// checkRandom builds a random input type, column and chain from r and
// compares Eval, EvalInto, Apply and Simplify against the reference.
func checkRandom(t *testing.T, r *rand.Rand) {
	nd := r.IntN(4)
	shape := make([]int, nd)
	for i := range shape {
		shape[i] = 1 + r.IntN(5)
	}
	var perm []int
	if r.IntN(2) == 0 {
		perm = r.Perm(nd)
	}
	m := metadata.MustNew(shape, nil, perm)
	elem := elemTypes[r.IntN(len(elemTypes))]
	ops := randomChain(r, shape)
	typ := fixedshape.MustNewType(elem, m)
	e := buildChain(expr.Input(typ), ops)
	if err := expr.Check(e); err != nil {
		t.Fatalf("%s: %v", e, err)
	}
	defer func() {
		if v := recover(); v != nil {
			t.Fatalf("panic on %s over %v %v: %v\n%s", e, elem, m, v, debug.Stack())
		}
	}()
	want := refInput(m)
	for _, op := range ops {
		want = refApply(want, op)
	}
	if diff := cmp.Diff(want.shape, e.Metadata().Shape(), cmp.Comparer(func(a, b []int) bool { return slices.Equal(a, b) })); diff != "" {
		t.Fatalf("%s: shape (-want +got):\n%s", e, diff)
	}
	p, err := expr.Parse(e.String(), expr.Input(typ))
	if err != nil || !expr.Equal(e, p) {
		t.Fatalf("Parse(%q) = %v, %v", e, p, err)
	}
	simple := expr.Simplify(e)
	if diff := cmp.Diff(want.shape, simple.Metadata().Shape(), cmp.Comparer(func(a, b []int) bool { return slices.Equal(a, b) })); diff != "" {
		t.Fatalf("Simplify(%s) = %s: shape (-want +got):\n%s", e, simple, diff)
	}

	mem := testvec.CheckedMem(t)
	n := r.IntN(5)
	data := make([]uint64, (n+2)*m.Size())
	valid := make([]bool, n+2)
	for i := range valid {
		valid[i] = r.IntN(4) > 0
		for k := range m.Size() {
			data[i*m.Size()+k] = uint64(i*m.Size() + k)
		}
	}
	full := fromUint64(t, typ, data, valid)
	defer full.Release()
	in := array.NewSlice(full, 1, int64(n+1)).(*fixedshape.Array)
	defer in.Release()
	for _, ex := range []expr.Expr{e, simple} {
		plan, err := expr.CompilePlan(ex)
		if err != nil {
			t.Fatalf("CompilePlan(%s): %v", ex, err)
		}
		out, err := plan.Eval(in, expr.WithAllocator(mem), expr.WithWorkers(1+r.IntN(2)))
		if refSize(want.shape) == 0 {
			if !errors.Is(err, arrow.ErrNotImplemented) {
				t.Fatalf("%s: Eval of an empty result = %v, want ErrNotImplemented", ex, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("Eval(%s): %v", ex, err)
		}
		got := toUint64(t, out.(*fixedshape.Array))
		var wantAll []uint64
		for i := range n {
			for _, v := range want.vals {
				if valid[i+1] {
					v += uint64((i + 1) * m.Size())
				} else {
					v = 0
				}
				wantAll = append(wantAll, truncate(v, elem))
			}
			if out.IsValid(i) != valid[i+1] {
				t.Fatalf("%s: tensor %d validity %v, want %v", ex, i, out.IsValid(i), valid[i+1])
			}
		}
		if diff := cmp.Diff(wantAll, got, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("Eval(%s) over %v %v, plan\n%s\n(-want +got):\n%s", ex, elem, m, plan, diff)
		}
		out.Release()
		relabel, err := plan.Eval(in, expr.WithAllocator(mem), expr.WithRelabel())
		if err != nil {
			t.Fatalf("Eval(%s, WithRelabel): %v", ex, err)
		}
		if diff := cmp.Diff(wantAll, logicalUint64(t, relabel.(*fixedshape.Array)), cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("Eval(%s, WithRelabel) (-want +got):\n%s", ex, diff)
		}
		relabel.Release()
		if n > 0 && valid[1] {
			checkApply(t, plan, in, elem, wantAll[:len(want.vals)])
		}
	}
}

func truncate(v uint64, elem arrow.DataType) uint64 {
	switch elem.ID() {
	case arrow.UINT8:
		return uint64(uint8(v))
	case arrow.UINT16:
		return uint64(uint16(v))
	case arrow.UINT32:
		return uint64(uint32(v))
	}
	return v
}

func fromUint64(t *testing.T, typ *fixedshape.Type, data []uint64, valid []bool) *fixedshape.Array {
	t.Helper()
	var a *fixedshape.Array
	var err error
	switch typ.ElemType().ID() {
	case arrow.UINT8:
		a, err = fixedshape.FromSlice(typ, convert[uint8](data), valid)
	case arrow.UINT16:
		a, err = fixedshape.FromSlice(typ, convert[uint16](data), valid)
	case arrow.UINT32:
		a, err = fixedshape.FromSlice(typ, convert[uint32](data), valid)
	default:
		a, err = fixedshape.FromSlice(typ, data, valid)
	}
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func convert[T uint8 | uint16 | uint32 | uint64](xs []uint64) []T {
	out := make([]T, len(xs))
	for i, x := range xs {
		out[i] = T(x)
	}
	return out
}

// toUint64 returns the physical values of a.
func toUint64(t *testing.T, a *fixedshape.Array) []uint64 {
	t.Helper()
	switch a.TensorType().ElemType().ID() {
	case arrow.UINT8:
		return widen(colValues[uint8](t, a))
	case arrow.UINT16:
		return widen(colValues[uint16](t, a))
	case arrow.UINT32:
		return widen(colValues[uint32](t, a))
	}
	return colValues[uint64](t, a)
}

// logicalUint64 returns the values of a in logical order.
func logicalUint64(t *testing.T, a *fixedshape.Array) []uint64 {
	t.Helper()
	switch a.TensorType().ElemType().ID() {
	case arrow.UINT8:
		return widen(logical[uint8](t, a))
	case arrow.UINT16:
		return widen(logical[uint16](t, a))
	case arrow.UINT32:
		return widen(logical[uint32](t, a))
	}
	return logical[uint64](t, a)
}

func colValues[T fixedshape.Elem](t *testing.T, a *fixedshape.Array) []T {
	c, err := fixedshape.ColumnOf[T](a)
	if err != nil {
		t.Fatal(err)
	}
	return slices.Clone(c.Values())
}

func logical[T fixedshape.Elem](t *testing.T, a *fixedshape.Array) []T {
	c, err := fixedshape.ColumnOf[T](a)
	if err != nil {
		t.Fatal(err)
	}
	var out []T
	for i := range c.Len() {
		if c.IsNull(i) {
			out = append(out, make([]T, a.TensorType().ListSize())...)
			continue
		}
		out = c.Tensor(i).AppendLogical(out)
	}
	return out
}

func widen[T uint8 | uint16 | uint32](xs []T) []uint64 {
	out := make([]uint64, len(xs))
	for i, x := range xs {
		out[i] = uint64(x)
	}
	return out
}

func checkApply(t *testing.T, p *expr.Plan, in *fixedshape.Array, elem arrow.DataType, want []uint64) {
	t.Helper()
	var got []uint64
	switch elem.ID() {
	case arrow.UINT8:
		got = widen(applyFirst[uint8](t, p, in))
	case arrow.UINT16:
		got = widen(applyFirst[uint16](t, p, in))
	case arrow.UINT32:
		got = widen(applyFirst[uint32](t, p, in))
	default:
		got = applyFirst[uint64](t, p, in)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("Apply(%s) (-want +got):\n%s", p.Expr(), diff)
	}
}

func applyFirst[T fixedshape.Elem](t *testing.T, p *expr.Plan, in *fixedshape.Array) []T {
	c, err := fixedshape.ColumnOf[T](in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := expr.Apply(p, nil, c.Tensor(0))
	if err != nil {
		t.Fatal(err)
	}
	return out.AppendLogical(nil)
}

func TestEvalMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for i := range 2000 {
		t.Run(fmt.Sprint(i), func(t *testing.T) { checkRandom(t, r) })
	}
}

func FuzzEval(f *testing.F) {
	for i := range 8 {
		f.Add(uint64(i), uint64(i*31+1))
	}
	f.Fuzz(func(t *testing.T, a, b uint64) {
		checkRandom(t, rand.New(rand.NewPCG(a, b)))
	})
}

var cmpEmpty = cmpopts.EquateEmpty()
