package engine

import (
	"github.com/fstensor/fstensor/internal/unsafeslice"
)

// operand is a node's values for the block: rows of rs elements, rs 0
// for a constant (its one row serves every row).
type operand struct {
	b  []byte
	rs int
}

func bytesOf[T any](s []T) []byte { return unsafeslice.Bytes(s) }

// eval evaluates node c over rows rows (from row lo of the Run) into
// dst, its arguments in ws.cur. in and lo serve the error of a runtime
// failure, which names the row unless the row is null (nil in: folding
// at Compile).
func (p *Program) eval(ws *workspace, c *cnode, dst []byte, rows, lo int, in []Column) error {
	if c.fused != nil {
		runFused(ws, c, as[float32](dst), rows)
		return nil
	}
	switch c.Op {
	case OpView:
		a := ws.cur[c.args[0]]
		if ws.stream && !p.viewsOnly {
			// An output column: written once, past the caches (a
			// views-only program runs whole ranges, which layout
			// streams when large).
			c.view.RunStream(dst, a.b, rows, a.rs)
		} else {
			c.view.Run(dst, a.b, rows, a.rs, 1)
		}
		return nil
	case OpCast:
		a := ws.cur[c.args[0]]
		castBytes(ws, dst, c.DType, a.b, c.Args[0].DType, rows*c.size)
		return nil
	case OpConcat:
		concatRows(ws, c, dst, rows)
		return nil
	}
	// The computing nodes: float16 operands are widened to float32, and
	// a float16 result computed in float32 and rounded.
	var args [3]operand
	dt := c.Args[0].DType
	if c.Op == OpWhere {
		dt = c.DType
	}
	for i, a := range c.args {
		args[i] = ws.cur[a]
		if c.Args[i].DType == Float16 && !(c.packed != nil && i == 1) {
			args[i] = widen(ws, 6+i, args[i], p.nodes[a].size, rows)
		}
	}
	if dt == Float16 {
		dt = Float32
	}
	out, odt := dst, c.DType
	narrow := c.DType == Float16 && c.Op != OpReduce && c.Op != OpSimilarity
	if narrow {
		odt = Float32
		out = bytesOf(scratchOf[float32](ws, 9, rows*c.size))
	}
	if err := p.compute(ws, c, out, odt, dt, args[:len(c.args)], rows, lo, in); err != nil {
		return err
	}
	if narrow {
		f32to16(as[uint16](dst), as[float32](out))
	}
	return nil
}

// widen returns a float16 operand widened to float32 into scratch i.
func widen(ws *workspace, i int, a operand, size, rows int) operand {
	n := size
	if a.rs != 0 {
		n = rows * a.rs
	}
	f := scratchOf[float32](ws, i, n)
	f16to32(f, as[uint16](a.b)[:n])
	return operand{b: bytesOf(f), rs: a.rs}
}

// compute evaluates a computing node with operands of type dt (never
// Float16) into d of type odt.
func (p *Program) compute(ws *workspace, c *cnode, d []byte, odt, dt DType, args []operand, rows, lo int, in []Column) error {
	switch c.Op {
	case OpUnary:
		unary(c.Fn, dt, d, args[0].b)
	case OpBinary:
		ws.rs = append(ws.rs[:0], args[0].rs, args[1].rs)
		c.ewise.setup(ws, c, rows, ws.rs)
		if !binaryOf(ws, c.Fn, dt, d, args[0].b, args[1].b) {
			return p.powError(c, args, rows, lo, in)
		}
	case OpWhere:
		ws.rs = append(ws.rs[:0], args[0].rs, args[1].rs, args[2].rs)
		c.ewise.setup(ws, c, rows, ws.rs)
		whereOf(ws, dt.Width(), d, args[0].b, args[1].b, args[2].b)
	default:
		typed(ws, c, d, odt, dt, args, rows)
	}
	return nil
}

// typed enters the reductions, similarities and products by the operand
// type.
func typed(ws *workspace, c *cnode, d []byte, odt, dt DType, args []operand, rows int) {
	switch dt {
	case Bool, Uint8:
		typedOf[uint8](ws, c, d, odt, args, rows)
	case Int8:
		typedOf[int8](ws, c, d, odt, args, rows)
	case Int16:
		typedOf[int16](ws, c, d, odt, args, rows)
	case Int32:
		typedOf[int32](ws, c, d, odt, args, rows)
	case Int64:
		typedOf[int64](ws, c, d, odt, args, rows)
	case Uint16:
		typedOf[uint16](ws, c, d, odt, args, rows)
	case Uint32:
		typedOf[uint32](ws, c, d, odt, args, rows)
	case Uint64:
		typedOf[uint64](ws, c, d, odt, args, rows)
	case Float32:
		typedOf[float32](ws, c, d, odt, args, rows)
	case Float64:
		typedOf[float64](ws, c, d, odt, args, rows)
	}
}

func typedOf[T number](ws *workspace, c *cnode, d []byte, odt DType, args []operand, rows int) {
	a := as[T](args[0].b)
	switch c.Op {
	case OpReduce:
		reduceRows(ws, c, d, odt, a, args[0].rs, rows)
	case OpSimilarity:
		simRows(ws, c, d, odt, a, as[T](args[1].b), args[0].rs, args[1].rs, rows)
	case OpMatMul:
		matmulRows(c, as[T](d), a, as[T](args[1].b), args[0].rs, args[1].rs, rows)
	}
}

// powError returns the error of an integer Pow with a negative exponent
// at the first row not null, or nil when every such row is null.
func (p *Program) powError(c *cnode, args []operand, rows, lo int, in []Column) error {
	for r := range rows {
		if in != nil && rowNull(in, c.reads, lo+r) {
			continue
		}
		if hasNegative(c, args[1], r) {
			if in == nil {
				return errorf("integers to negative integer powers are not allowed")
			}
			return errorf("row %d: integers to negative integer powers are not allowed", lo+r)
		}
	}
	return nil
}

// hasNegative reports whether row r of the exponent b holds a negative
// value.
func hasNegative(c *cnode, b operand, r int) bool {
	n := c.Args[1]
	size, _ := sizeOf(n.Shape)
	w := n.DType.Width()
	row := b.b[r*b.rs*w : (r*b.rs+size)*w]
	for j := range size {
		var neg bool
		switch n.DType {
		case Int8:
			neg = int8(row[j]) < 0
		case Int16:
			neg = as[int16](row)[j] < 0
		case Int32:
			neg = as[int32](row)[j] < 0
		case Int64:
			neg = as[int64](row)[j] < 0
		}
		if neg {
			return true
		}
	}
	return false
}
