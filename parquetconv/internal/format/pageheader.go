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
	r.structFields(func(id int16, typ byte) bool {
		switch {
		case id == 1 && typ == tI32:
			h.Type = r.i32()
		case id == 2 && typ == tI32:
			h.Uncompressed = r.i32()
		case id == 3 && typ == tI32:
			h.Compressed = r.i32()
		case id == 5 && typ == tStruct && h.Type == PageData:
			h.HasPage = true
			r.structFields(func(id int16, typ byte) bool {
				switch {
				case id == 1 && typ == tI32:
					h.NumValues = r.i32()
				case id == 2 && typ == tI32:
					h.Encoding = r.i32()
				case id == 3 && typ == tI32:
					h.DefEnc = r.i32()
				case id == 4 && typ == tI32:
					h.RepEnc = r.i32()
				default:
					return false
				}
				return true
			})
		case id == 7 && typ == tStruct && h.Type == PageDictionary:
			h.HasPage = true
			r.structFields(func(id int16, typ byte) bool {
				switch {
				case id == 1 && typ == tI32:
					h.NumValues = r.i32()
				case id == 2 && typ == tI32:
					h.Encoding = r.i32()
				default:
					return false
				}
				return true
			})
		case id == 8 && typ == tStruct && h.Type == PageDataV2:
			h.HasPage = true
			r.structFields(func(id int16, typ byte) bool {
				switch {
				case id == 1 && typ == tI32:
					h.NumValues = r.i32()
				case id == 3 && typ == tI32:
					h.NumRows = r.i32()
				case id == 4 && typ == tI32:
					h.Encoding = r.i32()
				case id == 5 && typ == tI32:
					h.DefLen = r.i32()
				case id == 6 && typ == tI32:
					h.RepLen = r.i32()
				case id == 7 && (typ == tTrue || typ == tFalse):
					h.CompressedV2 = r.bool(typ)
				default:
					return false
				}
				return true
			})
		default:
			return false
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
