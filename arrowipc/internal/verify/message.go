package verify

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
)

// The checks below walk the flatbuffers of Arrow IPC metadata (Message.fbs,
// Schema.fbs, File.fbs) the way arrow-go's decoder will, before it does.
// arrow-go trusts the metadata: it sizes Go slices from vector lengths
// (custom metadata, children, variadic buffer counts), reads vector
// elements past their end, and expands shared or cyclic tables once per
// path, so a few hundred bytes can make it allocate terabytes or recurse
// without end. A message that passes these checks is decoded by arrow-go
// in time and memory proportional to its metadata; the checks themselves
// read each byte of the metadata a bounded number of times and copy
// nothing.

// Flatbuffer enum values used below (arrow-go's internal/flatbuf).
const (
	fbHeaderSchema          = 1
	fbHeaderDictionaryBatch = 2
	fbHeaderRecordBatch     = 3

	fbTypeInt          = 2
	fbTypeList         = 12
	fbTypeStruct       = 13
	fbTypeUnion        = 14
	fbTypeFixedSizeBin = 15
	fbTypeFixedSizeLst = 16
	fbTypeMap          = 17
	fbTypeLargeList    = 21
	fbTypeRunEnd       = 22
	fbTypeBinaryView   = 23
	fbTypeUtf8View     = 24
	fbTypeListView     = 25
	fbTypeLargeLstView = 26

	fbCodecZSTD = 1 // LZ4_FRAME is 0
)

// fbTypeScalars lists, per Type union member, the sizes of its scalar
// fields in field order (Timestamp's timezone and Union's type ids are
// checked apart).
var fbTypeScalars = [...][]int64{
	1:  nil,       // Null
	2:  {4, 1},    // Int: bitWidth, is_signed
	3:  {2},       // FloatingPoint: precision
	4:  nil,       // Binary
	5:  nil,       // Utf8
	6:  nil,       // Bool
	7:  {4, 4, 4}, // Decimal: precision, scale, bitWidth
	8:  {2},       // Date: unit
	9:  {2, 4},    // Time: unit, bitWidth
	10: {2},       // Timestamp: unit (timezone apart)
	11: {2},       // Interval: unit
	12: nil,       // List
	13: nil,       // Struct_
	14: {2},       // Union: mode (typeIds apart)
	15: {4},       // FixedSizeBinary: byteWidth
	16: {4},       // FixedSizeList: listSize
	17: {1},       // Map: keysSorted
	18: {2},       // Duration: unit
	19: nil,       // LargeBinary
	20: nil,       // LargeUtf8
	21: nil,       // LargeList
	22: nil,       // RunEndEncoded
	23: nil,       // BinaryView
	24: nil,       // Utf8View
	25: nil,       // ListView
	26: nil,       // LargeListView
}

// ipcCounts is what arrow-go reads from a batch for one array tree: one
// field node per array, one variadic buffer count per view array.
type ipcCounts struct {
	nodes, views int64
}

func (c *ipcCounts) add(d ipcCounts) { c.nodes += d.nodes; c.views += d.views }

// Schema is what the batch checks need to know of a schema: the counts
// of a record batch and those of each dictionary, by id.
type Schema struct {
	batch ipcCounts
	dicts map[int64]ipcCounts

	fields     []*ipcField         // layouts of the columns in a record batch
	dictValues map[int64]*ipcField // layout of each dictionary's values, by id
}

// MessageInfo is the outcome of Message.
type MessageInfo struct {
	Type    ipc.MessageType
	BodyLen int64   // bytes of the body the metadata states
	Schema  *Schema // of a Schema message, else nil
	Rows    int64   // of a RecordBatch message, else 0
}

