package verify

import (
	"encoding/binary"
	"math"
)

// The check below compares, before arrow-go decodes a record or
// dictionary batch, each buffer of each array (every column, children
// included) with the length its field node states, as the Arrow columnar
// format requires: a validity bitmap of at least ceil(length/8) bytes,
// fixed-width values of length*width bits, length+1 offsets whose last
// one lies within the data (or child), child lengths of at least what the
// parent addresses. arrow-go slices buffers to those lengths without
// checking and panics half-way through building a batch; the check keeps
// it from getting there. It walks the buffers in the order arrow-go's
// loader consumes them and reads, besides the metadata, at most a few
// bytes of the body per array: the 8-byte length prefix of a compressed
// buffer and the first and last offsets of an offsets buffer stored
// uncompressed. What only decoding or a pass over every element would
// show (offsets of compressed buffers, each offset, view, union type id
// and dictionary index) is left to arrow-go and to the reader's
// recovery.

// ipcField is the layout of one schema field in a batch.
type ipcField struct {
	name     string // the field's path, for errors
	tt       uint8  // Type union member; fbTypeInt for a dictionary field
	bits     int64  // fixed-width values: bits per element (bool 1)
	size     int64  // FixedSizeList list size
	dense    bool   // dense union
	children []*ipcField
}

// Further Type union members (arrow-go's internal/flatbuf).
const (
	fbTypeNull        = 1
	fbTypeFloat       = 3
	fbTypeBinary      = 4
	fbTypeUtf8        = 5
	fbTypeBool        = 6
	fbTypeDecimal     = 7
	fbTypeDate        = 8
	fbTypeTime        = 9
	fbTypeTimestamp   = 10
	fbTypeInterval    = 11
	fbTypeDuration    = 18
	fbTypeLargeBinary = 19
	fbTypeLargeUtf8   = 20

	fbMetadataV5 = 4
)

// fbInt returns the little-endian integer field id of size bytes (1, 2 or
// 4), def when absent; the field was checked by verifyType.
func fbInt(t fbTable, id int, size int64, def int64) int64 {
	p, err := t.field(id, size)
	if err != nil || p < 0 {
		return def
	}
	switch size {
	case 1:
		return int64(int8(t.r.u8(p)))
	case 2:
		return int64(int16(t.r.u16(p)))
	}
	return int64(int32(t.r.u32(p)))
}

// valueBits returns the bits per element of the fixed-width values of a
// Type table typ of member tt, 0 for other types.
func valueBits(typ fbTable, tt uint8) int64 {
	switch tt {
	case fbTypeBool:
		return 1
	case fbTypeInt:
		return fbInt(typ, 0, 4, 0)
	case fbTypeFloat:
		return unitBits(16, fbInt(typ, 0, 2, 0), 2) // HALF, SINGLE, DOUBLE
	case fbTypeDecimal:
		return fbInt(typ, 2, 4, 128)
	case fbTypeDate:
		return unitBits(32, fbInt(typ, 0, 2, 1), 1) // DAY, MILLISECOND
	case fbTypeTime:
		return fbInt(typ, 1, 4, 32)
	case fbTypeTimestamp, fbTypeDuration:
		return 64
	case fbTypeInterval:
		return unitBits(32, fbInt(typ, 0, 2, 0), 2) // YEAR_MONTH, DAY_TIME, MONTH_DAY_NANO
	case fbTypeFixedSizeBin:
		return 8 * fbInt(typ, 0, 4, 0)
	}
	return 0
}

// unitBits returns base<<unit for a unit enum value in [0, max], 0 (no
// known layout: arrow-go refuses the type) for others.
func unitBits(base, unit, max int64) int64 {
	if unit < 0 || unit > max {
		return 0
	}
	return base << unit
}

// newIPCField returns the layout of a field of name and type member tt.
func newIPCField(name string, typ fbTable, tt uint8) *ipcField {
	f := &ipcField{name: name, tt: tt, bits: valueBits(typ, tt)}
	switch tt {
	case fbTypeFixedSizeLst:
		f.size = fbInt(typ, 0, 4, 0)
	case fbTypeUnion:
		f.dense = fbInt(typ, 0, 2, 0) == 1
	}
	if f.bits < 0 || f.bits > 1<<20 {
		f.bits = 0 // arrow-go refuses the type
	}
	return f
}

