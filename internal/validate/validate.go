package validate

import (
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/fstensor/fstensor/internal/errs"
)

// Error is the error of a failed check. It matches arrow.ErrInvalid under
// errors.Is.
type Error struct {
	// Path names the array at fault: the column name, then the field
	// names of children joined by dots ("m.entries.key"), "dictionary"
	// for a dictionary. Empty for a fault of the batch itself.
	Path string
	// Row is the slot at fault, counted from the start of the array Path
	// names (for a column, the row of the batch); -1 when no one slot is.
	Row int
	base
}

type base = errs.Base

func errorf(path pathT, row int, format string, args ...any) error {
	e := &Error{Path: path.String(), Row: row}
	msg := fmt.Sprintf(format, args...)
	switch {
	case e.Path == "":
		e.base = errs.Make("validate", "%s", msg)
	case row < 0:
		e.base = errs.Make("validate", "column %q: %s", e.Path, msg)
	default:
		e.base = errs.Make("validate", "column %q row %d: %s", e.Path, row, msg)
	}
	return e
}

// pathT names an array: its parent's path and its own name, joined only
// when needed (an error, a grandchild), so that checking a column and its
// children allocates no path.
type pathT struct{ parent, name string }

func (p pathT) String() string {
	if p.parent == "" {
		return p.name
	}
	return p.parent + "." + p.name
}

// child returns the path of the child named name.
func (p pathT) child(name string) pathT { return pathT{parent: p.String(), name: name} }

// recovered turns a panic met while checking the column *name into an
// *Error.
func recovered(errp *error, name *string) {
	if r := recover(); r != nil {
		*errp = errorf(pathT{name: *name}, -1, "malformed array: %v", r)
	}
}

// Record checks rec in full: as many columns as its schema has, each of
// the schema's type and of rec.NumRows() rows, and each valid under
// [Array] with the field's name. The error wraps arrow.ErrInvalid and
// names the first column at fault (see the package doc). It reads rec
// only.
func Record(rec arrow.RecordBatch) (err error) {
	var name string // of the column being checked
	defer recovered(&err, &name)
	sc := rec.Schema()
	if sc == nil {
		return errorf(pathT{}, -1, "record batch without a schema")
	}
	if int64(sc.NumFields()) != rec.NumCols() {
		return errorf(pathT{}, -1, "%d columns for a schema of %d fields", rec.NumCols(), sc.NumFields())
	}
	rows := rec.NumRows()
	for i, col := range rec.Columns() {
		f := sc.Field(i)
		name = f.Name
		p := pathT{name: f.Name}
		if col == nil {
			return errorf(p, -1, "no array")
		}
		if int64(col.Len()) != rows {
			return errorf(p, -1, "%d rows in a batch of %d", col.Len(), rows)
		}
		if !sameType(col.DataType(), f.Type) {
			return errorf(p, -1, "array of type %v for a field of type %v", col.DataType(), f.Type)
		}
		if err := check(p, col.Data()); err != nil {
			return err
		}
	}
	return nil
}

// Array checks arr, named name in errors, and everything it holds in
// full (see the package doc). The error wraps arrow.ErrInvalid.
func Array(name string, arr arrow.Array) (err error) {
	defer recovered(&err, &name)
	if arr == nil {
		return errorf(pathT{name: name}, -1, "no array")
	}
	return check(pathT{name: name}, arr.Data())
}

// maxDepth bounds the nesting of the arrays checked.
const maxDepth = 256

// check checks d and, recursively, its children and dictionary.
func check(path pathT, d arrow.ArrayData) error {
	return checkDepth(path, d, 0)
}

func checkDepth(path pathT, d arrow.ArrayData, depth int) error {
	if d == nil {
		return errorf(path, -1, "no array data")
	}
	if depth > maxDepth {
		return errorf(path, -1, "nested deeper than %d levels", maxDepth)
	}
	dt := storageType(d.DataType())
	if dt == nil {
		return errorf(path, -1, "no data type")
	}
	off, n := d.Offset(), d.Len()
	if off < 0 || n < 0 || off > math.MaxInt-n {
		return errorf(path, -1, "offset %d and length %d", off, n)
	}
	if err := checkBuffers(path, dt, d); err != nil {
		return err
	}
	if err := checkNulls(path, dt, d); err != nil {
		return err
	}
	if primitive(dt.ID()) && len(d.Children()) == 0 && dictionary(d) == nil {
		return nil // fixed-width values: the buffer sizes were all to check
	}
	var buf [1]arrow.Field
	fields, err := checkChildren(path, dt, d, &buf)
	if err != nil {
		return err
	}
	if err := checkValues(path, dt, d); err != nil {
		return err
	}
	for i, c := range d.Children() {
		if err := checkDepth(path.child(fields[i].Name), c, depth+1); err != nil {
			return err
		}
	}
	if err := checkAfter(path, dt, d); err != nil {
		return err
	}
	if dict := dictionary(d); dict != nil {
		return checkDepth(path.child("dictionary"), dict, depth+1)
	}
	return nil
}

