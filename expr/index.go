package expr

// sel is what one NumPy basic index does to one axis: the source axis it
// reads (-1 for a new axis), the first position and step, and the number
// of positions it keeps (-1 when an integer drops the axis).
type sel struct {
	axis, first, step, count int
}

// resolve applies the basic index items to shape: one sel per source axis
// in order, with the new axes interleaved where they appear in the result.
// Errors use NumPy's wording.
func resolve(items []Item, shape []int) ([]sel, error) {
	nd := len(shape)
	indexed, ellipses := 0, 0
	for _, it := range items {
		switch it.kind {
		case itemSlice, itemInt:
			indexed++
		case itemEllipsis:
			ellipses++
		}
	}
	if ellipses > 1 {
		return nil, errorf("an index can only have a single ellipsis ('...')")
	}
	if indexed > nd {
		return nil, errorf("too many indices for array: array is %d-dimensional, but %d were indexed", nd, indexed)
	}
	sels := make([]sel, 0, nd+len(items)-indexed)
	axis := 0
	full := func(a int) sel { return sel{axis: a, first: 0, step: 1, count: shape[a]} }
	for _, it := range items {
		switch it.kind {
		case itemNewAxis:
			sels = append(sels, sel{axis: -1, step: 0, count: 1})
		case itemEllipsis:
			for range nd - indexed {
				sels = append(sels, full(axis))
				axis++
			}
		case itemInt:
			n := shape[axis]
			i := it.start
			if i < -n || i >= n {
				return nil, errorf("index %d is out of bounds for axis %d with size %d", i, axis, n)
			}
			if i < 0 {
				i += n
			}
			sels = append(sels, sel{axis: axis, first: i, step: 1, count: -1})
			axis++
		default:
			if it.has&hasStep != 0 && it.step == 0 {
				return nil, errorf("slice step cannot be zero")
			}
			first, _, step, count := it.indices(shape[axis])
			if count == 0 {
				first, step = 0, 1
			}
			sels = append(sels, sel{axis: axis, first: first, step: step, count: count})
			axis++
		}
	}
	for ; axis < nd; axis++ {
		sels = append(sels, full(axis))
	}
	return sels, nil
}
