package engine_test

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"

	"github.com/fstensor/fstensor/expr/internal/engine"
	"github.com/fstensor/fstensor/internal/half"
	"github.com/fstensor/fstensor/search"
)

// The reference evaluator: one row at a time, element by element, every
// value a float64 (floats) or an int64 (integers and bools, uint64 as its
// bits), rounded to the node's type after each operation. It shares no
// code with the engine.

type rval struct {
	f []float64
	i []int64
}

var errNegPow = errors.New("negative power")

func isF(d engine.DType) bool {
	return d == engine.Float16 || d == engine.Float32 || d == engine.Float64
}
func isU(d engine.DType) bool { return d >= engine.Uint8 && d <= engine.Uint64 }

func numel(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// roundF rounds x to float type d.
func roundF(d engine.DType, x float64) float64 {
	switch d {
	case engine.Float32:
		return float64(float32(x))
	case engine.Float16:
		return half.ToFloat64(half.FromFloat64(x))
	}
	return x
}

// wrapI wraps x to integer type d.
func wrapI(d engine.DType, x int64) int64 {
	switch d {
	case engine.Bool:
		if x != 0 {
			return 1
		}
		return 0
	case engine.Int8:
		return int64(int8(x))
	case engine.Int16:
		return int64(int16(x))
	case engine.Int32:
		return int64(int32(x))
	case engine.Uint8:
		return int64(uint8(x))
	case engine.Uint16:
		return int64(uint16(x))
	case engine.Uint32:
		return int64(uint32(x))
	}
	return x
}

// decode reads element j of type d from b.
func decode(d engine.DType, b []byte, j int) (float64, int64) {
	switch d {
	case engine.Bool, engine.Uint8:
		return 0, int64(b[j])
	case engine.Int8:
		return 0, int64(int8(b[j]))
	case engine.Int16:
		return 0, int64(int16(binary.LittleEndian.Uint16(b[2*j:])))
	case engine.Uint16:
		return 0, int64(binary.LittleEndian.Uint16(b[2*j:]))
	case engine.Int32:
		return 0, int64(int32(binary.LittleEndian.Uint32(b[4*j:])))
	case engine.Uint32:
		return 0, int64(binary.LittleEndian.Uint32(b[4*j:]))
	case engine.Int64, engine.Uint64:
		return 0, int64(binary.LittleEndian.Uint64(b[8*j:]))
	case engine.Float16:
		return half.ToFloat64(binary.LittleEndian.Uint16(b[2*j:])), 0
	case engine.Float32:
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*j:]))), 0
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(b[8*j:])), 0
}

// encode appends element (f or i) of type d to b.
func encode(b []byte, d engine.DType, f float64, i int64) []byte {
	switch d {
	case engine.Bool, engine.Uint8, engine.Int8:
		return append(b, byte(i))
	case engine.Int16, engine.Uint16:
		return binary.LittleEndian.AppendUint16(b, uint16(i))
	case engine.Int32, engine.Uint32:
		return binary.LittleEndian.AppendUint32(b, uint32(i))
	case engine.Int64, engine.Uint64:
		return binary.LittleEndian.AppendUint64(b, uint64(i))
	case engine.Float16:
		return binary.LittleEndian.AppendUint16(b, half.FromFloat64(f))
	case engine.Float32:
		return binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(f)))
	}
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(f))
}

func decodeAll(d engine.DType, b []byte, n int) rval {
	var v rval
	for j := range n {
		f, i := decode(d, b, j)
		if isF(d) {
			v.f = append(v.f, f)
		} else {
			v.i = append(v.i, i)
		}
	}
	return v
}

// refEval evaluates n for one row whose inputs are ins.
func refEval(n *engine.Node, ins []rval, memo map[*engine.Node]rval) (rval, error) {
	if v, ok := memo[n]; ok {
		return v, nil
	}
	var args []rval
	for _, a := range n.Args {
		v, err := refEval(a, ins, memo)
		if err != nil {
			return rval{}, err
		}
		args = append(args, v)
	}
	v, err := refNode(n, args, ins)
	memo[n] = v
	return v, err
}

func refNode(n *engine.Node, args []rval, ins []rval) (rval, error) {
	size := numel(n.Shape)
	switch n.Op {
	case engine.OpInput:
		return ins[n.Input], nil
	case engine.OpConst:
		return decodeAll(n.DType, n.Data, size), nil
	case engine.OpView:
		var v rval
		for _, idx := range indexes(n.Shape) {
			k := n.Offset
			for a, x := range idx {
				k += x * n.Strides[a]
			}
			if isF(n.DType) {
				v.f = append(v.f, args[0].f[k])
			} else {
				v.i = append(v.i, args[0].i[k])
			}
		}
		return v, nil
	case engine.OpCast:
		return refCast(n.Args[0].DType, n.DType, args[0]), nil
	case engine.OpUnary:
		return refUnary(n, args[0]), nil
	case engine.OpBinary, engine.OpWhere:
		return refBroadcast(n, args)
	case engine.OpReduce:
		return refReduce(n, args[0]), nil
	case engine.OpSimilarity:
		return refSim(n, args), nil
	case engine.OpMatMul:
		return refMatMul(n, args), nil
	case engine.OpConcat:
		return refConcat(n, args), nil
	}
	panic("reference: unknown op")
}

// indexes lists the multi-indexes of shape in row-major order.
func indexes(shape []int) [][]int {
	var out [][]int
	idx := make([]int, len(shape))
	for range numel(shape) {
		out = append(out, slices.Clone(idx))
		for a := len(shape) - 1; a >= 0; a-- {
			idx[a]++
			if idx[a] < shape[a] {
				break
			}
			idx[a] = 0
		}
	}
	return out
}