// dictionary returns the dictionary of d, nil when it has none (arrow-go
// returns a typed nil).
func dictionary(d arrow.ArrayData) arrow.ArrayData {
	dict := d.Dictionary()
	if dd, ok := dict.(*array.Data); ok && dd == nil {
		return nil
	}
	return dict
}

// storageType returns dt, or the storage type of an extension type.
func storageType(dt arrow.DataType) arrow.DataType {
	for {
		ext, ok := dt.(arrow.ExtensionType)
		if !ok {
			return dt
		}
		dt = ext.StorageType()
	}
}

// sameType reports whether an array of type got fits a field of type
// want: arrow.TypeEqual, except that the nullability of nested fields,
// which arrow-go's builders and readers do not always carry alike, is
// not compared.
func sameType(got, want arrow.DataType) bool {
	if got == want { // as arrow.TypeEqual starts
		return true
	}
	if got == nil || want == nil || got.ID() != want.ID() {
		return false
	}
	if _, ok := got.(arrow.ExtensionType); ok {
		return arrow.TypeEqual(got, want)
	}
	gn, ok := got.(arrow.NestedType)
	if !ok {
		return arrow.TypeEqual(got, want)
	}
	wn := want.(arrow.NestedType)
	gf, wf := gn.Fields(), wn.Fields()
	if len(gf) != len(wf) {
		return false
	}
	for i := range gf {
		if gf[i].Name != wf[i].Name && got.ID() == arrow.STRUCT || !sameType(gf[i].Type, wf[i].Type) {
			return false
		}
	}
	switch g := got.(type) {
	case *arrow.FixedSizeListType:
		return g.Len() == want.(*arrow.FixedSizeListType).Len()
	case arrow.UnionType:
		w := want.(arrow.UnionType)
		return g.Mode() == w.Mode() && slices.Equal(g.TypeCodes(), w.TypeCodes())
	case *arrow.MapType:
		return g.KeysSorted == want.(*arrow.MapType).KeysSorted
	}
	return true
}

// Layouts of the common types, which arrow-go's Layout methods allocate
// on every call; read only.
var (
	bitmapOnly = []arrow.BufferSpec{arrow.SpecBitmap()}
	fixed      = [9][]arrow.BufferSpec{
		1: {arrow.SpecBitmap(), arrow.SpecFixedWidth(1)},
		2: {arrow.SpecBitmap(), arrow.SpecFixedWidth(2)},
		4: {arrow.SpecBitmap(), arrow.SpecFixedWidth(4)},
		8: {arrow.SpecBitmap(), arrow.SpecFixedWidth(8)},
	}
)

// primitive reports whether id is one of the fixed-width types layoutOf
// knows without allocating.
func primitive(id arrow.Type) bool {
	switch id {
	case arrow.INT8, arrow.UINT8, arrow.INT16, arrow.UINT16, arrow.FLOAT16, arrow.INT32, arrow.UINT32,
		arrow.FLOAT32, arrow.DATE32, arrow.INT64, arrow.UINT64, arrow.FLOAT64, arrow.DATE64:
		return true
	}
	return false
}

// layoutOf returns the buffer specs of dt's layout and whether it has
// variadic buffers, without allocating for primitive, fixed-size list
// and struct types (arrow-go's Layout methods allocate on every call).
func layoutOf(dt arrow.DataType) (specs []arrow.BufferSpec, variadic bool) {
	switch dt.ID() {
	case arrow.FIXED_SIZE_LIST, arrow.STRUCT:
		return bitmapOnly, false
	case arrow.INT8, arrow.UINT8:
		return fixed[1], false
	case arrow.INT16, arrow.UINT16, arrow.FLOAT16:
		return fixed[2], false
	case arrow.INT32, arrow.UINT32, arrow.FLOAT32, arrow.DATE32:
		return fixed[4], false
	case arrow.INT64, arrow.UINT64, arrow.FLOAT64, arrow.DATE64:
		return fixed[8], false
	}
	l := dt.Layout()
	return l.Buffers, l.VariadicSpec != nil
}

// fieldsOf returns the child fields of dt, nil for a type without
// children. List-like types have one child: fieldsOf returns a slice of
// one field backed by *buf, to spare an allocation per array.
func fieldsOf(dt arrow.DataType, buf *[1]arrow.Field) []arrow.Field {
	switch t := dt.(type) {
	case *arrow.FixedSizeListType:
		buf[0] = t.ElemField()
		return buf[:]
	case *arrow.ListType:
		buf[0] = t.ElemField()
		return buf[:]
	case *arrow.LargeListType, *arrow.ListViewType, *arrow.LargeListViewType, *arrow.MapType:
		buf[0] = t.(arrow.ListLikeType).ElemField()
		return buf[:]
	case arrow.NestedType:
		return t.Fields()
	}
	return nil
}

// isUnion reports whether dt is a union type, whose buffers start with an
// unused validity slot that its layout omits.
func isUnion(dt arrow.DataType) bool {
	return dt.ID() == arrow.SPARSE_UNION || dt.ID() == arrow.DENSE_UNION
}

