package format

// PageLocation is one entry of a column chunk's OffsetIndex: where a
// data page lies in the file (Offset, Size in bytes, its header
// included) and the index of its first row in the row group.
type PageLocation struct {
	Offset   int64
	Size     int32
	FirstRow int64
}

// ParseOffsetIndex parses the OffsetIndex struct at the start of b and
// appends its page locations to dst. Every location must have its three
// fields, none negative; their order and their fit in the chunk are the
// caller's to check.
func ParseOffsetIndex(dst []PageLocation, b []byte) ([]PageLocation, error) {
	r := &thriftReader{b: b, what: "offset index"}
	seen := false
	r.structFields(func(id int16, typ byte) bool {
		if id != 1 || typ != tList {
			return false
		}
		seen = true
		if !r.enter() {
			return true
		}
		defer r.leave()
		n, elem := r.listHeader()
		if n > 0 && elem != tStruct {
			r.fail("page location list of type %d", elem)
		}
		for i := 0; i < n && r.err == nil; i++ {
			p := PageLocation{Offset: -1, Size: -1, FirstRow: -1}
			r.structFields(func(id int16, typ byte) bool {
				switch {
				case id == 1 && typ == tI64:
					p.Offset = r.i64()
				case id == 2 && typ == tI32:
					p.Size = r.i32()
				case id == 3 && typ == tI64:
					p.FirstRow = r.i64()
				default:
					return false
				}
				return true
			})
			if r.err == nil && (p.Offset < 0 || p.Size < 0 || p.FirstRow < 0) {
				r.fail("page location %d: offset %d, size %d, first row %d", i, p.Offset, p.Size, p.FirstRow)
			}
			dst = append(dst, p)
		}
		return true
	})
	if r.err != nil {
		return dst, r.err
	}
	if !seen {
		return dst, errorf("offset index without page locations")
	}
	return dst, nil
}