// bodyWalk walks the field nodes and buffers of one batch.
type bodyWalk struct {
	r                        *fbReader
	nodes, buffers, variadic fbVector
	hasVariadic              bool
	inode, ibuf, ivar        int64
	compressed               bool
	v5                       bool
	body                     func(off, n int64) ([]byte, error)
	bodyLen                  int64
}

// Body checks the buffers of the record or dictionary batch in
// meta, a message Message accepted against s, whose body of bodyLen
// bytes body reads from (n bytes at offset off). Messages of other types
// and dictionaries of ids s does not know are left to arrow-go.
func Body(meta []byte, s *Schema, bodyLen int64, body func(off, n int64) ([]byte, error)) error {
	if s == nil {
		return nil
	}
	msg, err := newFBReader(meta).root("Message")
	if err != nil {
		return err
	}
	typ, _ := msg.u8(1, 0)
	header, ok, err := msg.table(2, "header")
	if err != nil || !ok {
		return err
	}
	w := &bodyWalk{r: msg.r, v5: fbInt(msg, 0, 2, 0) >= fbMetadataV5, body: body, bodyLen: bodyLen}
	fields := s.fields
	what := "record batch"
	switch typ {
	case fbHeaderRecordBatch:
	case fbHeaderDictionaryBatch:
		id, _ := header.i64(0, 0)
		f, ok := s.dictValues[id]
		if !ok {
			return nil
		}
		fields, what = []*ipcField{f}, "dictionary"
		if header, ok, err = header.table(1, "RecordBatch"); err != nil || !ok {
			return err
		}
	default:
		return nil
	}
	rows, _ := header.i64(0, 0)
	if w.nodes, err = header.vector(1, 16, "nodes"); err != nil {
		return err
	}
	if w.buffers, err = header.vector(2, 16, "buffers"); err != nil {
		return err
	}
	_, w.compressed, err = header.table(3, "BodyCompression")
	if err != nil {
		return err
	}
	w.hasVariadic = header.has(4)
	if w.variadic, err = header.vector(4, 8, "variadicBufferCounts"); err != nil {
		return err
	}
	for _, f := range fields {
		n, err := w.array(f)
		if err != nil {
			return errorf("ipc message: %s: %w", what, err)
		}
		if typ == fbHeaderRecordBatch && n < rows {
			return errorf("ipc message: record batch of %d rows: column %q has %d", rows, f.name, n)
		}
	}
	return nil
}

// node returns the length and null count of the next field node.
func (w *bodyWalk) node(f *ipcField) (n, nulls int64, err error) {
	if w.inode >= w.nodes.n {
		return 0, 0, errorf("column %q: the batch has %d field nodes, its schema needs more", f.name, w.nodes.n)
	}
	p := w.nodes.at(w.inode)
	w.inode++
	return w.r.i64(p), w.r.i64(p + 8), nil // non-negative (verifyRecordBatch)
}

// buffer returns the size the next buffer has once decompressed, and the
// body offset of its bytes when they are stored uncompressed (-1 when
// compressed).
func (w *bodyWalk) buffer(f *ipcField, what string) (size, at int64, err error) {
	if w.ibuf >= w.buffers.n {
		return 0, -1, errorf("column %q: %s buffer: the batch has %d buffers, its schema needs more", f.name, what, w.buffers.n)
	}
	p := w.buffers.at(w.ibuf)
	w.ibuf++
	off, n := w.r.i64(p), w.r.i64(p+8) // inside the body (verifyRecordBatch)
	if !w.compressed || n == 0 {
		return n, off, nil
	}
	if n < 8 {
		return 0, -1, errorf("column %q: %s buffer %d: %d compressed bytes cannot hold the 8-byte length prefix", f.name, what, w.ibuf-1, n)
	}
	b, err := w.body(off, 8)
	if err != nil {
		return 0, -1, err
	}
	switch raw := int64(binary.LittleEndian.Uint64(b)); {
	case raw == -1:
		return n - 8, off + 8, nil
	case raw < 0:
		return 0, -1, errorf("column %q: %s buffer %d: uncompressed length %d is negative", f.name, what, w.ibuf-1, raw)
	default:
		return raw, -1, nil
	}
}