// bindex returns the flat index in operand shape s of output index idx,
// broadcasting.
func bindex(s, idx []int) int {
	k := 0
	off := len(idx) - len(s)
	for a, d := range s {
		x := idx[off+a]
		if d == 1 {
			x = 0
		}
		k = k*d + x
	}
	return k
}

func refCast(from, to engine.DType, a rval) rval {
	var v rval
	n := max(len(a.f), len(a.i))
	for j := range n {
		var f float64
		var i int64
		if isF(from) {
			f = a.f[j]
		} else {
			i = a.i[j]
			if from == engine.Uint64 {
				f = float64(uint64(i))
			} else {
				f = float64(i)
			}
		}
		switch {
		case isF(to):
			v.f = append(v.f, roundF(to, f))
		case to == engine.Bool:
			v.i = append(v.i, map[bool]int64{true: 1, false: 0}[f != 0 || i != 0])
		case isF(from):
			v.i = append(v.i, satInt(to, f))
		default:
			v.i = append(v.i, wrapI(to, i))
		}
	}
	return v
}

// satInt truncates f toward zero into type d, NaN 0, saturating.
func satInt(d engine.DType, f float64) int64 {
	if math.IsNaN(f) {
		return 0
	}
	f = math.Trunc(f)
	var lo, hi float64
	switch d {
	case engine.Int8:
		lo, hi = -128, 127
	case engine.Int16:
		lo, hi = -32768, 32767
	case engine.Int32:
		lo, hi = math.MinInt32, math.MaxInt32
	case engine.Uint8:
		lo, hi = 0, 255
	case engine.Uint16:
		lo, hi = 0, 65535
	case engine.Uint32:
		lo, hi = 0, math.MaxUint32
	case engine.Int64:
		if f >= 0x1p63 {
			return math.MaxInt64
		}
		if f <= -0x1p63 {
			return math.MinInt64
		}
		return int64(f)
	case engine.Uint64:
		if f >= 0x1p64 {
			return -1
		}
		if f <= 0 {
			return 0
		}
		return int64(uint64(f))
	}
	return int64(math.Max(lo, math.Min(hi, f)))
}

func refSim(n *engine.Node, args []rval) rval {
	d := n.Args[0].DType
	x, y := args[0], args[1]
	if !isF(d) {
		if n.Metric == search.MetricDot && !isF(n.DType) {
			var s int64
			for j := range x.i {
				s += wrapI(d, x.i[j]*y.i[j])
			}
			return rval{i: []int64{s}}
		}
		for j := range x.i {
			if d == engine.Uint64 {
				x.f = append(x.f, float64(uint64(x.i[j])))
				y.f = append(y.f, float64(uint64(y.i[j])))
				continue
			}
			x.f = append(x.f, float64(x.i[j]))
			y.f = append(y.f, float64(y.i[j]))
		}
	}
	// Accumulated in the element type, as package search does (a float32
	// dot may overflow where a float64 one would not).
	acc := n.DType
	if !isF(acc) || acc == engine.Float16 {
		acc = engine.Float32
	}
	if !isF(d) {
		acc = engine.Float64
	}
	rd := func(v float64) float64 { return roundF(acc, v) }
	var dot, xx, yy, l2 float64
	for j := range x.f {
		dot = rd(dot + rd(x.f[j]*y.f[j]))
		xx = rd(xx + rd(x.f[j]*x.f[j]))
		yy = rd(yy + rd(y.f[j]*y.f[j]))
		l2 = rd(l2 + rd(rd(x.f[j]-y.f[j])*rd(x.f[j]-y.f[j])))
	}
	var r float64
	switch n.Metric {
	case search.MetricDot:
		r = dot
	case search.MetricCosine:
		r = rd(dot / rd(rd(math.Sqrt(xx))*rd(math.Sqrt(yy))))
	case search.MetricL2:
		r = math.Sqrt(l2)
	default:
		r = l2
	}
	return refStore(n.DType, r)
}

func refStore(d engine.DType, r float64) rval {
	if isF(d) {
		return rval{f: []float64{roundF(d, r)}}
	}
	return rval{i: []int64{satInt(d, r)}}
}

func refMatMul(n *engine.Node, args []rval) rval {
	as, bs := n.Args[0].Shape, n.Args[1].Shape
	r := len(as)
	m, k, nn := as[r-2], as[r-1], bs[r-1]
	batch := numel(as[:r-2])
	d := n.DType
	acc := d
	if d == engine.Float16 {
		acc = engine.Float32
	}
	var v rval
	for t := range batch {
		for i := range m {
			for j := range nn {
				var f float64
				var s int64
				for p := range k {
					ai, bi := t*m*k+i*k+p, t*k*nn+p*nn+j
					if isF(d) {
						f = roundF(acc, f+roundF(acc, args[0].f[ai]*args[1].f[bi]))
					} else {
						s = wrapI(d, s+args[0].i[ai]*args[1].i[bi])
					}
				}
				if isF(d) {
					v.f = append(v.f, roundF(d, f))
				} else {
					v.i = append(v.i, s)
				}
			}
		}
	}
	return v
}

func refConcat(n *engine.Node, args []rval) rval {
	var v rval
	for _, idx := range indexes(n.Shape) {
		x := idx[n.Axis]
		for ai, a := range n.Args {
			if x < a.Shape[n.Axis] {
				j := slices.Clone(idx)
				j[n.Axis] = x
				k := bindex(a.Shape, j)
				if isF(n.DType) {
					v.f = append(v.f, args[ai].f[k])
				} else {
					v.i = append(v.i, args[ai].i[k])
				}
				break
			}
			x -= a.Shape[n.Axis]
		}
	}
	return v
}
