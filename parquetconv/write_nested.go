package parquetconv

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Null lists on the pqarrow path.
//
// arrow-go's pqarrow builds a column's levels by walking its nested
// arrays and then writes the leaf values of the visited list elements,
// which must be one contiguous range: the elements under a null list
// (always there for a FixedSizeList, whose null row still spans its size,
// and under a null struct row whose list child is not empty) would split
// it, and pqarrow refuses the column ("lists with non-zero length null
// components are not supported"), as Arrow C++ does. Parquet has no
// fixed-size list: a FixedSizeList is written as the same LIST group as a
// List of the same element field, and its levels are the same for rows of
// at least one element. So a null row can be written as an empty null
// List row with the same levels: compactNulls rewrites every list level
// that has null rows (its own or a parent struct's) as a List whose null
// rows are empty, with the valid rows' elements gathered back to back,
// and the column is handed to pqarrow's per-column writer
// (FileWriter.WriteColumnData, which takes the Parquet schema and the
// stored Arrow schema from the writer's schema, not from the array).

// compactNulls returns a, rewritten as above when a list level has null
// rows; the caller releases the result. parent is the validity of a's
// rows from its parent struct (bit i for row i, from bit 0), nil when
// every parent row is valid.
func compactNulls(mem memory.Allocator, a arrow.Array, parent []byte) (arrow.Array, error) {
	switch t := a.(type) {
	case *array.Struct:
		return compactStruct(mem, t, parent)
	case *array.FixedSizeList:
		size := int(t.DataType().(*arrow.FixedSizeListType).Len())
		off := t.Data().Offset()
		return compactList(mem, a, parent, t.DataType().(*arrow.FixedSizeListType).ElemField(), t.ListValues(),
			func(i int) (int, int) { return (off + i) * size, (off + i + 1) * size })
	case *array.List:
		offs := t.Offsets()[t.Data().Offset():]
		return compactList(mem, a, parent, t.DataType().(*arrow.ListType).ElemField(), t.ListValues(),
			func(i int) (int, int) { return int(offs[i]), int(offs[i+1]) })
	}
	a.Retain()
	return a, nil
}

// effective returns the validity of a's rows ANDed with parent's, from
// bit 0, or nil when every row is valid.
func effective(a arrow.Array, parent []byte) []byte {
	n := a.Len()
	if a.NullN() == 0 {
		return parent
	}
	bits := make([]byte, bitutil.BytesForBits(int64(n)))
	bitutil.CopyBitmap(a.NullBitmapBytes(), a.Data().Offset(), n, bits, 0)
	if parent != nil {
		bitutil.BitmapAnd(bits, parent, 0, 0, bits, 0, int64(n))
	}
	return bits
}

// nulls counts the clear bits of the first n bits of valid (nil: none).
func nulls(valid []byte, n int) int {
	if valid == nil {
		return 0
	}
	return n - bitutil.CountSetBits(valid, 0, n)
}

// compactStruct rebuilds a struct of offset 0 whose validity includes
// parent's and whose children are compacted under it.
func compactStruct(mem memory.Allocator, s *array.Struct, parent []byte) (arrow.Array, error) {
	n := s.Len()
	valid := effective(s, parent)
	st := s.DataType().(*arrow.StructType)
	fields := st.Fields()
	children := make([]arrow.ArrayData, len(fields))
	defer func() {
		for _, c := range children {
			if c != nil {
				c.Release()
			}
		}
	}()
	for k := range fields {
		c, err := compactNulls(mem, s.Field(k), valid)
		if err != nil {
			return nil, err
		}
		fields[k].Type = c.DataType()
		children[k] = c.Data()
		children[k].Retain()
		c.Release()
	}
	var bits *memory.Buffer
	if valid != nil {
		bits = memory.NewBufferBytes(valid)
	}
	d := array.NewData(arrow.StructOf(fields...), n, []*memory.Buffer{bits}, children, nulls(valid, n), 0)
	defer d.Release()
	return array.MakeFromData(d), nil
}

// compactList rebuilds a list-like array of n rows (row i holding
// elements bounds(i) of values) whose effective validity has nulls as a
// List of elem whose null rows are empty. Without nulls, a FixedSizeList
// is rebased to offset 0 (pqarrow writes a FixedSizeList with an offset
// from its child's start) and a List is returned as it is.
func compactList(mem memory.Allocator, a arrow.Array, parent []byte, elem arrow.Field, values arrow.Array, bounds func(int) (int, int)) (arrow.Array, error) {
	n := a.Len()
	valid := effective(a, parent)
	if valid == nil {
		if fsl, ok := a.(*array.FixedSizeList); ok && n > 0 && fsl.Data().Offset() != 0 {
			lo, _ := bounds(0)
			_, hi := bounds(n - 1)
			vals := array.NewSlice(values, int64(lo), int64(hi))
			defer vals.Release()
			c, err := compactNulls(mem, vals, nil)
			if err != nil {
				return nil, err
			}
			defer c.Release()
			d := array.NewData(fsl.DataType(), n, []*memory.Buffer{nil}, []arrow.ArrayData{c.Data()}, 0, 0)
			defer d.Release()
			return array.MakeFromData(d), nil
		}
		a.Retain()
		return a, nil
	}
	offsets := make([]int32, n+1)
	var runs []arrow.Array
	defer func() {
		for _, r := range runs {
			r.Release()
		}
	}()
	total, runLo, runHi := 0, -1, -1
	flush := func() {
		if runLo >= 0 && runHi > runLo {
			runs = append(runs, array.NewSlice(values, int64(runLo), int64(runHi)))
		}
		runLo, runHi = -1, -1
	}
	for i := range n {
		offsets[i] = int32(total)
		if !bitutil.BitIsSet(valid, i) {
			continue
		}
		lo, hi := bounds(i)
		if total += hi - lo; total > math.MaxInt32 {
			return nil, unsupported("a list column has more than %d elements in one row group", math.MaxInt32)
		}
		if lo != runHi {
			flush()
			runLo = lo
		}
		runHi = hi
	}
	flush()
	offsets[n] = int32(total)
	var vals arrow.Array
	switch len(runs) {
	case 0:
		vals = array.NewSlice(values, 0, 0)
	case 1:
		vals = runs[0]
		vals.Retain()
	default:
		var err error
		if vals, err = array.Concatenate(runs, mem); err != nil {
			return nil, errorf("%w", err)
		}
	}
	defer vals.Release()
	c, err := compactNulls(mem, vals, nil)
	if err != nil {
		return nil, err
	}
	defer c.Release()
	elem.Type = c.DataType()
	offBuf := memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offsets))
	d := array.NewData(arrow.ListOfField(elem), n, []*memory.Buffer{memory.NewBufferBytes(valid), offBuf}, []arrow.ArrayData{c.Data()}, nulls(valid, n), 0)
	defer d.Release()
	return array.MakeFromData(d), nil
}