// need fails when the next buffer holds fewer than n elements of bits
// bits each (+extra elements), and returns the buffer's size and offset.
func (w *bodyWalk) need(f *ipcField, what string, n, extra, bits int64) (size, at int64, err error) {
	size, at, err = w.buffer(f, what)
	if err != nil {
		return 0, -1, err
	}
	want, ok := bufferBytes(n, extra, bits)
	if !ok {
		return 0, -1, errorf("column %q: %d elements of %d bits overflow", f.name, n, bits)
	}
	if size < want {
		return 0, -1, errorf("column %q: %s buffer %d holds %d bytes, %d elements need %d bytes", f.name, what, w.ibuf-1, size, n+extra, want)
	}
	return size, at, nil
}

// bufferBytes returns ceil((n+extra)*bits/8), false on overflow.
func bufferBytes(n, extra, bits int64) (int64, bool) {
	if n > math.MaxInt64-extra {
		return 0, false
	}
	n += extra
	if bits > 0 && n > (math.MaxInt64-7)/bits {
		return 0, false
	}
	return (n*bits + 7) / 8, true
}

// validity checks the validity bitmap of an array of n elements with
// nulls nulls, where arrow-go reads one: it skips the buffer when there
// are no nulls (a bitmap present there must still be long enough).
func (w *bodyWalk) validity(f *ipcField, n, nulls int64) error {
	// arrow-go's internal.HasValidityBitmap.
	has := f.tt != fbTypeNull
	if w.v5 && (f.tt == fbTypeUnion || f.tt == fbTypeRunEnd) {
		has = false
	}
	if !has {
		return nil
	}
	if nulls > 0 {
		if f.tt == fbTypeUnion {
			return errorf("column %q: a union with a validity bitmap (metadata before V5) cannot be read", f.name)
		}
		_, _, err := w.need(f, "validity", n, 0, 1)
		return err
	}
	if w.ibuf < w.buffers.n && !w.compressed {
		want, _ := bufferBytes(n, 0, 1) // n >= 0: no overflow
		if size := w.r.i64(w.buffers.at(w.ibuf) + 8); size > 0 && size < want {
			return errorf("column %q: validity buffer %d holds %d bytes, %d elements need %d bytes", f.name, w.ibuf, size, n, want)
		}
	}
	w.ibuf++
	return nil
}

// offsets reads the first and last of the n+1 offsets of width bytes in
// the buffer at body offset at, when it is stored uncompressed.
func (w *bodyWalk) offsets(f *ipcField, at, n, width int64) (first, last int64, ok bool, err error) {
	if at < 0 || n == 0 {
		return 0, 0, false, nil
	}
	read := func(i int64) (int64, error) {
		b, err := w.body(at+i*width, width)
		if err != nil {
			return 0, err
		}
		if width == 4 {
			return int64(int32(binary.LittleEndian.Uint32(b))), nil
		}
		return int64(binary.LittleEndian.Uint64(b)), nil
	}
	if first, err = read(0); err != nil {
		return 0, 0, false, err
	}
	if last, err = read(n); err != nil {
		return 0, 0, false, err
	}
	if first < 0 || last < first {
		return 0, 0, false, errorf("column %q: offsets run from %d to %d", f.name, first, last)
	}
	return first, last, true, nil
}

