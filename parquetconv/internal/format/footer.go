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

// tailRead is how many bytes at the end of a file ReadFooter reads at
// once: the footer of files of a few columns and row groups, its length
// and magic with it, in one read (one request from object storage), as
// Arrow C++ does with 64 KiB; less here, so that a read of a few pages
// (Take) does not read much more than it needs.
const tailRead = 8 << 10

// Footer is the footer of a Parquet file as ReadFooter read it.
type Footer struct {
	Bytes  []byte // the Thrift FileMetaData, without its length and magic
	Schema []byte // the bytes of its schema list, within Bytes
}

// ReadFooter reads the footer of the size-byte file r and checks it
// before arrow-go parses it: arrow-go sizes Go slices from the counts in
// the footer (list lengths, the schema's num_children) without checking
// them against the bytes that hold them. The footer is read with one
// ReadAt when it lies in the file's last 8 KiB, two otherwise.
func ReadFooter(r io.ReaderAt, size int64) (Footer, error) {
	footer, err := readFooter(r, size)
	if err != nil {
		return Footer{}, err
	}
	schema, err := checkFileMetaData(footer)
	return Footer{Bytes: footer, Schema: schema}, err
}

// readFooter returns the bytes of the footer of the size-byte file r.
func readFooter(r io.ReaderAt, size int64) ([]byte, error) {
	if size < 12 {
		return nil, errorf("file of %d bytes is too short for Parquet", size)
	}
	tail := make([]byte, min(size, tailRead))
	if _, err := r.ReadAt(tail, size-int64(len(tail))); err != nil {
		return nil, errorf("read footer: %w", err)
	}
	end := tail[len(tail)-8:]
	switch {
	case bytes.Equal(end[4:], []byte("PARE")):
		return nil, errorf("encrypted footer: %w", arrow.ErrNotImplemented)
	case !bytes.Equal(end[4:], []byte("PAR1")):
		return nil, errorf("no PAR1 magic at the end of the file")
	}
	n := int64(binary.LittleEndian.Uint32(end[:4]))
	if n > size-12 || n > maxFooterBytes {
		return nil, errorf("footer of %d bytes does not fit the %d-byte file (at most %d)", n, size, int64(maxFooterBytes))
	}
	var footer []byte
	if n <= int64(len(tail))-8 {
		footer = tail[int64(len(tail))-8-n : len(tail)-8]
	} else {
		footer = make([]byte, n)
		if _, err := r.ReadAt(footer, size-8-n); err != nil {
			return nil, errorf("read footer: %w", err)
		}
	}
	return footer, nil
}

// checkFileMetaData walks a FileMetaData struct: every list and string
// within the bytes left, nesting bounded, and the schema a tree whose
// num_children counts match its elements. It returns the bytes of the
// schema list.
func checkFileMetaData(b []byte) ([]byte, error) {
	r := &thriftReader{b: b, what: "footer"}
	var children []int32
	var schema []byte
	r.structFields(func(id int16, typ byte) bool {
		if id != 2 || typ != tList {
			return false
		}
		if !r.enter() {
			return true
		}
		start := r.p
		defer func() { schema = b[start:min(r.p, len(b))] }()
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
		return nil, r.err
	}
	return schema, checkSchemaTree(children)
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
