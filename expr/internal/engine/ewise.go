package engine

import "github.com/fstensor/fstensor/internal/numeric"

// chunk is the elements of one kernel call of the element-wise loops: a
// broadcast operand is filled (or tiled) into a chunk-sized buffer.
const chunk = 512

// pick returns n elements of operand s from off stepping by step (1, or
// 0: the one value s[off] filled into fill, refilled when fresh).
func pick[T any](s []T, off, step, n int, fill []T, fresh bool) []T {
	if step == 1 {
		return s[off : off+n]
	}
	f := fill[:n]
	if fresh {
		v := s[off]
		for i := range f {
			f[i] = v
		}
	}
	return f
}

// periodic reports whether the walk is two dimensions (outer, inner)
// whose inner runs are short, with every operand either contiguous,
// repeating the same inner run (outer stride 0) or one value: the case
// of a per-channel constant over an image. It returns the runs per
// kernel call.
func periodic(w *walker) int {
	if len(w.dims) != 2 || w.inner*2 > chunk {
		return 0
	}
	rep := false
	for k := range w.n {
		so, si := w.st[k][0], w.st[k][1]
		switch {
		case si == 1 && so == w.inner:
		case si == 1 && so == 0:
			rep = true
		case si == 0 && so == 0:
		default:
			return 0
		}
	}
	if !rep {
		return 0
	}
	return chunk / w.inner
}

// tile returns operand s of a periodic walk for g runs from run o: a
// slice of a contiguous operand, or its inner run (or value) repeated g
// times into fill (done once, when fresh).
func tile[T any](w *walker, k int, s []T, o, g int, fill []T, fresh bool) []T {
	n := g * w.inner
	so, si := w.st[k][0], w.st[k][1]
	if so != 0 {
		return s[o*so : o*so+n]
	}
	f := fill[:n]
	if fresh {
		for i := range f {
			f[i] = s[(i%w.inner)*si]
		}
	}
	return f
}

// walk2 runs kern over the walk of ws.w set up for destination d and
// operands a and b (dense or broadcast), chunk elements at a time.
func walk2[D, T any](ws *workspace, d []D, a, b []T, kern func(d []D, a, b []T)) {
	w := &ws.w
	fa, fb := scratchOf[T](ws, 0, chunk), scratchOf[T](ws, 1, chunk)
	if g := periodic(w); g > 0 {
		outer := w.dims[0]
		for o := 0; o < outer; o += g {
			m := min(g, outer-o)
			n := m * w.inner
			kern(d[o*w.inner:o*w.inner+n], tile(w, 1, a, o, m, fa, o == 0), tile(w, 2, b, o, m, fb, o == 0))
		}
		return
	}
	for w.next() {
		for s := 0; s < w.inner; s += chunk {
			m := min(chunk, w.inner-s)
			kern(d[w.off[0]+s:w.off[0]+s+m],
				pick(a, w.off[1]+s*w.step[1], w.step[1], m, fa, s == 0),
				pick(b, w.off[2]+s*w.step[2], w.step[2], m, fb, s == 0))
		}
	}
}

// walk3 is walk2 for Where's three operands (numeric.Select).
func walk3[T number](ws *workspace, d []T, c []uint8, a, b []T) {
	w := &ws.w
	fc, fa, fb := scratchOf[uint8](ws, 2, chunk), scratchOf[T](ws, 0, chunk), scratchOf[T](ws, 1, chunk)
	for w.next() {
		for s := 0; s < w.inner; s += chunk {
			m := min(chunk, w.inner-s)
			numeric.Select(d[w.off[0]+s:w.off[0]+s+m],
				pick(c, w.off[1]+s*w.step[1], w.step[1], m, fc, s == 0),
				pick(a, w.off[2]+s*w.step[2], w.step[2], m, fa, s == 0),
				pick(b, w.off[3]+s*w.step[3], w.step[3], m, fb, s == 0))
		}
	}
}