// checkBuffers checks the buffer count of d against the layout of dt and
// the size of each buffer against d's offset and length. Offsets buffers
// get their extra entry in checkValues.
func checkBuffers(path pathT, dt arrow.DataType, d arrow.ArrayData) error {
	specs, variadic := layoutOf(dt)
	bufs := d.Buffers()
	first := 0
	if isUnion(dt) {
		first = 1
		if len(bufs) > 0 && bufs[0] != nil {
			return errorf(path, -1, "a union has no validity bitmap")
		}
	}
	count := len(bufs) - first
	need := len(specs)
	for need > 0 && specs[need-1].Kind == arrow.KindAlwaysNull && count < need {
		need-- // arrow-go leaves out the buffers of null and run-end encoded arrays
	}
	if count < need || !variadic && count > len(specs) {
		return errorf(path, -1, "%d buffers for %v, which has %d", max(count, 0), dt, len(specs))
	}
	end := int64(d.Offset()) + int64(d.Len())
	for i, spec := range specs[:need] {
		buf := bufs[first+i]
		size := 0
		if buf != nil {
			size = buf.Len()
		}
		var need int64
		switch spec.Kind {
		case arrow.KindFixedWidth:
			if spec.ByteWidth <= 0 {
				return errorf(path, -1, "buffer %d of %v has width %d", first+i, dt, spec.ByteWidth)
			}
			if d.Len() == 0 {
				continue
			}
			hi, lo := bits.Mul64(uint64(end), uint64(spec.ByteWidth))
			if hi != 0 || lo > math.MaxInt64 {
				return errorf(path, -1, "buffer %d: %d values of %d bytes overflow", first+i, end, spec.ByteWidth)
			}
			need = int64(lo)
		case arrow.KindBitmap:
			if buf == nil && (i == 0 || d.Len() == 0) {
				continue // no validity bitmap, or no values
			}
			need = int64(bitutil.BytesForBits(end))
		case arrow.KindAlwaysNull:
			if buf != nil && buf.Len() > 0 {
				return errorf(path, -1, "buffer %d of %v must be empty, has %d bytes", first+i, dt, buf.Len())
			}
			continue
		default:
			continue // variable-width data: checked against the offsets
		}
		if int64(size) < need {
			return errorf(path, -1, "buffer %d has %d bytes, %d values from offset %d need %d", first+i, size, d.Len(), d.Offset(), need)
		}
	}
	return nil
}

// checkNulls checks the null count of d against its validity bitmap.
func checkNulls(path pathT, dt arrow.DataType, d arrow.ArrayData) error {
	n := d.Len()
	switch dt.ID() {
	case arrow.NULL:
		if nulls := d.NullN(); nulls != n {
			return errorf(path, -1, "null count %d in a null array of length %d", nulls, n)
		}
		return nil
	case arrow.SPARSE_UNION, arrow.DENSE_UNION:
		return nil // no bitmap: checked in checkBuffers
	}
	bufs := d.Buffers()
	if dt.ID() == arrow.RUN_END_ENCODED {
		if len(bufs) > 0 && bufs[0] != nil && bufs[0].Len() > 0 {
			return errorf(path, -1, "a run-end encoded array has no validity bitmap")
		}
	}
	var bitmap []byte
	if len(bufs) > 0 && bufs[0] != nil {
		bitmap = bufs[0].Bytes()
	}
	counted := 0
	if bitmap != nil && n > 0 {
		counted = n - bitutil.CountSetBits(bitmap, d.Offset(), n)
	}
	nulls := d.NullN()
	if nulls == array.UnknownNullCount {
		return nil // arrow-go counts the bitmap when asked
	}
	if nulls < 0 || nulls > n {
		return errorf(path, -1, "null count %d outside [0,%d]", nulls, n)
	}
	if counted != nulls {
		if bitmap == nil {
			return errorf(path, -1, "null count %d without a validity bitmap", nulls)
		}
		return errorf(path, -1, "null count %d, the validity bitmap has %d nulls", nulls, counted)
	}
	return nil
}

// checkChildren checks the children of d against the fields of dt and
// returns the fields.
func checkChildren(path pathT, dt arrow.DataType, d arrow.ArrayData, buf *[1]arrow.Field) ([]arrow.Field, error) {
	children := d.Children()
	fields := fieldsOf(dt, buf)
	if fields == nil {
		if len(children) != 0 {
			return nil, errorf(path, -1, "%d child arrays for %v, which has none", len(children), dt)
		}
		return nil, nil
	}
	if len(children) != len(fields) {
		return nil, errorf(path, -1, "%d child arrays for %v, which has %d", len(children), dt, len(fields))
	}
	for i, c := range children {
		if c == nil {
			return nil, errorf(path.child(fields[i].Name), -1, "no array data")
		}
		if !sameType(c.DataType(), fields[i].Type) {
			return nil, errorf(path.child(fields[i].Name), -1, "array of type %v for a field of type %v", c.DataType(), fields[i].Type)
		}
	}
	return fields, nil
}

// Data is [Array] for array data, which need not make a valid array:
// arrow-go's array constructors panic on some invalid data, Data does
// not.
func Data(name string, d arrow.ArrayData) (err error) {
	defer recovered(&err, &name)
	return check(pathT{name: name}, d)
}
