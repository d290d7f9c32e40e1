package validate

import (
	"math"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
)

// checkValues runs the checks of dt's own buffers and of the lengths of
// its children, once the buffer sizes and children types are known
// good, and before the children are checked.
func checkValues(path pathT, dt arrow.DataType, d arrow.ArrayData) error {
	switch dt := dt.(type) {
	case *arrow.StringType:
		return checkBinary[int32](path, d, true)
	case *arrow.BinaryType:
		return checkBinary[int32](path, d, false)
	case *arrow.LargeStringType:
		return checkBinary[int64](path, d, true)
	case *arrow.LargeBinaryType:
		return checkBinary[int64](path, d, false)
	case *arrow.BinaryViewType, *arrow.StringViewType:
		return checkViews(path, d)
	case *arrow.ListType, *arrow.MapType:
		return checkList[int32](path, d)
	case *arrow.LargeListType:
		return checkList[int64](path, d)
	case *arrow.ListViewType:
		return checkListView[int32](path, d)
	case *arrow.LargeListViewType:
		return checkListView[int64](path, d)
	case *arrow.FixedSizeListType:
		return checkFixedSizeList(path, dt, d)
	case *arrow.StructType:
		return checkChildLengths(path, dt, d)
	case *arrow.SparseUnionType:
		if err := checkChildLengths(path, dt, d); err != nil {
			return err
		}
		return checkUnion(path, dt, d)
	case *arrow.DenseUnionType:
		return checkUnion(path, dt, d)
	case *arrow.DictionaryType:
		return checkDictionary(path, dt, d)
	}
	return nil
}

// checkAfter runs the checks that read the values of children, once the
// children are known good.
func checkAfter(path pathT, dt arrow.DataType, d arrow.ArrayData) error {
	switch dt := dt.(type) {
	case *arrow.MapType:
		return checkMapKeys(path, dt, d)
	case *arrow.RunEndEncodedType:
		return checkRunEnds(path, dt, d)
	}
	return nil
}

func valid(bitmap []byte, i int) bool { return bitmap == nil || bitutil.BitIsSet(bitmap, i) }

// validity returns the validity bitmap of d, nil when it has none.
func validity(d arrow.ArrayData) []byte {
	if bufs := d.Buffers(); len(bufs) > 0 && bufs[0] != nil && d.NullN() != 0 {
		return bufs[0].Bytes()
	}
	return nil
}

// values returns the count values of type T that buffer i of d holds from
// d's offset on, or an error when it is shorter.
func values[T arrow.FixedWidthType](path pathT, d arrow.ArrayData, i, count int) ([]T, error) {
	var zero T
	w := int(sizeOf(zero))
	off := d.Offset()
	buf := d.Buffers()[i]
	size := 0
	if buf != nil {
		size = buf.Len()
	}
	if off > math.MaxInt-count || size/w < off+count {
		return nil, errorf(path, -1, "buffer %d has %d bytes, %d values of %d bytes from offset %d need more", i, size, count, w, off)
	}
	if count == 0 {
		return nil, nil
	}
	b := buf.Bytes()
	return arrow.GetData[T](b[:size/w*w])[off : off+count], nil
}

func sizeOf[T arrow.FixedWidthType](T) uintptr {
	var z T
	switch any(z).(type) {
	case int8, uint8:
		return 1
	case int16, uint16:
		return 2
	case int32, uint32:
		return 4
	}
	return 8
}

// checkOffsets checks length+1 offsets: non-negative, non-decreasing and
// at most limit (the bytes of the data, the elements of the child).
func checkOffsets[T int32 | int64](path pathT, offs []T, limit int64, unit string) error {
	prev := offs[0]
	if prev < 0 || int64(prev) > limit {
		return errorf(path, 0, "value starts at offset %d, outside the %d %s", prev, limit, unit)
	}
	for i, o := range offs[1:] {
		if o < prev {
			return errorf(path, i, "value ends at offset %d before it starts at %d", o, prev)
		}
		if int64(o) > limit {
			return errorf(path, i, "value ends at offset %d, past the %d %s", o, limit, unit)
		}
		prev = o
	}
	return nil
}

