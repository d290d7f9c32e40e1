package parquetconv

// Parquet page types, encodings and codecs (parquet.thrift).
const (
	pageData       = 0
	pageIndex      = 1
	pageDictionary = 2
	pageDataV2     = 3

	encPlain         = 0
	encPlainDict     = 2
	encRLE           = 3
	encBitPacked     = 4
	encRLEDict       = 8
	encByteStreamSpl = 9

	codecNone   = 0
	codecSnappy = 1
	codecGzip   = 2
	codecZstd   = 6
	codecLz4Raw = 7
)

// pageHeader holds the fields of a PageHeader the reader uses.
type pageHeader struct {
	typ                      int32
	uncompressed, compressed int32

	numValues int32 // levels of a data page, values of a dictionary page
	encoding  int32 // of the values
	defEnc    int32 // v1 level encodings
	repEnc    int32

	numRows        int32 // v2
	defLen, repLen int32 // v2 level byte lengths
	compressedV2   bool  // v2: values compressed (default true)
	hasPage        bool  // the header of its type was present
}

// parsePageHeader parses the PageHeader at the start of b and returns
// it with its length in bytes.
func parsePageHeader(b []byte) (pageHeader, int, error) {
	h := pageHeader{compressedV2: true, typ: -1, uncompressed: -1, compressed: -1}
	r := &thriftReader{b: b, what: "page header"}
	r.structFields(func(id int16, typ byte) bool {
		switch {
		case id == 1 && typ == tI32:
			h.typ = r.i32()
		case id == 2 && typ == tI32:
			h.uncompressed = r.i32()
		case id == 3 && typ == tI32:
			h.compressed = r.i32()
		case id == 5 && typ == tStruct && h.typ == pageData:
			h.hasPage = true
			r.structFields(func(id int16, typ byte) bool {
				switch {
				case id == 1 && typ == tI32:
					h.numValues = r.i32()
				case id == 2 && typ == tI32:
					h.encoding = r.i32()
				case id == 3 && typ == tI32:
					h.defEnc = r.i32()
				case id == 4 && typ == tI32:
					h.repEnc = r.i32()
				default:
					return false
				}
				return true
			})
		case id == 7 && typ == tStruct && h.typ == pageDictionary:
			h.hasPage = true
			r.structFields(func(id int16, typ byte) bool {
				switch {
				case id == 1 && typ == tI32:
					h.numValues = r.i32()
				case id == 2 && typ == tI32:
					h.encoding = r.i32()
				default:
					return false
				}
				return true
			})
		case id == 8 && typ == tStruct && h.typ == pageDataV2:
			h.hasPage = true
			r.structFields(func(id int16, typ byte) bool {
				switch {
				case id == 1 && typ == tI32:
					h.numValues = r.i32()
				case id == 3 && typ == tI32:
					h.numRows = r.i32()
				case id == 4 && typ == tI32:
					h.encoding = r.i32()
				case id == 5 && typ == tI32:
					h.defLen = r.i32()
				case id == 6 && typ == tI32:
					h.repLen = r.i32()
				case id == 7 && (typ == tTrue || typ == tFalse):
					h.compressedV2 = r.bool(typ)
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
	if h.typ < 0 || h.uncompressed < 0 || h.compressed < 0 {
		return h, 0, errorf("page header: type %d, sizes %d and %d", h.typ, h.compressed, h.uncompressed)
	}
	if h.numValues < 0 || h.numRows < 0 || h.defLen < 0 || h.repLen < 0 {
		return h, 0, errorf("page header: negative count (values %d, rows %d, level bytes %d and %d)", h.numValues, h.numRows, h.defLen, h.repLen)
	}
	return h, r.p, nil
}
