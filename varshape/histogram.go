package varshape

import (
	"cmp"
	"slices"
)

// ShapeCount is one entry of a shape histogram: a logical shape and the
// number of valid rows that have it.
type ShapeCount struct {
	Shape []int
	Rows  int
}

// Shapes returns the histogram of the logical shapes of a's valid rows,
// most frequent first (ties in shape order), for summaries such as a
// command's inspect. It validates a first and fails like [Array.Validate].
func Shapes(a *Array) ([]ShapeCount, error) {
	raw, err := a.Raw()
	if err != nil {
		return nil, err
	}
	t := a.TensorType()
	index := make(map[string]int)
	var out []ShapeCount
	key := make([]byte, 0, 4*raw.NDim)
	for i := range a.Len() {
		if a.IsNull(i) {
			continue
		}
		shape := raw.Shapes[i*raw.NDim : (i+1)*raw.NDim]
		key = key[:0]
		for _, d := range shape {
			key = append(key, byte(d), byte(d>>8), byte(d>>16), byte(d>>24))
		}
		if k, ok := index[string(key)]; ok {
			out[k].Rows++
			continue
		}
		phys := make([]int, len(shape))
		for k, d := range shape {
			phys[k] = int(d)
		}
		logical := phys
		if t.perm != nil {
			logical = make([]int, len(phys))
			for k, p := range t.perm {
				logical[k] = phys[p]
			}
		}
		index[string(key)] = len(out)
		out = append(out, ShapeCount{Shape: logical, Rows: 1})
	}
	slices.SortFunc(out, func(x, y ShapeCount) int {
		if c := cmp.Compare(y.Rows, x.Rows); c != 0 {
			return c
		}
		return slices.Compare(x.Shape, y.Shape)
	})
	return out, nil
}
