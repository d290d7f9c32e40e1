package expr

import (
	"slices"
	"sort"

	"github.com/fstensor/fstensor/stride"
)

// nest is the loop nest of a pass: dims outermost first, and for each
// operand the element stride of each dim. Operand 0 is the source, 1 the
// destination (the store's dense result, or the reduction's accumulator,
// stride 0 on reduced dims), 2 the position ArgMax and ArgMin report, then
// one per constant (instructions in order, then the similarity's).
type nest struct {
	dims []int
	st   [][]int
	ks   []*konst // the constants of operands 3...
}

const (
	opSrc = iota
	opDst
	opArg
	opK
)

// maxTile bounds the elements of a constant expanded so that a short
// innermost axis (image channels) can merge with the axis around it.
const maxTile = 1 << 14

// buildNest lays out p's loops: for a store, in the result's row-major
// order; for a reduction, in the source's memory order (axes by
// decreasing source stride), so each source element is read once in
// order. Axes of size 1 are dropped, and neighbours that every operand
// steps through alike are merged. A constant that alone keeps the
// innermost axis from merging with the next one, and is constant over
// every other axis, is expanded over the two (up to maxTile elements).
func (p *pass) buildNest() nest {
	nd := len(p.shape)
	var nt nest
	dst := stride.RowMajor(nil, p.shape)
	arg := make([]int, nd)
	if r := p.red; r != nil {
		outSt := stride.RowMajor(nil, r.outShape)
		k := 0
		for a := range nd {
			if r.red[a] {
				dst[a] = 0
			} else {
				dst[a] = outSt[k]
				k++
			}
		}
		if !r.sim && (r.kind == ArgMax || r.kind == ArgMin) {
			if r.argAxis >= 0 {
				arg[r.argAxis] = 1
			} else {
				arg = stride.RowMajor(nil, p.shape)
			}
		}
	}
	ops := [][]int{p.strides, dst, arg}
	for _, in := range p.prog {
		if in.k != nil {
			ops = append(ops, in.k.strides)
			nt.ks = append(nt.ks, in.k)
		}
	}
	if p.red != nil && p.red.c != nil {
		ops = append(ops, p.red.c.strides)
		nt.ks = append(nt.ks, p.red.c)
	}
	order := make([]int, 0, nd)
	for a := range nd {
		if p.shape[a] != 1 {
			order = append(order, a)
		}
	}
	if p.red != nil {
		sort.SliceStable(order, func(i, j int) bool { return abs(p.strides[order[i]]) > abs(p.strides[order[j]]) })
	}
	for _, a := range order {
		nt.dims = append(nt.dims, p.shape[a])
	}
	nt.st = make([][]int, len(ops))
	for o, s := range ops {
		for _, a := range order {
			nt.st[o] = append(nt.st[o], s[a])
		}
	}
	if len(nt.dims) == 0 || slices.Contains(nt.dims, 0) {
		// One element (0-D), or none: a single run.
		n := 1
		if len(nt.dims) > 0 {
			n = 0
		}
		nt.dims = []int{n}
		for o := range nt.st {
			nt.st[o] = []int{0}
		}
		return nt
	}
	for i := len(nt.dims) - 2; i >= 0; i-- {
		j := i + 1 // merge dims i and j, the innermost pair with tiling
		merges := func(o int) bool { return nt.st[o][i] == nt.st[o][j]*nt.dims[j] }
		ok := true
		for o := range nt.st {
			if !merges(o) && (o < opK || j != len(nt.dims)-1 || !nt.tileable(o, i) || nt.dims[i]*nt.dims[j] > maxTile) {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		nt.merge(i)
	}
	nt.splitTile()
	return nt
}

// splitTile lengthens a short innermost run that constants keep from
// merging with the dim around it because expanding them over the whole
// dim would exceed maxTile: it splits that dim into (d/f, f), with f the
// largest divisor of d whose expansion fits, and merges f in (an image's
// rows of pixels, with per-channel constants, become runs of f rows).
func (nt *nest) splitTile() {
	nd := len(nt.dims)
	if nd < 2 || nt.dims[nd-1] >= maxTile/4 {
		return
	}
	i, j := nd-2, nd-1
	n, d := nt.dims[j], nt.dims[i]
	f := 0
	for g := min(d-1, maxTile/n); g >= 2; g-- {
		if d%g == 0 {
			f = g
			break
		}
	}
	if f == 0 {
		return
	}
	for o := range nt.st {
		if nt.st[o][i] != nt.st[o][j]*n && (o < opK || !nt.tileable(o, i)) {
			return
		}
	}
	// Split dim i into (d/f, f): the outer part steps f times as far.
	nt.dims = slices.Insert(nt.dims, j, f)
	nt.dims[i] = d / f
	for o := range nt.st {
		s := nt.st[o][i]
		nt.st[o] = slices.Insert(nt.st[o], j, s)
		nt.st[o][i] = s * f
	}
	// Merge the new dim j (f) with the innermost, now j+1.
	nt.merge(j)
}

// merge folds dim i+1 into dim i: one dim of both sizes' product,
// stepping as dim i+1 did. An operand whose dim i does not step over the
// whole of dim i+1 is tiled (see tile) first.
func (nt *nest) merge(i int) {
	j := i + 1
	for o := range nt.st {
		if nt.st[o][i] != nt.st[o][j]*nt.dims[j] {
			nt.tile(o, i)
		}
		nt.st[o][i] = nt.st[o][j]
	}
	nt.dims[i] *= nt.dims[j]
	nt.dims = slices.Delete(nt.dims, j, j+1)
	for o := range nt.st {
		nt.st[o] = slices.Delete(nt.st[o], j, j+1)
	}
}

// tileable reports whether constant operand o is constant over every dim
// but i and i+1, so it can be expanded over the two.
func (nt *nest) tileable(o, i int) bool {
	for a, s := range nt.st[o] {
		if a != i && a != i+1 && s != 0 {
			return false
		}
	}
	return true
}

// tile replaces constant operand o by its values over dims i and i+1 in
// row-major order, with stride 1 on dim i+1 and dims[i+1] on dim i.
func (nt *nest) tile(o, i int) {
	k := nt.ks[o-opK]
	si, sj := nt.st[o][i], nt.st[o][i+1]
	di, dj := nt.dims[i], nt.dims[i+1]
	if k.f != nil {
		f := make([]float64, 0, di*dj)
		for a := range di {
			for b := range dj {
				f = append(f, k.f[a*si+b*sj])
			}
		}
		k.f = f
	} else {
		v := make([]int64, 0, di*dj)
		for a := range di {
			for b := range dj {
				v = append(v, k.i[a*si+b*sj])
			}
		}
		k.i = v
	}
	nt.st[o][i], nt.st[o][i+1] = dj, 1
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
