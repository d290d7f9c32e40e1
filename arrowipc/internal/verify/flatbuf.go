package verify

import "encoding/binary"

// Limits of the IPC metadata checks (see ipcverify.go).
const (
	// MaxMetadataSize is the largest flatbuffer of one IPC message, or of
	// a file footer, that the readers accept: arrow-go's default limit,
	// which its stream reader does not apply.
	MaxMetadataSize = 64 << 20

	// maxFieldDepth is the deepest nesting of schema fields accepted:
	// arrow-go's loader stops at the same depth (kMaxNestingDepth).
	maxFieldDepth = 64
)

// fbReader reads a flatbuffer without trusting it. Every table, vtable,
// field, vector and string is checked against the buffer before it is
// used, in 64-bit arithmetic: an offset accepted here is the offset
// arrow-go's unchecked uint32 arithmetic computes too, and one that
// wraps around 2^32 to point back (a cycle) is refused. Offsets may also
// share a table or string, which arrow-go expands once per path. To keep
// its work proportional to the buffer, fbReader charges every expanded
// vector element to nodes and every expanded string byte to strs, both
// sized from the buffer length, and fails when either runs out.
type fbReader struct {
	b     []byte
	nodes int64 // tables and vector elements arrow-go may still expand
	strs  int64 // string bytes arrow-go may still copy
}

// newFBReader returns a reader of b. A flatbuffer built without sharing
// spends 4 bytes per vector element and holds each string once, so it
// never exhausts the budgets.
func newFBReader(b []byte) *fbReader {
	return &fbReader{b: b, nodes: int64(len(b)) / 4, strs: 2 * int64(len(b))}
}

// in reports whether [p, p+n) lies inside the buffer.
func (r *fbReader) in(p, n int64) bool {
	return p >= 0 && n >= 0 && p <= int64(len(r.b)) && n <= int64(len(r.b))-p
}

// The value readers below must be called on checked positions only.
func (r *fbReader) u8(p int64) uint8   { return r.b[p] }
func (r *fbReader) u16(p int64) uint16 { return binary.LittleEndian.Uint16(r.b[p:]) }
func (r *fbReader) u32(p int64) uint32 { return binary.LittleEndian.Uint32(r.b[p:]) }
func (r *fbReader) i64(p int64) int64  { return int64(binary.LittleEndian.Uint64(r.b[p:])) }

// take charges n expanded tables or elements of field what of table.
func (r *fbReader) take(n int64, table, what string) error {
	if n > r.nodes {
		return errorf("ipc metadata: %s %s: more tables and elements than %d bytes of metadata hold (shared or cyclic offsets)", table, what, len(r.b))
	}
	r.nodes -= n
	return nil
}

// root returns the root table of the buffer.
func (r *fbReader) root(what string) (fbTable, error) {
	if !r.in(0, 4) {
		return fbTable{}, errorf("ipc metadata: %d bytes cannot hold a %s", len(r.b), what)
	}
	return r.table(int64(r.u32(0)), what)
}

// table checks the table at pos and its vtable.
func (r *fbReader) table(pos int64, what string) (fbTable, error) {
	if !r.in(pos, 4) {
		return fbTable{}, errorf("ipc metadata: %s table at offset %d is outside the %d-byte buffer", what, pos, len(r.b))
	}
	vt := pos - int64(int32(r.u32(pos)))
	if !r.in(vt, 4) {
		return fbTable{}, errorf("ipc metadata: %s table at offset %d: vtable at offset %d is outside the %d-byte buffer", what, pos, vt, len(r.b))
	}
	vsize, tsize := int64(r.u16(vt)), int64(r.u16(vt+2))
	if vsize < 4 || vsize%2 != 0 || !r.in(vt, vsize) {
		return fbTable{}, errorf("ipc metadata: %s table at offset %d: vtable size %d at offset %d is invalid", what, pos, vsize, vt)
	}
	if tsize < 4 || !r.in(pos, tsize) {
		return fbTable{}, errorf("ipc metadata: %s table at offset %d: size %d overruns the %d-byte buffer", what, pos, tsize, len(r.b))
	}
	return fbTable{r: r, pos: pos, vt: vt, vsize: vsize, tsize: tsize, what: what}, nil
}

// fbTable is a checked table.
type fbTable struct {
	r            *fbReader
	pos, vt      int64
	vsize, tsize int64
	what         string // the table's type, for errors
}

