package format

// Parquet page types, encodings and codecs (parquet.thrift).
const (
	PageData       = 0
	PageIndex      = 1
	PageDictionary = 2
	PageDataV2     = 3

	EncPlain           = 0
	EncPlainDict       = 2
	EncRLE             = 3
	EncBitPacked       = 4
	EncRLEDict         = 8
	EncByteStreamSplit = 9

	CodecNone   = 0
	CodecSnappy = 1
	CodecGzip   = 2
	CodecZstd   = 6
	CodecLz4Raw = 7
)

// PageHeader holds the fields of a PageHeader the reader uses.
type PageHeader struct {
	Type                     int32
	Uncompressed, Compressed int32

	NumValues int32 // levels of a data page, values of a dictionary page
	Encoding  int32 // of the values
	DefEnc    int32 // v1 level encodings
	RepEnc    int32

	NumRows        int32 // v2
	DefLen, RepLen int32 // v2 level byte lengths
	CompressedV2   bool  // v2: values compressed (default true)
	HasPage        bool  // the header of its type was present
}

// ParsePageHeader parses the PageHeader at the start of b and returns
// it with its length in bytes.
func ParsePageHeader(b []byte) (PageHeader, int, error) {
	h := PageHeader{CompressedV2: true, Type: -1, Uncompressed: -1, Compressed: -1}
	r := &thriftReader{b: b, what: "page header"}
	top := []*int32{1: &h.Type, 2: &h.Uncompressed, 3: &h.Compressed}
	v1 := []*int32{1: &h.NumValues, 2: &h.Encoding, 3: &h.DefEnc, 4: &h.RepEnc}
	dict := []*int32{1: &h.NumValues, 2: &h.Encoding}
	v2 := []*int32{1: &h.NumValues, 3: &h.NumRows, 4: &h.Encoding, 5: &h.DefLen, 6: &h.RepLen}
	r.structFields(func(id int16, typ byte) bool {
		switch {
		case id == 5 && typ == tStruct && h.Type == PageData:
			h.HasPage = true
			r.structFields(func(id int16, typ byte) bool { return r.i32Field(v1, id, typ) })
		case id == 7 && typ == tStruct && h.Type == PageDictionary:
			h.HasPage = true
			r.structFields(func(id int16, typ byte) bool { return r.i32Field(dict, id, typ) })
		case id == 8 && typ == tStruct && h.Type == PageDataV2:
			h.HasPage = true
			r.structFields(func(id int16, typ byte) bool {
				if id == 7 && (typ == tTrue || typ == tFalse) {
					h.CompressedV2 = r.bool(typ)
					return true
				}
				return r.i32Field(v2, id, typ)
			})
		default:
			return r.i32Field(top, id, typ)
		}
		return true
	})
	if r.err != nil {
		return h, 0, r.err
	}
	if h.Type < 0 || h.Uncompressed < 0 || h.Compressed < 0 {
		return h, 0, errorf("page header: type %d, sizes %d and %d", h.Type, h.Compressed, h.Uncompressed)
	}
	if h.NumValues < 0 || h.NumRows < 0 || h.DefLen < 0 || h.RepLen < 0 {
		return h, 0, errorf("page header: negative count (values %d, rows %d, level bytes %d and %d)", h.NumValues, h.NumRows, h.DefLen, h.RepLen)
	}
	return h, r.p, nil
}

// i32Field reads field id of type typ into *dst[id] when it is an i32 and
// dst holds a pointer at id, and reports whether it did; a structFields
// callback returns its result, so that other fields are skipped.
func (r *thriftReader) i32Field(dst []*int32, id int16, typ byte) bool {
	if typ != tI32 || id < 0 || int(id) >= len(dst) || dst[id] == nil {
		return false
	}
	*dst[id] = r.i32()
	return true
}
