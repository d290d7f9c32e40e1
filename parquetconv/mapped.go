package parquetconv

import (
	"os"

	"github.com/fstensor/fstensor/internal/mmap"
)

// mapFile maps rd.r whole when it is an *os.File whose mapping holds
// the data (the file did not shrink since the footer was read), so that
// the tensor chunks' pages are copied once, from the page cache into the
// columns, with no read into a buffer first; it returns the function
// that unmaps it, to call once the decoding stopped. Anything else, or a
// mapping the system refuses, leaves the pages to ReadAt.
func (rd *reader) mapFile() func() {
	f, ok := rd.r.(*os.File)
	if !ok || !mmap.Mapped { // a copy of the whole file would read every column
		return func() {}
	}
	m, err := mmap.MapFile(f)
	if err != nil {
		return func() {}
	}
	if int64(len(m.Bytes())) < rd.dataEnd {
		m.Close()
		return func() {}
	}
	rd.mem = m.Bytes()
	return func() {
		rd.mem = nil
		m.Close()
	}
}