// field returns the position of field id, of size bytes, or -1 when the
// field is absent.
func (t fbTable) field(id int, size int64) (int64, error) {
	slot := 4 + 2*int64(id)
	if slot+2 > t.vsize {
		return -1, nil
	}
	off := int64(t.r.u16(t.vt + slot))
	if off == 0 {
		return -1, nil
	}
	if off < 4 || off+size > t.tsize {
		return -1, errorf("ipc metadata: %s table at offset %d: field %d at +%d overruns its %d-byte table", t.what, t.pos, id, off, t.tsize)
	}
	return t.pos + off, nil
}

// has reports whether field id is present.
func (t fbTable) has(id int) bool {
	slot := 4 + 2*int64(id)
	return slot+2 <= t.vsize && t.r.u16(t.vt+slot) != 0
}

// scalars checks that the scalar fields 0, 1, ... of the given sizes,
// when present, lie inside the table.
func (t fbTable) scalars(sizes ...int64) error {
	for id, size := range sizes {
		if _, err := t.field(id, size); err != nil {
			return err
		}
	}
	return nil
}

// i64 returns the int64 field id, def when absent.
func (t fbTable) i64(id int, def int64) (int64, error) {
	p, err := t.field(id, 8)
	if err != nil || p < 0 {
		return def, err
	}
	return t.r.i64(p), nil
}

// u8 returns the byte field id, def when absent.
func (t fbTable) u8(id int, def uint8) (uint8, error) {
	p, err := t.field(id, 1)
	if err != nil || p < 0 {
		return def, err
	}
	return t.r.u8(p), nil
}

// ref returns the position an offset field id points to, -1 when absent.
func (t fbTable) ref(id int) (int64, error) {
	p, err := t.field(id, 4)
	if err != nil || p < 0 {
		return -1, err
	}
	return p + int64(t.r.u32(p)), nil
}

// table returns the sub-table of field id; ok is false when absent.
func (t fbTable) table(id int, what string) (sub fbTable, ok bool, err error) {
	p, err := t.ref(id)
	if err != nil || p < 0 {
		return fbTable{}, false, err
	}
	sub, err = t.r.table(p, what)
	return sub, err == nil, err
}

// fbVector is a checked vector: n elements of size bytes from start.
type fbVector struct {
	start, n, size int64
}

// at returns the position of element i.
func (v fbVector) at(i int64) int64 { return v.start + i*v.size }

// vector returns the vector of field id, of elements of size bytes
// (empty when absent), checking that it lies inside the buffer.
func (t fbTable) vector(id int, size int64, what string) (fbVector, error) {
	p, err := t.ref(id)
	if err != nil || p < 0 {
		return fbVector{size: size}, err
	}
	r := t.r
	if !r.in(p, 4) {
		return fbVector{}, errorf("ipc metadata: %s %s at offset %d is outside the %d-byte buffer", t.what, what, p, len(r.b))
	}
	n := int64(r.u32(p))
	if !r.in(p+4, n*size) {
		return fbVector{}, errorf("ipc metadata: %s %s at offset %d: %d elements of %d bytes overrun the %d-byte buffer", t.what, what, p, n, size, len(r.b))
	}
	return fbVector{start: p + 4, n: n, size: size}, nil
}

// tables returns the vector of tables of field id, charging its
// elements to the node budget.
func (t fbTable) tables(id int, what string) (fbVector, error) {
	v, err := t.vector(id, 4, what)
	if err != nil {
		return v, err
	}
	return v, t.r.take(v.n, t.what, what)
}

// elem returns table i of a vector of tables.
func (t fbTable) elem(v fbVector, i int64, what string) (fbTable, error) {
	p := v.at(i)
	return t.r.table(p+int64(t.r.u32(p)), what)
}

// string checks the string of field id, when present: its bytes and
// terminating zero inside the buffer, its length charged to the string
// budget.
func (t fbTable) string(id int, what string) error {
	p, err := t.ref(id)
	if err != nil || p < 0 {
		return err
	}
	r := t.r
	if !r.in(p, 4) {
		return errorf("ipc metadata: %s %s at offset %d is outside the %d-byte buffer", t.what, what, p, len(r.b))
	}
	n := int64(r.u32(p))
	if !r.in(p+4, n+1) || r.b[p+4+n] != 0 {
		return errorf("ipc metadata: %s %s at offset %d: %d bytes overrun the %d-byte buffer", t.what, what, p, n, len(r.b))
	}
	if n > r.strs {
		return errorf("ipc metadata: %s %s: more string bytes than %d bytes of metadata hold (shared offsets)", t.what, what, len(r.b))
	}
	r.strs -= n
	return nil
}