// checkBinary checks the offsets of a binary or string array and, for
// strings, the UTF-8 of the non-null values.
func checkBinary[T int32 | int64](path pathT, d arrow.ArrayData, utf bool) error {
	n := d.Len()
	if n == 0 {
		return nil
	}
	offs, err := values[T](path, d, 1, n+1)
	if err != nil {
		return err
	}
	var data []byte
	if buf := d.Buffers()[2]; buf != nil {
		data = buf.Bytes()
	}
	if err := checkOffsets(path, offs, int64(len(data)), "bytes of data"); err != nil {
		return err
	}
	if !utf {
		return nil
	}
	lo, hi := offs[0], offs[n]
	if utf8.Valid(data[lo:hi]) {
		whole := true // every value starts a rune: each is valid
		for _, o := range offs[1:n] {
			if o < hi && !utf8.RuneStart(data[o]) {
				whole = false
				break
			}
		}
		if whole {
			return nil
		}
	}
	bitmap, off := validity(d), d.Offset()
	for i := range n {
		if v := data[offs[i]:offs[i+1]]; valid(bitmap, off+i) && !utf8.Valid(v) {
			return errorf(path, i, "invalid UTF-8 %q", v[:min(len(v), 32)])
		}
	}
	return nil
}

// checkViews checks a binary or string view array with arrow-go's
// ValidateFull.
func checkViews(path pathT, d arrow.ArrayData) error {
	if d.Len() == 0 {
		return nil
	}
	arr := array.MakeFromData(d)
	defer arr.Release()
	v, ok := arr.(interface{ ValidateFull() error })
	if !ok {
		return errorf(path, -1, "arrow-go cannot validate %v", d.DataType())
	}
	if err := v.ValidateFull(); err != nil {
		return errorf(path, -1, "%v", err)
	}
	return nil
}

// checkList checks the offsets of a list, large list or map array
// against its child.
func checkList[T int32 | int64](path pathT, d arrow.ArrayData) error {
	n := d.Len()
	if n == 0 {
		return nil
	}
	offs, err := values[T](path, d, 1, n+1)
	if err != nil {
		return err
	}
	return checkOffsets(path, offs, int64(d.Children()[0].Len()), "child elements")
}

// checkListView checks the offsets and sizes of a list-view array
// against its child.
func checkListView[T int32 | int64](path pathT, d arrow.ArrayData) error {
	n := d.Len()
	offs, err := values[T](path, d, 1, n)
	if err != nil {
		return err
	}
	sizes, err := values[T](path, d, 2, n)
	if err != nil {
		return err
	}
	limit := int64(d.Children()[0].Len())
	for i, size := range sizes {
		o := int64(offs[i])
		switch {
		case size < 0:
			return errorf(path, i, "size %d", size)
		case size > 0 && (o < 0 || o > limit || int64(size) > limit-o):
			return errorf(path, i, "offset %d and size %d outside the %d child elements", o, size, limit)
		}
	}
	return nil
}

// checkFixedSizeList checks that the child holds (offset+length)*size
// elements.
func checkFixedSizeList(path pathT, dt *arrow.FixedSizeListType, d arrow.ArrayData) error {
	size := int64(dt.Len())
	if size < 0 {
		return errorf(path, -1, "list size %d", size)
	}
	end := int64(d.Offset()) + int64(d.Len())
	have := int64(d.Children()[0].Len())
	if size > 0 && end > have/size {
		return errorf(path, -1, "child of %d elements for %d lists of %d from offset %d", have, d.Len(), size, d.Offset())
	}
	return nil
}

// checkChildLengths checks that every child of a struct or sparse union
// holds offset+length elements.
func checkChildLengths(path pathT, dt arrow.NestedType, d arrow.ArrayData) error {
	end := d.Offset() + d.Len()
	for i, c := range d.Children() {
		if c.Len() < end {
			return errorf(path.child(dt.Fields()[i].Name), -1, "%d elements for a parent of %d from offset %d", c.Len(), d.Len(), d.Offset())
		}
	}
	return nil
}

// checkUnion checks the type ids of a union array and the offsets of a
// dense one: within their child, non-decreasing per child.
func checkUnion(path pathT, dt arrow.UnionType, d arrow.ArrayData) error {
	n := d.Len()
	codes, err := values[int8](path, d, 1, n)
	if err != nil {
		return err
	}
	ids := dt.ChildIDs()
	for i, c := range codes {
		if c < 0 || int(c) >= len(ids) || ids[c] == arrow.InvalidUnionChildID {
			return errorf(path, i, "type id %d is not one of the union's %v", c, dt.TypeCodes())
		}
	}
	if dt.Mode() != arrow.DenseMode {
		return nil
	}
	offs, err := values[int32](path, d, 2, n)
	if err != nil {
		return err
	}
	children := d.Children()
	var last [int(arrow.MaxUnionTypeCode) + 1]int32
	for i, o := range offs {
		c := codes[i]
		child := ids[c]
		switch {
		case o < 0 || int(o) >= children[child].Len():
			return errorf(path, i, "offset %d outside the %d elements of child %q", o, children[child].Len(), dt.Fields()[child].Name)
		case o < last[c]:
			return errorf(path, i, "offset %d into child %q after offset %d", o, dt.Fields()[child].Name, last[c])
		}
		last[c] = o
	}
	return nil
}

