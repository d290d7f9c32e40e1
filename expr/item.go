package expr

import (
	"math"
	"strconv"
)

// Omit stands for an absent slice bound or step in Span, as an empty
// place in `a:b:c` or None in Python's slice(None, 3) does.
const Omit = math.MinInt

type itemKind uint8

const (
	itemSlice    itemKind = iota // start:stop:step
	itemInt                      // an integer: selects one position, drops the axis
	itemNewAxis                  // None: inserts an axis of size 1
	itemEllipsis                 // ...: as many full slices as needed
)

// Item is one entry of a NumPy basic index, as written between the
// brackets of `x[...]`: a slice (Span, All), an integer (At), a new axis
// (NewAxis) or an ellipsis (Ellipsis). The zero Item is the full slice `:`.
// Items are small values compared with ==.
type Item struct {
	kind              itemKind
	has               uint8 // hasStart | hasStop | hasStep: which places are written
	start, stop, step int   // 0 when absent; start is the integer of an itemInt
}

const (
	hasStart = 1 << iota
	hasStop
	hasStep
)

// All returns the full slice `:`, the zero Item.
func All() Item { return Item{} }

// Span returns the slice start:stop:step with Python semantics: negative
// bounds count from the end, bounds are clipped to the axis, a negative
// step walks backwards, and Omit leaves a place empty (start and stop then
// default to the ends the step walks from and to, the step to 1). A step
// of 0 is an error reported when the index is applied.
func Span(start, stop, step int) Item {
	it := Item{kind: itemSlice}
	if start != Omit {
		it.has |= hasStart
		it.start = start
	}
	if stop != Omit {
		it.has |= hasStop
		it.stop = stop
	}
	if step != Omit {
		it.has |= hasStep
		it.step = step
	}
	return it
}

// From returns the slice `start:`, from start to the end of the axis
// (negative start counts from the end): Span(start, Omit, Omit) without
// the sentinel.
func From(start int) Item { return Item{kind: itemSlice, has: hasStart, start: start} }

// To returns the slice `:stop`, from the start of the axis up to stop
// excluded (negative stop counts from the end).
func To(stop int) Item { return Item{kind: itemSlice, has: hasStop, stop: stop} }

// Range returns the slice `start:stop`, with step 1.
func Range(start, stop int) Item {
	return Item{kind: itemSlice, has: hasStart | hasStop, start: start, stop: stop}
}

// Step returns the slice `::step`, the whole axis every step elements
// (backwards from the end for a negative step).
func Step(step int) Item { return Item{kind: itemSlice, has: hasStep, step: step} }

// By returns the slice it with step step: From(2).By(2) is `2::2`,
// To(0).By(-1) is `:0:-1`. On an item that is not a slice (At, NewAxis,
// Ellipsis) it returns it unchanged.
func (it Item) By(step int) Item {
	if it.kind != itemSlice {
		return it
	}
	it.has |= hasStep
	it.step = step
	return it
}

// bound returns the start, stop and step with Omit for absent places.
func (it Item) bound() (start, stop, step int) {
	start, stop, step = Omit, Omit, Omit
	if it.has&hasStart != 0 {
		start = it.start
	}
	if it.has&hasStop != 0 {
		stop = it.stop
	}
	if it.has&hasStep != 0 {
		step = it.step
	}
	return start, stop, step
}

// At returns the integer index i, which selects one position of an axis
// and drops the axis; negative i counts from the end.
func At(i int) Item { return Item{kind: itemInt, start: i} }

// NewAxis returns None (numpy.newaxis), which inserts an axis of size 1.
func NewAxis() Item { return Item{kind: itemNewAxis} }

// Ellipsis returns `...`, which stands for full slices over every axis the
// other items do not index. An index has at most one.
func Ellipsis() Item { return Item{kind: itemEllipsis} }

// String returns the item's canonical text: `1:3`, `::-1`, `:`, `5`,
// `None`, `...`.
func (it Item) String() string { return string(it.appendText(nil)) }

func (it Item) appendText(b []byte) []byte {
	switch it.kind {
	case itemInt:
		return strconv.AppendInt(b, int64(it.start), 10)
	case itemNewAxis:
		return append(b, "None"...)
	case itemEllipsis:
		return append(b, "..."...)
	}
	start, stop, step := it.bound()
	if start != Omit {
		b = strconv.AppendInt(b, int64(start), 10)
	}
	b = append(b, ':')
	if stop != Omit {
		b = strconv.AppendInt(b, int64(stop), 10)
	}
	if step != Omit {
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(step), 10)
	}
	return b
}

// indices resolves a slice on an axis of size n as Python's
// slice.indices does: the first position, a stop position, the step and
// the number of positions selected. It requires step != 0.
func (it Item) indices(n int) (start, stop, step, count int) {
	s0, s1, st := it.bound()
	step = 1
	if st != Omit {
		step = st
	}
	lower, upper := 0, n
	if step < 0 {
		lower, upper = -1, n-1
	}
	clip := func(v, def int) int {
		if v == Omit {
			return def
		}
		if v < 0 {
			v += n
			if v < lower {
				v = lower
			}
		} else if v > upper {
			v = upper
		}
		return v
	}
	if step > 0 {
		start, stop = clip(s0, lower), clip(s1, upper)
		if stop > start {
			count = (stop-start-1)/step + 1
		}
	} else {
		start, stop = clip(s0, upper), clip(s1, lower)
		if start > stop {
			count = (start-stop-1)/(-step) + 1
		}
	}
	return start, stop, step, count
}

// reduced returns the canonical slice selecting first, first+step, ...
// (count positions) on an axis of size n, as ndindex's Slice.reduce(shape)
// writes it: 0:0 when empty, first:first+1 for one position, otherwise
// first:stop:step with stop one past the last position in the step's
// direction (-n-1 when that is before position 0).
func reduced(first, step, count, n int) Item {
	switch count {
	case 0:
		return Span(0, 0, Omit)
	case 1:
		return Span(first, first+1, Omit)
	}
	last := first + (count-1)*step
	stop := last + 1
	if step < 0 {
		stop = last - 1
		if stop < 0 {
			stop = -n - 1
		}
	}
	if step == 1 {
		step = Omit
	}
	return Span(first, stop, step)
}

// reduceSlice returns the canonical form of the slice it on an axis of
// size n, as ndindex's Slice.reduce(shape) computes it (step 1 printed
// without its place), and the number of positions it selects. It fails,
// with an error wrapping arrow.ErrInvalid, when it is not a slice, n is
// negative or the step is 0.
func reduceSlice(it Item, n int) (Item, int, error) {
	switch {
	case it.kind != itemSlice:
		return Item{}, 0, errorf("%s is not a slice", it)
	case n < 0:
		return Item{}, 0, errorf("negative axis size %d", n)
	case it.has&hasStep != 0 && it.step == 0:
		return Item{}, 0, errorf("slice step cannot be zero")
	}
	first, _, step, count := it.indices(n)
	return reduced(first, step, count, n), count, nil
}

// indices returns what Python's slice(start, stop, step).indices(n) returns
// for the slice it on an axis of size n: the start, stop and step with
// negatives and clipping resolved, and the number of positions selected.
// It has reduceSlice's errors.
func indices(it Item, n int) (start, stop, step, count int, err error) {
	if _, _, err := reduceSlice(it, n); err != nil {
		return 0, 0, 0, 0, err
	}
	start, stop, step, count = it.indices(n)
	return start, stop, step, count, nil
}
