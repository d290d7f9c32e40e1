package stride

import "sort"

// CheckPermutation reports an error unless perm is a permutation of
// 0..n-1 where n == len(perm). A nil permutation is the identity and valid.
func CheckPermutation(perm []int) error {
	n := len(perm)
	var small [64]bool
	seen := small[:0]
	if n <= len(small) {
		seen = small[:n]
	} else {
		seen = make([]bool, n)
	}
	for _, p := range perm {
		if p < 0 || p >= n {
			return invalid("permutation", perm, "has axis %d out of range [0, %d)", p, n)
		}
		if seen[p] {
			return invalid("permutation", perm, "repeats axis %d", p)
		}
		seen[p] = true
	}
	return nil
}

// Identity appends to dst[:0] the identity permutation of n axes.
func Identity(dst []int, n int) []int {
	dst = resize(dst, n)
	for i := range dst {
		dst[i] = i
	}
	return dst
}

// IsIdentity reports whether perm is nil or the identity.
func IsIdentity(perm []int) bool {
	for i, p := range perm {
		if p != i {
			return false
		}
	}
	return true
}

// Invert appends to dst[:0] the inverse of perm: inv[perm[i]] = i.
// perm must be valid ([CheckPermutation]).
func Invert(dst, perm []int) []int {
	dst = resize(dst, len(perm))
	for i, p := range perm {
		dst[p] = i
	}
	return dst
}

// Compose appends to dst[:0] the permutation r with r[i] = p[q[i]]:
// applying q after p, as numpy.transpose(numpy.transpose(a, p), q) equals
// numpy.transpose(a, r). Both must be valid and of equal length.
func Compose(dst, p, q []int) []int {
	dst = resize(dst, len(q))
	for i, x := range q {
		dst[i] = p[x]
	}
	return dst
}

// Gather appends to dst[:0] the values xs[perm[i]] for each i: the
// reordering numpy.transpose applies to a shape or to strides.
func Gather[T any](dst, xs []T, perm []int) []T {
	dst = resize(dst, len(perm))
	for i, p := range perm {
		dst[i] = xs[p]
	}
	return dst
}

// Scatter appends to dst[:0] the values with out[perm[i]] = xs[i]: the
// inverse of [Gather].
func Scatter[T any](dst, xs []T, perm []int) []T {
	dst = resize(dst, len(perm))
	for i, p := range perm {
		dst[p] = xs[i]
	}
	return dst
}

// PhysicalShape appends to dst[:0] the physical (row-major storage) shape
// of a tensor with the given logical shape and permutation: P[perm[i]] = L[i].
// A nil permutation copies the shape.
func PhysicalShape(dst, logicalShape, perm []int) []int {
	if perm == nil {
		return append(dst[:0], logicalShape...)
	}
	return Scatter(dst, logicalShape, perm)
}

// LogicalShape appends to dst[:0] the logical shape of a tensor with the
// given physical shape and permutation: L[i] = P[perm[i]].
func LogicalShape(dst, physicalShape, perm []int) []int {
	if perm == nil {
		return append(dst[:0], physicalShape...)
	}
	return Gather(dst, physicalShape, perm)
}

// Dense decides whether element strides describe a dense layout of shape
// (every element of a buffer of NumElements(shape) elements reached exactly
// once, possibly in permuted order) and, if so, returns the permutation p
// with Logical(shape, p) agreeing with strides on every axis of size > 1.
//
// The strides of axes of size 1 are ignored, since such an axis never
// moves: NumPy, PyTorch and DLPack producers put arbitrary values there.
// Axes of size > 1 are ordered outermost first by decreasing stride; each
// axis of size 1 is placed just before the next axis of size > 1 in logical
// order (last if none follows). The result is therefore the identity for
// every C-contiguous layout and does not depend on the ignored strides.
// A shape with no elements is dense whatever its strides and gets the
// identity. Negative or zero strides on axes of size > 1 are not dense, nor
// is a length mismatch. The shape must be valid ([CheckShape]).
func Dense(shape, strides []int) (perm []int, ok bool) {
	n := len(shape)
	if len(strides) != n {
		return nil, false
	}
	if product(shape) == 0 {
		return Identity(nil, n), true
	}
	// Axes of size > 1, outermost first.
	moving := make([]int, 0, n)
	for i, d := range shape {
		if d != 1 {
			moving = append(moving, i)
		}
	}
	sort.SliceStable(moving, func(a, b int) bool {
		return strides[moving[a]] > strides[moving[b]]
	})
	want := 1
	for k := len(moving) - 1; k >= 0; k-- {
		i := moving[k]
		if strides[i] != want {
			return nil, false
		}
		want *= shape[i]
	}
	// order[k] is the logical axis stored as physical axis k.
	order := make([]int, 0, n)
	for _, a := range moving {
		for i := a - 1; i >= 0 && shape[i] == 1; i-- {
			if i == 0 || shape[i-1] != 1 {
				for j := i; j < a; j++ {
					order = append(order, j)
				}
				break
			}
		}
		order = append(order, a)
	}
	for i := n - 1; i >= 0 && shape[i] == 1; i-- {
		if i == 0 || shape[i-1] != 1 {
			for j := i; j < n; j++ {
				order = append(order, j)
			}
			break
		}
	}
	return Invert(nil, order), true
}
