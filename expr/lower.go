package expr

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/expr/internal/engine"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/half"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/stride"
	"github.com/fstensor/fstensor/varshape"
)

// The lowering of a graph expression to an engine graph: every NumPy
// rule is decided here, before data (type promotion with explicit casts,
// broadcasting, index arithmetic as views, non-negative axes, matmul and
// einsum as views, matmuls, products and sums).

// lowerer lowers the graphs of one program against a schema.
type lowerer struct {
	text    string // the text parsed, for errors; "" for a built graph
	schema  *arrow.Schema
	x       int // the column x stands for; -1: none
	load    func(string) (Const, error)
	inputs  []engine.Input
	cols    []int // the schema's column of each input
	colNode map[int]*engine.Node
	memo    map[*gnode]val
	xOnly   bool // the text reads x only (Parse)
	// rows reads a variable-shape column as one row shape (gvar.go);
	// nil refuses variable-shape columns.
	rows map[int]rowInput
}

// val is a lowered value: an engine node, or a Python scalar (n nil)
// whose type its partner decides (NEP 50).
type val struct {
	n *engine.Node
	w Const
}

func newLowerer(text string, schema *arrow.Schema, x int, o options) *lowerer {
	return &lowerer{text: text, schema: schema, x: x, load: o.load, colNode: map[int]*engine.Node{}, memo: map[*gnode]val{}}
}

// errAt returns the *Error of msg at g's place in the text.
func (l *lowerer) errAt(g *gnode, kind error, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if l.text == "" || g.pos < 0 {
		return newErrorOf(kind, "", -1, msg)
	}
	return newErrorOf(kind, l.text, g.pos, msg)
}

func (l *lowerer) errorf(g *gnode, format string, args ...any) error {
	return l.errAt(g, nil, format, args...)
}

// lower returns the value of g, lowering each node of the graph once.
func (l *lowerer) lower(g *gnode) (val, error) {
	if v, ok := l.memo[g]; ok {
		return v, nil
	}
	v, err := l.lowerNode(g)
	if err != nil {
		return val{}, err
	}
	l.memo[g] = v
	return v, nil
}

// node lowers g to a node: a Python scalar becomes a 0-D tensor of
// NumPy's default type for it (int64, float64).
func (l *lowerer) node(g *gnode) (*engine.Node, error) {
	v, err := l.lower(g)
	if err != nil {
		return nil, err
	}
	return l.materialize(v), nil
}

func (l *lowerer) materialize(v val) *engine.Node {
	if v.n != nil {
		return v.n
	}
	if v.w.weak == weakInt {
		return constNode(v.w, engine.Int64)
	}
	return constNode(v.w, engine.Float64)
}

func (l *lowerer) lowerNode(g *gnode) (val, error) {
	switch g.op {
	case gX, gCol:
		n, err := l.column(g)
		return val{n: n}, err
	case gConst:
		if g.c.err != nil {
			return val{}, l.errorf(g, "%s", errMsg(g.c.err))
		}
		if g.c.scalar() {
			return val{w: g.c}, nil
		}
		return val{n: constNode(g.c, etype(g.c.dt))}, nil
	case gLoad:
		if l.load == nil {
			return val{}, l.errorf(g, "load(%q) needs the WithLoad option, which reads constants for the text", g.name)
		}
		c, err := l.load(g.name)
		if err == nil {
			err = c.err
		}
		if err != nil {
			return val{}, newErrorOf(err, l.text, max(g.pos, -1), fmt.Sprintf("load(%q): %s", g.name, errMsg(err)))
		}
		if c.scalar() {
			return val{w: c}, nil
		}
		return val{n: constNode(c, etype(c.dt))}, nil
	case gUnary:
		return l.unary(g)
	case gBinary:
		return l.binary(g)
	case gWhere:
		n, err := l.where(g)
		return val{n: n}, err
	case gIndex, gTranspose, gReshape:
		n, err := l.view(g)
		return val{n: n}, err
	case gAstype:
		x, err := l.node(g.args[0])
		if err != nil {
			return val{}, err
		}
		switch {
		case g.keep:
			return val{n: castTo(x, engine.Bool)}, nil
		case g.dt == dtNone:
			return val{}, l.errorf(g, "astype: not a numeric or bool element type")
		}
		return val{n: castTo(x, etype(g.dt))}, nil
	case gClip:
		n, err := l.clip(g)
		return val{n: n}, err
	case gReduce:
		n, err := l.reduce(g)
		return val{n: n}, err
	case gSim:
		n, err := l.similarity(g)
		return val{n: n}, err
	case gMatMul:
		n, err := l.matmul(g)
		return val{n: n}, err
	case gConcat, gStack:
		n, err := l.join(g)
		return val{n: n}, err
	case gEinsum:
		n, err := l.einsum(g)
		return val{n: n}, err
	}
	return val{}, l.errorf(g, "unknown operation %d", g.op)
}

// errMsg returns the message of an *Error without its prefix and place.
func errMsg(err error) string {
	if e, ok := err.(*Error); ok {
		return e.Msg
	}
	return err.Error()
}