// array checks the buffers and children of one array of layout f and
// returns its length.
func (w *bodyWalk) array(f *ipcField) (int64, error) {
	n, nulls, err := w.node(f)
	if err != nil {
		return 0, err
	}
	if f.tt == fbTypeNull {
		return n, nil
	}
	if err := w.validity(f, n, nulls); err != nil {
		return 0, err
	}
	switch f.tt {
	case fbTypeBinary, fbTypeUtf8, fbTypeLargeBinary, fbTypeLargeUtf8:
		err = w.binary(f, n)
	case fbTypeBinaryView, fbTypeUtf8View:
		err = w.views(f, n)
	case fbTypeList, fbTypeLargeList, fbTypeMap:
		err = w.list(f, n)
	case fbTypeListView, fbTypeLargeLstView:
		err = w.listView(f, n)
	case fbTypeFixedSizeLst:
		err = w.fixedSizeList(f, n)
	case fbTypeStruct:
		err = w.structChildren(f, n)
	case fbTypeUnion:
		err = w.union(f, n)
	case fbTypeRunEnd:
		err = w.runEnds(f)
	case fbTypeFixedSizeBin: // arrow-go reads the buffer even when n is 0
		_, _, err = w.need(f, "values", n, 0, f.bits)
	default:
		err = w.fixedWidth(f, n)
	}
	if err != nil {
		return 0, err
	}
	return n, nil
}

// offsetsBuffer checks the offsets buffer of n values of width bytes
// each (n+1 offsets) and returns its position in the body, -1 when n is
// 0 (the buffer may then be empty).
func (w *bodyWalk) offsetsBuffer(f *ipcField, n, width int64) (int64, error) {
	if n == 0 {
		_, _, err := w.buffer(f, "offsets")
		return -1, err
	}
	_, at, err := w.need(f, "offsets", n, 1, 8*width)
	return at, err
}

// binary checks the offsets and data of n binary or string values.
func (w *bodyWalk) binary(f *ipcField, n int64) error {
	width := int64(4)
	if f.tt == fbTypeLargeBinary || f.tt == fbTypeLargeUtf8 {
		width = 8
	}
	at, err := w.offsetsBuffer(f, n, width)
	if err != nil {
		return err
	}
	data, _, err := w.buffer(f, "data")
	if err != nil {
		return err
	}
	if _, last, ok, err := w.offsets(f, at, n, width); err != nil {
		return err
	} else if ok && last > data {
		return errorf("column %q: last offset %d is past the %d-byte data buffer %d", f.name, last, data, w.ibuf-1)
	}
	return nil
}

// views checks the views of n binary or string views and their
// variadic data buffers.
func (w *bodyWalk) views(f *ipcField, n int64) error {
	k := int64(0)
	if w.hasVariadic && w.ivar < w.variadic.n {
		k = w.r.i64(w.variadic.at(w.ivar))
	}
	w.ivar++
	if _, _, err := w.need(f, "views", n, 0, 128); err != nil {
		return err
	}
	for range k {
		if _, _, err := w.buffer(f, "variadic data"); err != nil {
			return err
		}
	}
	return nil
}

// list checks the offsets and the child of n lists or maps.
func (w *bodyWalk) list(f *ipcField, n int64) error {
	width := int64(4)
	if f.tt == fbTypeLargeList {
		width = 8
	}
	at, err := w.offsetsBuffer(f, n, width)
	if err != nil {
		return err
	}
	m, err := w.child(f, 0)
	if err != nil {
		return err
	}
	if _, last, ok, err := w.offsets(f, at, n, width); err != nil {
		return err
	} else if ok && last > m {
		return errorf("column %q: last offset %d is past the %d elements of its child %q", f.name, last, m, f.children[0].name)
	}
	return nil
}

// listView checks the offsets, sizes and child of n list views.
func (w *bodyWalk) listView(f *ipcField, n int64) error {
	bits := int64(32)
	if f.tt == fbTypeLargeLstView {
		bits = 64
	}
	if _, _, err := w.need(f, "offsets", n, 0, bits); err != nil {
		return err
	}
	if _, _, err := w.need(f, "sizes", n, 0, bits); err != nil {
		return err
	}
	_, err := w.child(f, 0)
	return err
}

