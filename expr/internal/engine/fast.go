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
				if !ws.stream {
					numeric.BinaryF32(op, dd, x, y)
					continue
				}
				s := scratchOf[float32](ws, 2, n)
				numeric.BinaryF32(op, s, x, y)
				numeric.StreamF32(dd, s)
			}
			return
		}
	}
	for w.next() {
		n := w.inner
		dd := d[w.off[0] : w.off[0]+n]
		if !ws.stream {
			runF32(op, rop, dd, a, b, w.off[1], w.off[2], w.step[1], w.step[2])
			continue
		}
		// Computed into a buffer in L1, streamed to the output.
		s := scratchOf[float32](ws, 2, streamElems)
		for k := 0; k < n; k += streamElems {
			m := min(streamElems, n-k)
			runF32(op, rop, s[:m], a, b, w.off[1]+k*w.step[1], w.off[2]+k*w.step[2], w.step[1], w.step[2])
			numeric.StreamF32(dd[k:k+m], s[:m])
		}
	}
}

// streamElems is the elements of one computed piece streamed to an
// output.
const streamElems = 2048

// runF32 sets d to a op b, a and b from offsets oa and ob by steps sa
// and sb (0 or 1).
func runF32(op, rop numeric.Op, d, a, b []float32, oa, ob, sa, sb int) {
	switch {
	case sa == 1 && sb == 1:
		numeric.BinaryF32(op, d, a[oa:], b[ob:])
	case sa == 1:
		numeric.BinaryScalarF32(op, d, a[oa:], b[ob])
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