// column returns the node of the column g names: an input of its
// physical shape, under a view for a permuted layout.
func (l *lowerer) column(g *gnode) (*engine.Node, error) {
	i := l.x
	if g.op == gX {
		if i < 0 {
			return nil, l.errorf(g, "x names no column: the schema has %s, and x stands for the chosen input column or the only tensor column", columnList(l.schema))
		}
	} else {
		ix := l.schema.FieldIndices(g.name)
		if l.xOnly {
			return nil, l.errorf(g, "expected the input name x, not %q", g.name)
		}
		if len(ix) == 0 {
			return nil, l.errorf(g, "unknown column %q: the schema has %s", g.name, columnList(l.schema))
		}
		i = ix[0]
	}
	if n, ok := l.colNode[i]; ok {
		return n, nil
	}
	f := l.schema.Field(i)
	var in engine.Input
	var logical []int
	var strides []int
	switch t := f.Type.(type) {
	case *fixedshape.Type:
		in.DType = etypeOf(t.ElemType())
		in.Shape = t.PhysicalShape()
		logical, strides = t.Shape(), t.ElemStrides()
	default:
		if vt, ok := varshape.TypeOf(f.Type); ok {
			r, ok := l.rows[i]
			if !ok {
				return nil, l.errAt(g, arrow.ErrNotImplemented, "column %q is variable-shape: expressions that combine columns or go beyond one chain read fixed-shape and plain columns only", f.Name)
			}
			in.DType = etypeOf(vt.ElemType())
			in.Shape = r.phys
			logical, strides = r.logical, r.strides
			break
		}
		if u, ok := fixedshape.UnsupportedOf(f.Type); ok {
			return nil, l.errorf(g, "column %q: %v", f.Name, u.Reason())
		}
		in.DType = etypeOf(f.Type)
		in.Shape = []int{}
	}
	if in.DType == engine.Invalid {
		return nil, l.errorf(g, "column %q is %v: not a tensor or numeric column", f.Name, f.Type)
	}
	n := &engine.Node{Op: engine.OpInput, Input: len(l.inputs), DType: in.DType, Shape: slices.Clone(in.Shape)}
	l.inputs = append(l.inputs, in)
	l.cols = append(l.cols, i)
	if logical != nil && !slices.Equal(strides, stride.RowMajor(nil, logical)) {
		n = &engine.Node{Op: engine.OpView, Args: []*engine.Node{n}, DType: n.DType, Shape: logical, Strides: strides}
	}
	l.colNode[i] = n
	return n, nil
}

// etype returns the engine type of a dtype.
func etype(d dtype) engine.DType {
	return [...]engine.DType{dtNone: engine.Invalid, dtI8: engine.Int8, dtI16: engine.Int16, dtI32: engine.Int32, dtI64: engine.Int64,
		dtU8: engine.Uint8, dtU16: engine.Uint16, dtU32: engine.Uint32, dtU64: engine.Uint64,
		dtF16: engine.Float16, dtF32: engine.Float32, dtF64: engine.Float64}[d]
}

// dtOf returns the dtype of an engine type (dtNone for Bool).
func dtOf(t engine.DType) dtype {
	for d := dtI8; d <= dtF64; d++ {
		if etype(d) == t {
			return d
		}
	}
	return dtNone
}

// etypeOf returns the engine type of an Arrow element type, Invalid
// for the others.
func etypeOf(t arrow.DataType) engine.DType {
	if t.ID() == arrow.BOOL {
		return engine.Bool
	}
	return etype(dtypeOf(t))
}

// arrowOf returns the Arrow type of an engine type.
func arrowOf(t engine.DType) arrow.DataType {
	if t == engine.Bool {
		return arrow.FixedWidthTypes.Boolean
	}
	return dtOf(t).arrow()
}

func isFloat(t engine.DType) bool { return t >= engine.Float16 }

// typeName is NumPy's name of an engine type.
func typeName(t engine.DType) string {
	if t == engine.Bool {
		return "bool"
	}
	return dtOf(t).String()
}

// promoteTypes is NumPy's promotion of two array types: bool is below
// every number.
func promoteTypes(a, b engine.DType) engine.DType {
	switch {
	case a == engine.Bool:
		return b
	case b == engine.Bool:
		return a
	}
	return etype(promote(dtOf(a), dtOf(b)))
}

// cast returns x converted to t (x itself when it is of type t).
func castTo(x *engine.Node, t engine.DType) *engine.Node {
	if x.DType == t {
		return x
	}
	return &engine.Node{Op: engine.OpCast, Args: []*engine.Node{x}, DType: t, Shape: x.Shape}
}

