package engine

import "github.com/fstensor/fstensor/internal/numeric"

// The float32 fast paths: + - * / run numeric's AVX2 kernels on whole
// runs, with a broadcast value as the kernels' scalar and an operand
// repeated along the outer axes tiled once per call.

// tileElems is the length of a tiled operand of the float32 paths.
const tileElems = 4096

var f32Ops = map[Fn][2]numeric.Op{
	Add: {numeric.Add, numeric.Add},
	Sub: {numeric.Sub, numeric.RSub},
	Mul: {numeric.Mul, numeric.Mul},
	Div: {numeric.Div, numeric.RDiv},
}

// boundOps are maximum and minimum with one number as numeric's Max and
// Min run them (a NaN of the tensor kept; the number must not be NaN).
var boundOps = map[Fn]numeric.Op{Maximum: numeric.Max, Minimum: numeric.Min}

// cmps are the comparisons as numeric.Compare names them (AVX2 for
// float32 and uint8 operands).
var cmps = map[Fn]numeric.Cmp{
	Less: numeric.CmpLT, LessEqual: numeric.CmpLE, Greater: numeric.CmpGT,
	GreaterEqual: numeric.CmpGE, Equal: numeric.CmpEQ, NotEqual: numeric.CmpNE,
}

// u8Ops are the operations numeric.BinaryInt runs on integer operands
// (AVX2, 32 bytes at a time for 8-, 16- and 32-bit integers; sums,
// differences and products wrap as NumPy's).
var u8Ops = map[Fn]numeric.U8Op{
	Add: numeric.U8Add, Sub: numeric.U8Sub, Mul: numeric.U8Mul, Minimum: numeric.U8Min,
	Maximum: numeric.U8Max, And: numeric.U8And, Or: numeric.U8Or, Xor: numeric.U8Xor,
}

// walkF32 evaluates op (rop: with the operands swapped) over the walk
// set up in ws; d may be a or b exactly.
func walkF32(ws *workspace, op, rop numeric.Op, d, a, b []float32) {
	w := &ws.w
	if len(w.dims) == 2 && w.inner*2 <= tileElems {
		if g := periodicRuns(w, tileElems); g > 0 {
			ta, tb := scratchOf[float32](ws, 0, g*w.inner), scratchOf[float32](ws, 1, g*w.inner)
			outer := w.dims[0]
			for o := 0; o < outer; o += g {
				m := min(g, outer-o)
				n := m * w.inner
				dd := d[o*w.inner : o*w.inner+n]
				x, y := tile(w, 1, a, o, m, ta, o == 0), tile(w, 2, b, o, m, tb, o == 0)
				if ws.stream {
					numeric.BinaryStreamF32(op, dd, x, y)
				} else {
					numeric.BinaryF32(op, dd, x, y)
				}
			}
			return
		}
	}
	runs := w.left - 1
	for k := 0; w.next(); k++ {
		n := w.inner
		if ws.stream && op == numeric.Div && w.step[1] == 1 && w.step[2] == 0 {
			// Each row divided by its value (a normalization): the
			// kernel spreads the next block's prefetches over its stores.
			numeric.DivScalarStreamPrefetchF32(d[w.off[0]:w.off[0]+n], a[w.off[1]:], b[w.off[2]], ws.shareNext(k, runs))
			continue
		}
		runF32(op, rop, d[w.off[0]:w.off[0]+n], a, b, w.off[1], w.off[2], w.step[1], w.step[2], ws.stream)
		if ws.stream {
			// The next block's inputs load while this one is written.
			ws.prefetchNext(k, runs)
		}
	}
}

// runF32 sets d to a op b, a and b from offsets oa and ob by steps sa
// and sb (0 or 1); with stream, d (an output column, which a or b never
// overlap) is written with non-temporal stores.
func runF32(op, rop numeric.Op, d, a, b []float32, oa, ob, sa, sb int, stream bool) {
	switch {
	case sa == 1 && sb == 1 && stream:
		numeric.BinaryStreamF32(op, d, a[oa:], b[ob:])
	case sa == 1 && sb == 1:
		numeric.BinaryF32(op, d, a[oa:], b[ob:])
	case sa == 1 && op == numeric.Div && stream:
		numeric.DivScalarStreamF32(d, a[oa:], b[ob])
	case sa == 1 && op == numeric.Div:
		numeric.DivScalarF32(d, a[oa:], b[ob])
	case sa == 1 && stream:
		numeric.BinaryScalarStreamF32(op, d, a[oa:], b[ob])
	case sa == 1:
		numeric.BinaryScalarF32(op, d, a[oa:], b[ob])
	case sb == 1 && stream:
		numeric.BinaryScalarStreamF32(rop, d, b[ob:], a[oa])
	case sb == 1:
		numeric.BinaryScalarF32(rop, d, b[ob:], a[oa])
	default:
		var v [1]float32
		numeric.BinaryScalarF32(op, v[:], a[oa:], b[ob])
		for j := range d {
			d[j] = v[0]
		}
	}
}

// periodicRuns is periodic for a tile of about elems elements: the runs
// of one call, a multiple of 8 (so that streamed pieces stay aligned).
func periodicRuns(w *walker, elems int) int {
	if periodic(w) == 0 {
		return 0
	}
	return max(8, elems/w.inner&^7)
}