// Message checks the flatbuffer of one IPC message (without its
// length prefix). Schema, DictionaryBatch and RecordBatch messages are
// checked in full; batches against schema, which may be nil before any
// schema was read (arrow-go then refuses them). Other message types are
// refused: the readers cannot use them.
func Message(meta []byte, schema *Schema) (MessageInfo, error) {
	r := newFBReader(meta)
	msg, err := r.root("Message")
	if err != nil {
		return MessageInfo{}, err
	}
	var m MessageInfo
	if err := msg.scalars(2); err != nil { // version
		return m, err
	}
	typ, err := msg.u8(1, 0)
	if err != nil {
		return m, err
	}
	m.Type = ipc.MessageType(typ)
	if m.BodyLen, err = msg.i64(3, 0); err != nil {
		return m, err
	}
	if m.BodyLen < 0 {
		return m, errorf("ipc message: body length %d is negative", m.BodyLen)
	}
	if err := verifyKeyValues(msg, 4); err != nil {
		return m, err
	}
	if typ < fbHeaderSchema || typ > fbHeaderRecordBatch {
		return m, errorf("ipc message: type %v cannot be read here", m.Type)
	}
	header, ok, err := msg.table(2, m.Type.String())
	if err != nil {
		return m, err
	}
	if !ok {
		return m, errorf("ipc message: %v message without a header", m.Type)
	}
	if schema == nil {
		schema = &Schema{}
	}
	switch typ {
	case fbHeaderSchema:
		m.Schema, err = verifySchema(header)
	case fbHeaderDictionaryBatch:
		err = verifyDictionaryBatch(header, schema, m.BodyLen)
	case fbHeaderRecordBatch:
		if err = verifyRecordBatch(header, schema.batch, m.BodyLen); err == nil {
			m.Rows, _ = header.i64(0, 0) // checked: not negative
		}
	}
	return m, err
}

// Block is a Block of a file footer: where a message lies in the file.
type Block struct {
	Offset int64 // of the message in the file, in bytes
	Meta   int32 // bytes of the metadata with its prefix
	Body   int64 // bytes of the body
}

// FooterInfo is the outcome of Footer.
type FooterInfo struct {
	Schema         *Schema // what the file's batches hold
	Dicts, Batches []Block // where the dictionary and record batches lie
}

// Footer checks the flatbuffer of an IPC file footer and returns
// its schema's counts and its blocks.
func Footer(footer []byte) (FooterInfo, error) {
	r := newFBReader(footer)
	t, err := r.root("Footer")
	if err != nil {
		return FooterInfo{}, err
	}
	var f FooterInfo
	if err := t.scalars(2); err != nil { // version
		return f, err
	}
	schema, ok, err := t.table(1, "Schema")
	if err != nil {
		return f, err
	}
	if !ok {
		return f, errorf("ipc file: footer without a schema")
	}
	if f.Schema, err = verifySchema(schema); err != nil {
		return f, err
	}
	if f.Dicts, err = footerBlocks(t, 2, "dictionaries"); err != nil {
		return f, err
	}
	if f.Batches, err = footerBlocks(t, 3, "recordBatches"); err != nil {
		return f, err
	}
	return f, verifyKeyValues(t, 4)
}

// footerBlocks returns the vector of Block structs of field id.
func footerBlocks(t fbTable, id int, what string) ([]Block, error) {
	v, err := t.vector(id, 24, what)
	if err != nil {
		return nil, err
	}
	blocks := make([]Block, v.n)
	for i := range blocks {
		p := v.at(int64(i))
		blocks[i] = Block{Offset: t.r.i64(p), Meta: int32(t.r.u32(p + 8)), Body: t.r.i64(p + 16)}
	}
	return blocks, nil
}

// verifySchema checks a Schema table and counts what its batches hold.
func verifySchema(t fbTable) (*Schema, error) {
	s := &Schema{dicts: map[int64]ipcCounts{}, dictValues: map[int64]*ipcField{}}
	if err := t.scalars(2); err != nil { // endianness
		return nil, err
	}
	fields, err := t.tables(1, "fields")
	if err != nil {
		return nil, err
	}
	for i := range fields.n {
		f, err := t.elem(fields, i, "Field")
		if err != nil {
			return nil, err
		}
		c, layout, err := verifyField(f, "", 0, s)
		if err != nil {
			return nil, err
		}
		s.batch.add(c)
		s.fields = append(s.fields, layout)
	}
	if err := verifyKeyValues(t, 2); err != nil {
		return nil, err
	}
	if _, err := t.vector(3, 8, "features"); err != nil {
		return nil, err
	}
	return s, nil
}