// checkDictionary checks the dictionary's type and that every non-null
// index lies within it.
func checkDictionary(path pathT, dt *arrow.DictionaryType, d arrow.ArrayData) error {
	dict := dictionary(d)
	if dict == nil {
		if d.Len() > 0 {
			return errorf(path, -1, "no dictionary")
		}
		return nil
	}
	if !sameType(dict.DataType(), dt.ValueType) {
		return errorf(path, -1, "dictionary of type %v for values of type %v", dict.DataType(), dt.ValueType)
	}
	limit := int64(dict.Len())
	switch dt.IndexType.ID() {
	case arrow.INT8:
		return checkIndices[int8](path, d, limit)
	case arrow.UINT8:
		return checkIndices[uint8](path, d, limit)
	case arrow.INT16:
		return checkIndices[int16](path, d, limit)
	case arrow.UINT16:
		return checkIndices[uint16](path, d, limit)
	case arrow.INT32:
		return checkIndices[int32](path, d, limit)
	case arrow.UINT32:
		return checkIndices[uint32](path, d, limit)
	case arrow.INT64:
		return checkIndices[int64](path, d, limit)
	case arrow.UINT64:
		return checkIndices[uint64](path, d, limit)
	}
	return errorf(path, -1, "dictionary index type %v is not an integer type", dt.IndexType)
}

func checkIndices[T int8 | uint8 | int16 | uint16 | int32 | uint32 | int64 | uint64](path pathT, d arrow.ArrayData, limit int64) error {
	idx, err := values[T](path, d, 1, d.Len())
	if err != nil {
		return err
	}
	bitmap, off := validity(d), d.Offset()
	for i, x := range idx {
		if (x < 0 || uint64(x) >= uint64(limit)) && valid(bitmap, off+i) {
			return errorf(path, i, "index %d outside the %d-value dictionary", x, limit)
		}
	}
	return nil
}

// checkMapKeys checks that the entries a map array uses have no null
// keys.
func checkMapKeys(path pathT, dt *arrow.MapType, d arrow.ArrayData) error {
	n := d.Len()
	if n == 0 {
		return nil
	}
	offs, err := values[int32](path, d, 1, n+1)
	if err != nil {
		return err
	}
	entries := d.Children()[0]
	keys := entries.Children()[0]
	bitmap := validity(keys)
	if bitmap == nil {
		return nil
	}
	start := entries.Offset() + keys.Offset()
	for i := range n {
		for e := offs[i]; e < offs[i+1]; e++ {
			if !bitutil.BitIsSet(bitmap, start+int(e)) {
				return errorf(path, i, "null key at entry %d (%s)", e, dt.KeyField().Name)
			}
		}
	}
	return nil
}

// checkRunEnds checks the run ends of a run-end encoded array: no nulls,
// positive, strictly increasing, the last covering offset+length, and no
// more of them than values.
func checkRunEnds(path pathT, dt *arrow.RunEndEncodedType, d arrow.ArrayData) error {
	ends, vals := d.Children()[0], d.Children()[1]
	endsPath := path.child("run_ends")
	if ends.NullN() != 0 {
		return errorf(endsPath, -1, "%d null run ends", ends.NullN())
	}
	if ends.Len() > vals.Len() {
		return errorf(path, -1, "%d run ends for %d values", ends.Len(), vals.Len())
	}
	end := int64(d.Offset()) + int64(d.Len())
	switch dt.RunEnds().ID() {
	case arrow.INT16:
		return runEnds[int16](endsPath, ends, end)
	case arrow.INT32:
		return runEnds[int32](endsPath, ends, end)
	case arrow.INT64:
		return runEnds[int64](endsPath, ends, end)
	}
	return errorf(endsPath, -1, "run ends of type %v", dt.RunEnds())
}

func runEnds[T int16 | int32 | int64](path pathT, ends arrow.ArrayData, end int64) error {
	if ends.Len() == 0 {
		if end > 0 {
			return errorf(path, -1, "no run ends for %d values", end)
		}
		return nil
	}
	var zero T
	if end > maxOf(zero) {
		return errorf(path, -1, "offset+length %d past the range of %T", end, zero)
	}
	vals, err := values[T](path, ends, 1, ends.Len())
	if err != nil {
		return err
	}
	var prev T
	for i, v := range vals {
		if v <= prev {
			return errorf(path, i, "run end %d after %d", v, prev)
		}
		prev = v
	}
	if int64(prev) < end {
		return errorf(path, len(vals)-1, "last run end %d does not cover the %d values from the offset", prev, end)
	}
	return nil
}

func maxOf[T int16 | int32 | int64](T) int64 {
	var z T
	switch any(z).(type) {
	case int16:
		return math.MaxInt16
	case int32:
		return math.MaxInt32
	}
	return math.MaxInt64
}
