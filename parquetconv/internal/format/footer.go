package format

import (
	"bytes"
	"encoding/binary"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
)

// maxFooterBytes is the largest footer accepted: the Thrift library's
// default message size limit, which arrow-go applies to strings only.
const maxFooterBytes = 100 << 20

// maxSchemaDepth is the deepest nesting of the Parquet schema accepted;
// arrow-go builds it recursively.
const maxSchemaDepth = 64

// CheckFooter reads the footer of the size-byte file r and checks it
// before arrow-go parses it: arrow-go sizes Go slices from the counts in
// the footer (list lengths, the schema's num_children) without checking
// them against the bytes that hold them. It returns the footer's length.
func CheckFooter(r io.ReaderAt, size int64) (int64, error) {
	if size < 12 {
		return 0, errorf("file of %d bytes is too short for Parquet", size)
	}
	var tail [8]byte
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return 0, errorf("read footer: %w", err)
	}
	switch {
	case bytes.Equal(tail[4:], []byte("PARE")):
		return 0, errorf("encrypted footer: %w", arrow.ErrNotImplemented)
	case !bytes.Equal(tail[4:], []byte("PAR1")):
		return 0, errorf("no PAR1 magic at the end of the file")
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	if n > size-12 || n > maxFooterBytes {
		return 0, errorf("footer of %d bytes does not fit the %d-byte file (at most %d)", n, size, int64(maxFooterBytes))
	}
	footer := make([]byte, n)
	if _, err := r.ReadAt(footer, size-8-n); err != nil {
		return 0, errorf("read footer: %w", err)
	}
	return n, checkFileMetaData(footer)
}

// checkFileMetaData walks a FileMetaData struct: every list and string
// within the bytes left, nesting bounded, and the schema a tree whose
// num_children counts match its elements.
func checkFileMetaData(b []byte) error {
	r := &thriftReader{b: b, what: "footer"}
	var children []int32
	r.structFields(func(id int16, typ byte) bool {
		if id != 2 || typ != tList {
			return false
		}
		if !r.enter() {
			return true
		}
		n, elem := r.listHeader()
		if n > 0 && elem != tStruct {
			r.fail("schema list of type %d", elem)
		}
		for i := 0; i < n && r.err == nil; i++ {
			var nc int32
			r.structFields(func(id int16, typ byte) bool {
				if id == 5 && typ == tI32 {
					nc = r.i32()
					return true
				}
				return false
			})
			children = append(children, nc)
		}
		r.leave()
		return true
	})
	if r.err != nil {
		return r.err
	}
	return checkSchemaTree(children)
}

// checkSchemaTree checks the num_children of a flattened schema (depth
// first, root first): non-negative, within the elements that follow,
// nesting at most maxSchemaDepth, and every element used.
func checkSchemaTree(children []int32) error {
	if len(children) == 0 {
		return errorf("footer: empty schema")
	}
	var open []int32 // children still expected, per open group
	for i, nc := range children {
		if nc < 0 {
			return errorf("footer: schema element %d has %d children", i, nc)
		}
		if i > 0 {
			if len(open) == 0 {
				return errorf("footer: schema element %d is outside the tree", i)
			}
			open[len(open)-1]--
		}
		if nc > 0 {
			if int64(nc) > int64(len(children)-i-1) {
				return errorf("footer: schema element %d claims %d children, %d elements follow", i, nc, len(children)-i-1)
			}
			if len(open) == maxSchemaDepth {
				return errorf("footer: schema nests deeper than %d levels", maxSchemaDepth)
			}
			open = append(open, nc)
		}
		for len(open) > 0 && open[len(open)-1] == 0 {
			open = open[:len(open)-1]
		}
	}
	if len(open) > 0 {
		return errorf("footer: schema ends with %d groups incomplete", len(open))
	}
	return nil
}
