package testvec

import "iter"

// Indices yields every index of shape in row-major order (the last axis
// fastest), each in a slice of its own; nothing for a shape with a size-0
// axis, one empty index for a 0-D shape.
func Indices(shape []int) iter.Seq[[]int] {
	return func(yield func([]int) bool) {
		for _, d := range shape {
			if d <= 0 {
				return
			}
		}
		idx := make([]int, len(shape))
		for {
			if !yield(append([]int{}, idx...)) {
				return
			}
			k := len(idx) - 1
			for ; k >= 0; k-- {
				if idx[k]++; idx[k] < shape[k] {
					break
				}
				idx[k] = 0
			}
			if k < 0 {
				return
			}
		}
	}
}