// constNode returns the node of constant c in type t: values converted
// as NumPy's astype does.
func constNode(c Const, t engine.DType) *engine.Node {
	n := len(c.f) + len(c.i)
	shape := c.shape
	if c.scalar() {
		shape = []int{}
	}
	w := 1
	if t != engine.Bool {
		w = dtOf(t).width()
	}
	data := make([]byte, n*w)
	for k := range n {
		b := data[k*w:]
		switch d := dtOf(t); {
		case t == engine.Bool:
			if c.value(k) != 0 {
				b[0] = 1
			}
		case d == dtF16:
			binary.LittleEndian.PutUint16(b, half.FromFloat64(c.value(k)))
		case d == dtF32:
			binary.LittleEndian.PutUint32(b, math.Float32bits(float32(c.value(k))))
		case d == dtF64:
			binary.LittleEndian.PutUint64(b, math.Float64bits(c.value(k)))
		default:
			var v int64
			if c.f != nil {
				v = floatToInt(c.f[k], d)
			} else {
				v = wrapTo(c.i[k], d)
			}
			for j := range w {
				b[j] = byte(uint64(v) >> (8 * j))
			}
		}
	}
	return &engine.Node{Op: engine.OpConst, DType: t, Shape: slices.Clone(shape), Data: data}
}

// viewOf returns the base node, offset and strides of x as a view of a
// dense node: x itself with row-major strides unless x is a view.
func viewOf(x *engine.Node) (*engine.Node, int, []int) {
	if x.Op == engine.OpView {
		return x.Args[0], x.Offset, slices.Clone(x.Strides)
	}
	return x, 0, stride.RowMajor(nil, x.Shape)
}

// newView returns the view of base at offset with shape and strides, or
// base itself when that is all of it in order.
func newView(base *engine.Node, offset int, shape, strides []int) *engine.Node {
	if offset == 0 && slices.Equal(shape, base.Shape) && slices.Equal(strides, stride.RowMajor(nil, shape)) {
		return base
	}
	return &engine.Node{Op: engine.OpView, Args: []*engine.Node{base}, DType: base.DType, Shape: shape, Offset: offset, Strides: strides}
}

// view lowers an index, a transpose or a reshape.
func (l *lowerer) view(g *gnode) (*engine.Node, error) {
	x, err := l.node(g.args[0])
	if err != nil {
		return nil, err
	}
	base, off, st := viewOf(x)
	var shape, strides []int
	switch g.op {
	case gIndex:
		sels, err := resolve(g.items, x.Shape)
		if err != nil {
			return nil, l.errorf(g, "%s", errMsg(err))
		}
		for _, s := range sels {
			if s.axis >= 0 {
				off += s.first * st[s.axis]
			}
			switch {
			case s.count < 0:
			case s.axis < 0:
				shape, strides = append(shape, 1), append(strides, 0)
			default:
				shape, strides = append(shape, s.count), append(strides, s.step*st[s.axis])
			}
		}
	case gTranspose:
		p, err := resolvePerm(g.ints, len(x.Shape))
		if err != nil {
			return nil, l.errorf(g, "%s", errMsg(err))
		}
		shape, strides = stride.Gather(nil, x.Shape, p), stride.Gather(nil, st, p)
	default:
		size, _ := stride.NumElements(x.Shape)
		if shape, err = resolveShape(g.ints, size); err != nil {
			return nil, l.errorf(g, "%s", errMsg(err))
		}
		return reshape(x, shape), nil
	}
	if shape == nil {
		shape, strides = []int{}, []int{}
	}
	return newView(base, off, shape, strides), nil
}

// reshape returns x's elements in row-major order under shape: a view
// of x's base when x reads it in row-major order, of a dense copy of x
// otherwise.
func reshape(x *engine.Node, shape []int) *engine.Node {
	if slices.Equal(x.Shape, shape) {
		return x
	}
	base, off, st := viewOf(x)
	if !denseStrides(x.Shape, st) {
		base, off = &engine.Node{Op: engine.OpCast, Args: []*engine.Node{x}, DType: x.DType, Shape: x.Shape}, 0
	}
	return newView(base, off, slices.Clone(shape), stride.RowMajor(nil, shape))
}

// denseStrides reports whether strides read shape in row-major order
// without gaps (axes of size 1 may have any stride).
func denseStrides(shape, strides []int) bool {
	want := 1
	for i := len(shape) - 1; i >= 0; i-- {
		if shape[i] == 1 {
			continue
		}
		if strides[i] != want {
			return false
		}
		want *= shape[i]
	}
	return true
}

// broadcastTo returns x as a view of shape (NumPy's broadcast_to; shape
// is a broadcast of x's shape).
func broadcastTo(x *engine.Node, shape []int) *engine.Node {
	if slices.Equal(x.Shape, shape) {
		return x
	}
	base, off, st := viewOf(x)
	strides := make([]int, len(shape))
	lead := len(shape) - len(x.Shape)
	for i := range shape {
		if i >= lead && x.Shape[i-lead] == shape[i] {
			strides[i] = st[i-lead]
		}
	}
	return newView(base, off, slices.Clone(shape), strides)
}

// resultType returns the Arrow type of one row's result: a plain type
// for a 0-D result, a fixed-shape tensor type otherwise, its axes named
// by names (nil: none).
func resultType(n *engine.Node, names []string) (arrow.DataType, error) {
	if len(n.Shape) == 0 {
		return arrowOf(n.DType), nil
	}
	m, err := metadata.New(n.Shape, names, nil)
	if err != nil {
		return nil, errorf("result %s: %v", metadata.FormatShape(n.Shape), err)
	}
	return fixedshape.NewType(arrowOf(n.DType), m)
}