// verifyField checks a Field table at nesting depth depth, whose parent
// has the path parent, and returns what a batch holds for it: its counts
// and its layout. The counts and layout of a dictionary-encoded field's
// values go to s.dicts and s.dictValues (a batch holds its indices only).
func verifyField(t fbTable, parent string, depth int, s *Schema) (c ipcCounts, layout *ipcField, err error) {
	if err := t.string(0, "name"); err != nil {
		return c, nil, err
	}
	name := t.str(0)
	if parent != "" {
		name = parent + "." + name
	}
	if _, err := t.field(1, 1); err != nil { // nullable
		return c, nil, err
	}
	tt, err := t.u8(2, 0)
	if err != nil {
		return c, nil, err
	}
	if tt == 0 || int(tt) >= len(fbTypeScalars) {
		return c, nil, errorf("ipc metadata: field type %d is unknown", tt)
	}
	typ, ok, err := t.table(3, "Type")
	if err != nil {
		return c, nil, err
	}
	if !ok {
		return c, nil, errorf("ipc metadata: field without a type")
	}
	if err := verifyType(typ, tt); err != nil {
		return c, nil, err
	}
	if tt == fbTypeFixedSizeLst {
		// arrow-go's type constructor panics below 1; its reader turns the
		// panic into an opaque error.
		n := int32(0)
		if p, err := typ.field(0, 4); err != nil {
			return c, nil, err
		} else if p >= 0 {
			n = int32(typ.r.u32(p))
		}
		if n <= 0 {
			return c, nil, errorf("ipc metadata: a FixedSizeList of list size %d (a tensor shape with a size-0 dimension): arrow-go cannot represent it: %w", n, arrow.ErrNotImplemented)
		}
	}

	c = ipcCounts{nodes: 1}
	layout = newIPCField(name, typ, tt)
	if tt == fbTypeBinaryView || tt == fbTypeUtf8View {
		c.views = 1
	}
	children, err := t.tables(5, "children")
	if err != nil {
		return c, nil, err
	}
	if children.n > 0 && depth == maxFieldDepth {
		return c, nil, errorf("ipc metadata: fields nest deeper than %d levels", maxFieldDepth)
	}
	for i := range children.n {
		child, err := t.elem(children, i, "Field")
		if err != nil {
			return c, nil, err
		}
		cc, cl, err := verifyField(child, name, depth+1, s)
		if err != nil {
			return c, nil, err
		}
		if hasChildren(tt) {
			c.add(cc)
			layout.children = append(layout.children, cl)
		}
	}
	if err := verifyKeyValues(t, 6); err != nil {
		return c, nil, err
	}

	dict, ok, err := t.table(4, "DictionaryEncoding")
	if err != nil || !ok {
		return c, layout, err
	}
	id, err := dict.i64(0, 0)
	if err != nil {
		return c, nil, err
	}
	if err := dict.scalars(8, 4, 1, 2); err != nil { // id, indexType, isOrdered, dictionaryKind
		return c, nil, err
	}
	idx, ok, err := dict.table(1, "Int")
	if err != nil {
		return c, nil, err
	}
	if !ok {
		return c, nil, errorf("ipc metadata: dictionary %d without an index type", id)
	}
	if err := verifyType(idx, fbTypeInt); err != nil {
		return c, nil, err
	}
	if d, ok := s.dicts[id]; !ok || c.nodes > d.nodes || c.views > d.views {
		s.dicts[id] = ipcCounts{max(c.nodes, d.nodes), max(c.views, d.views)}
	}
	if _, ok := s.dictValues[id]; !ok {
		s.dictValues[id] = layout
	}
	return ipcCounts{nodes: 1}, newIPCField(name, idx, fbTypeInt), nil
}

// hasChildren reports whether arrow-go loads the children of a field of
// type tt (it decodes and ignores those of other types).
func hasChildren(tt uint8) bool {
	switch tt {
	case fbTypeList, fbTypeStruct, fbTypeUnion, fbTypeFixedSizeLst, fbTypeMap,
		fbTypeLargeList, fbTypeRunEnd, fbTypeListView, fbTypeLargeLstView:
		return true
	}
	return false
}

