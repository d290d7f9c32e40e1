package engine

// walker visits an n-dimensional loop nest as runs of its innermost
// dimension, for up to four operands with element strides: after
// coalescing, each run is inner elements long and operand k starts at
// off[k] and steps by step[k] (0 or 1 for the engine's dense buffers and
// broadcasts).
type walker struct {
	dims  []int
	st    [4][]int
	idx   []int
	off   [4]int
	step  [4]int
	inner int
	n     int
	left  int // runs left
}

// init sets up the walk of dims (outermost first) with strides st[k] per
// operand (len(dims) each), reusing w's slices; it coalesces dimensions
// of size 1 and dimensions that are contiguous for every operand.
func (w *walker) init(dims []int, st [][]int) {
	w.n = len(st)
	w.dims = w.dims[:0]
	for k := range w.n {
		w.st[k] = w.st[k][:0]
	}
	total := 1
	for i, d := range dims {
		total *= d
		if d == 1 {
			continue
		}
		last := len(w.dims) - 1
		merge := last >= 0
		for k := range w.n {
			if merge && w.st[k][last] != st[k][i]*d {
				merge = false
			}
		}
		if merge {
			w.dims[last] *= d
			for k := range w.n {
				w.st[k][last] = st[k][i]
			}
			continue
		}
		w.dims = append(w.dims, d)
		for k := range w.n {
			w.st[k] = append(w.st[k], st[k][i])
		}
	}
	if total == 0 {
		w.left = 0
		return
	}
	if len(w.dims) == 0 {
		w.dims = append(w.dims, 1)
		for k := range w.n {
			w.st[k] = append(w.st[k], 0)
		}
	}
	last := len(w.dims) - 1
	w.inner = w.dims[last]
	w.left = total / w.inner
	for k := range w.n {
		w.step[k] = w.st[k][last]
		w.off[k] = 0
	}
	w.idx = w.idx[:0]
	for range last {
		w.idx = append(w.idx, 0)
	}
	w.left++ // the first next returns the start
	w.idx = append(w.idx, -1)
}

// next moves to the next run; false when the walk is over.
func (w *walker) next() bool {
	if w.left <= 0 {
		return false
	}
	w.left--
	if w.left == 0 {
		return false
	}
	last := len(w.idx) - 1
	if w.idx[last] == -1 {
		w.idx[last] = 0
		return true
	}
	for i := last - 1; i >= 0; i-- {
		w.idx[i]++
		for k := range w.n {
			w.off[k] += w.st[k][i]
		}
		if w.idx[i] < w.dims[i] {
			return true
		}
		for k := range w.n {
			w.off[k] -= w.st[k][i] * w.dims[i]
		}
		w.idx[i] = 0
	}
	return true
}