// fixedSizeList checks that the child of n lists holds n*size elements.
func (w *bodyWalk) fixedSizeList(f *ipcField, n int64) error {
	m, err := w.child(f, 0)
	if err != nil {
		return err
	}
	if want := mulOrMax(n, f.size); want > m {
		return errorf("column %q: child %q has %d elements, %d lists of %d need %d", f.name, f.children[0].name, m, n, f.size, mulOrMax(n, f.size))
	}
	return nil
}

// structChildren checks that every child of n structs is as long.
func (w *bodyWalk) structChildren(f *ipcField, n int64) error {
	for i := range f.children {
		m, err := w.child(f, i)
		if err != nil {
			return err
		}
		if m < n {
			return errorf("column %q: child %q has %d elements, the struct %d", f.name, f.children[i].name, m, n)
		}
	}
	return nil
}

// union checks the type ids (and dense offsets) of n union values and
// the children, as long as the union where it is sparse.
func (w *bodyWalk) union(f *ipcField, n int64) error {
	if n > 0 {
		if _, _, err := w.need(f, "type ids", n, 0, 8); err != nil {
			return err
		}
		if f.dense {
			if _, _, err := w.need(f, "offsets", n, 0, 32); err != nil {
				return err
			}
		}
	} else {
		w.ibuf++
		if f.dense {
			w.ibuf++
		}
	}
	for i := range f.children {
		m, err := w.child(f, i)
		if err != nil {
			return err
		}
		if !f.dense && m < n {
			return errorf("column %q: child %q has %d elements, the sparse union %d", f.name, f.children[i].name, m, n)
		}
	}
	return nil
}

// runEnds checks the two children of a run-end encoded array: integer
// run ends without nulls, and the values.
func (w *bodyWalk) runEnds(f *ipcField) error {
	if len(f.children) != 2 {
		return errorf("column %q: a run-end encoded array has %d children, want 2", f.name, len(f.children))
	}
	if re := f.children[0]; re.tt != fbTypeInt || (re.bits != 16 && re.bits != 32 && re.bits != 64) {
		return errorf("column %q: run ends %q are not int16, int32 or int64", f.name, re.name)
	}
	if w.inode < w.nodes.n && w.r.i64(w.nodes.at(w.inode)+8) != 0 {
		return errorf("column %q: run ends %q have nulls", f.name, f.children[0].name)
	}
	for i := range f.children {
		if _, err := w.child(f, i); err != nil {
			return err
		}
	}
	return nil
}

// fixedWidth checks the values buffer of n fixed-width values.
func (w *bodyWalk) fixedWidth(f *ipcField, n int64) error {
	if f.bits <= 0 {
		return errorf("column %q: type %d has no known layout", f.name, f.tt)
	}
	if n == 0 {
		w.ibuf++
		return nil
	}
	_, _, err := w.need(f, "values", n, 0, f.bits)
	return err
}

// child checks child i of f and returns its length.
func (w *bodyWalk) child(f *ipcField, i int) (int64, error) {
	if i >= len(f.children) {
		return 0, errorf("column %q: %d children, its type needs %d", f.name, len(f.children), i+1)
	}
	return w.array(f.children[i])
}

// mulOrMax returns a*b, or MaxInt64 when it overflows.
func mulOrMax(a, b int64) int64 {
	if b != 0 && a > math.MaxInt64/b {
		return math.MaxInt64
	}
	return a * b
}

// str returns the string of field id, "" when absent; the field was
// checked by fbTable.string.
func (t fbTable) str(id int) string {
	p, err := t.ref(id)
	if err != nil || p < 0 {
		return ""
	}
	n := int64(t.r.u32(p))
	return string(t.r.b[p+4 : p+4+n])
}

// Slice returns a read function over a message body in memory for
// Body: slices of body, no copies.
func Slice(body []byte) func(off, n int64) ([]byte, error) {
	return func(off, n int64) ([]byte, error) {
		if off < 0 || n < 0 || off > int64(len(body)) || n > int64(len(body))-off {
			return nil, errorf("ipc message: %d bytes at offset %d are outside the %d-byte body", n, off, len(body))
		}
		return body[off : off+n], nil
	}
}