// verifyType checks the table of a Type union member tt.
func verifyType(t fbTable, tt uint8) error {
	if err := t.scalars(fbTypeScalars[tt]...); err != nil {
		return err
	}
	switch tt {
	case 10: // Timestamp
		return t.string(1, "timezone")
	case fbTypeUnion:
		ids, err := t.vector(1, 4, "typeIds")
		if err != nil {
			return err
		}
		return t.r.take(ids.n, "Union", "typeIds")
	case fbTypeFixedSizeBin, fbTypeFixedSizeLst:
		p, err := t.field(0, 4)
		if err == nil && p >= 0 && int32(t.r.u32(p)) < 0 {
			err = errorf("ipc metadata: %v width %d is negative", t.what, int32(t.r.u32(p)))
		}
		return err
	}
	return nil
}

// verifyKeyValues checks the custom_metadata vector of KeyValue tables in
// field id of t.
func verifyKeyValues(t fbTable, id int) error {
	kvs, err := t.tables(id, "custom_metadata")
	if err != nil {
		return err
	}
	for i := range kvs.n {
		kv, err := t.elem(kvs, i, "KeyValue")
		if err != nil {
			return err
		}
		if err := kv.string(0, "key"); err != nil {
			return err
		}
		if err := kv.string(1, "value"); err != nil {
			return err
		}
	}
	return nil
}

// verifyDictionaryBatch checks a DictionaryBatch table against the
// schema's dictionaries.
func verifyDictionaryBatch(t fbTable, s *Schema, bodyLen int64) error {
	if err := t.scalars(8, 4, 1); err != nil { // id, data, isDelta
		return err
	}
	id, err := t.i64(0, 0)
	if err != nil {
		return err
	}
	data, ok, err := t.table(1, "RecordBatch")
	if err != nil {
		return err
	}
	if !ok {
		return errorf("ipc message: dictionary batch %d without data", id)
	}
	return verifyRecordBatch(data, s.dicts[id], bodyLen)
}

// verifyRecordBatch checks a RecordBatch table: its length and field
// nodes non-negative, at least as many nodes as arrow-go will read, its
// buffers inside the body, a known codec, and variadic buffer counts
// that arrow-go reads in bounds and that do not exceed the buffers.
func verifyRecordBatch(t fbTable, want ipcCounts, bodyLen int64) error {
	if err := t.scalars(8); err != nil { // length
		return err
	}
	r := t.r
	if n, _ := t.i64(0, 0); n < 0 {
		return errorf("ipc message: record batch length %d is negative", n)
	}
	nodes, err := t.vector(1, 16, "nodes")
	if err != nil {
		return err
	}
	if nodes.n < want.nodes {
		return errorf("ipc message: record batch has %d field nodes, its schema needs %d", nodes.n, want.nodes)
	}
	for i := range nodes.n {
		p := nodes.at(i)
		if n, nulls := r.i64(p), r.i64(p+8); n < 0 || nulls < 0 || nulls > n {
			return errorf("ipc message: field node %d: length %d, null count %d", i, n, nulls)
		}
	}
	buffers, err := t.vector(2, 16, "buffers")
	if err != nil {
		return err
	}
	for i := range buffers.n {
		p := buffers.at(i)
		if off, n := r.i64(p), r.i64(p+8); off < 0 || n < 0 || off > bodyLen || n > bodyLen-off {
			return errorf("ipc message: buffer %d at offset %d of length %d is outside the %d-byte body", i, off, n, bodyLen)
		}
	}
	cmp, ok, err := t.table(3, "BodyCompression")
	if err != nil {
		return err
	}
	if ok {
		if err := cmp.scalars(1, 1); err != nil {
			return err
		}
		codec, _ := cmp.u8(0, 0)
		method, _ := cmp.u8(1, 0)
		if codec > fbCodecZSTD || method != 0 {
			return errorf("ipc message: body compression codec %d, method %d unknown", codec, method)
		}
	}
	counts, err := t.vector(4, 8, "variadicBufferCounts")
	if err != nil {
		return err
	}
	// arrow-go reads one count per view array, past the end of a vector
	// that is present (and 0 for each when it is absent).
	if t.has(4) && counts.n < want.views {
		return errorf("ipc message: record batch has %d variadic buffer counts, its schema needs %d", counts.n, want.views)
	}
	for i := range counts.n {
		if n := r.i64(counts.at(i)); n < 0 || n > buffers.n {
			return errorf("ipc message: variadic buffer count %d is %d, the batch has %d buffers", i, n, buffers.n)
		}
	}
	return nil
}
