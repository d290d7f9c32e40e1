package format

// A reader of the Thrift compact protocol, for the few Parquet structs
// the reader parses itself (page headers) or checks before arrow-go
// parses them (the footer). It never trusts a length: every list, string
// and nested struct is checked against the bytes left, nesting is
// bounded, and the first error sticks.

// Thrift compact protocol types.
const (
	tStop    = 0
	tTrue    = 1
	tFalse   = 2
	tByte    = 3
	tI16     = 4
	tI32     = 5
	tI64     = 6
	tDouble  = 7
	tBinary  = 8
	tList    = 9
	tSet     = 10
	tMap     = 11
	tStruct  = 12
	maxTNest = 64
)

type thriftReader struct {
	b     []byte
	p     int
	err   error
	what  string // the struct read, for errors
	depth int
}

func (r *thriftReader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = errorf("%s: "+format, append([]any{r.what}, args...)...)
	}
}

func (r *thriftReader) byte() byte {
	if r.err != nil {
		return 0
	}
	if r.p >= len(r.b) {
		r.fail("truncated at byte %d", r.p)
		return 0
	}
	c := r.b[r.p]
	r.p++
	return c
}

func (r *thriftReader) uvarint() uint64 {
	var x uint64
	for s := uint(0); s < 70; s += 7 {
		c := r.byte()
		if r.err != nil {
			return 0
		}
		x |= uint64(c&0x7f) << s
		if c < 0x80 {
			return x
		}
	}
	r.fail("varint too long at byte %d", r.p)
	return 0
}

func (r *thriftReader) i64() int64 {
	u := r.uvarint()
	return int64(u>>1) ^ -int64(u&1)
}

// i32 reads a zigzag varint that must fit in an int32.
func (r *thriftReader) i32() int32 {
	v := r.i64()
	if v != int64(int32(v)) {
		r.fail("int32 value %d out of range", v)
		return 0
	}
	return int32(v)
}

// field reads a field header; typ is tStop at the end of a struct.
func (r *thriftReader) field(last *int16) (id int16, typ byte) {
	c := r.byte()
	if r.err != nil {
		return 0, tStop
	}
	typ = c & 0x0f
	if typ == tStop {
		return 0, tStop
	}
	if d := c >> 4; d != 0 {
		id = *last + int16(d)
	} else {
		v := r.i64()
		if v != int64(int16(v)) {
			r.fail("field id %d out of range", v)
			return 0, tStop
		}
		id = int16(v)
	}
	*last = id
	return id, typ
}

// listHeader reads a list or set header; its element count is at most
// the bytes left (every element takes one byte or more).
func (r *thriftReader) listHeader() (n int, elem byte) {
	c := r.byte()
	n64 := uint64(c >> 4)
	if n64 == 15 {
		n64 = r.uvarint()
	}
	if r.err == nil && n64 > uint64(len(r.b)-r.p) {
		r.fail("list of %d elements overruns the %d bytes left", n64, len(r.b)-r.p)
	}
	if r.err != nil {
		return 0, tStop
	}
	return int(n64), c & 0x0f
}

// binary returns the bytes of a binary or string value.
func (r *thriftReader) binary() []byte {
	n := r.uvarint()
	if r.err == nil && n > uint64(len(r.b)-r.p) {
		r.fail("string of %d bytes overruns the %d bytes left", n, len(r.b)-r.p)
	}
	if r.err != nil {
		return nil
	}
	s := r.b[r.p : r.p+int(n)]
	r.p += int(n)
	return s
}

// bool reads the value of a field of type typ (booleans are in the
// field header).
func (r *thriftReader) bool(typ byte) bool {
	if typ != tTrue && typ != tFalse {
		r.fail("boolean field of type %d", typ)
	}
	return typ == tTrue
}

// enter and leave bound the nesting of structs and containers.
func (r *thriftReader) enter() bool {
	r.depth++
	if r.depth > maxTNest {
		r.fail("nested deeper than %d levels", maxTNest)
		return false
	}
	return r.err == nil
}

func (r *thriftReader) leave() { r.depth-- }

// skip skips a value of type typ.
func (r *thriftReader) skip(typ byte) {
	if r.err != nil {
		return
	}
	switch typ {
	case tTrue, tFalse:
	case tByte:
		r.byte()
	case tI16, tI32, tI64:
		r.uvarint()
	case tDouble:
		if len(r.b)-r.p < 8 {
			r.fail("truncated double at byte %d", r.p)
			return
		}
		r.p += 8
	case tBinary:
		r.binary()
	case tList, tSet:
		if !r.enter() {
			return
		}
		n, elem := r.listHeader()
		for range n {
			if r.err != nil {
				break
			}
			if elem == tTrue || elem == tFalse { // one byte per element
				r.byte()
				continue
			}
			r.skip(elem)
		}
		r.leave()
	case tMap:
		if !r.enter() {
			return
		}
		n := r.uvarint()
		if r.err == nil && n > uint64(len(r.b)-r.p) {
			r.fail("map of %d entries overruns the %d bytes left", n, len(r.b)-r.p)
		}
		if n > 0 {
			kv := r.byte()
			for i := uint64(0); i < n && r.err == nil; i++ {
				r.skipElem(kv >> 4)
				r.skipElem(kv & 0x0f)
			}
		}
		r.leave()
	case tStruct:
		r.structFields(func(int16, byte) bool { return false })
	default:
		r.fail("unknown type %d at byte %d", typ, r.p)
	}
}

// skipElem skips a container element (booleans take a byte there).
func (r *thriftReader) skipElem(typ byte) {
	if typ == tTrue || typ == tFalse {
		r.byte()
		return
	}
	r.skip(typ)
}

// structFields reads the fields of a struct up to its stop byte, calling
// f on each; f reads the value and returns true, or returns false to
// have it skipped.
func (r *thriftReader) structFields(f func(id int16, typ byte) bool) {
	if !r.enter() {
		return
	}
	var last int16
	for r.err == nil {
		id, typ := r.field(&last)
		if typ == tStop {
			break
		}
		if !f(id, typ) {
			r.skip(typ)
		}
	}
	r.leave()
}
