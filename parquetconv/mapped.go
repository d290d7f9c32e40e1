package parquetconv

import (
	"os"

	"github.com/fstensor/fstensor/internal/mmap"
)

// mapFile maps rd.r whole when it is an *os.File whose mapping holds
// the data (the file did not shrink since the footer was read), so that
// the tensor chunks' pages are read from the page cache with no read
// into a buffer first; it returns the function that drops the reader's
// use of the mapping, to call once the decoding stopped. Anything else,
// or a mapping the system refuses, leaves the pages to ReadAt.
//
// Unless [WithoutZeroCopy] was given, the mapping is leased where the
// system grants a lease (mmap.MapFileShared), and then rd.ref counts its
// users: chunks that view allows are handed out where they lie, and the
// mapping lives until the last buffer pointing into it is released. A
// change to the file then leaves those bytes as they were (the lease's
// break copies them), so they never fault or change under a batch.
func (rd *reader) mapFile() func() {
	f, ok := rd.r.(*os.File)
	if !ok || !mmap.Mapped { // a copy of the whole file would read every column
		return func() {}
	}
	var m *mmap.Mapping
	var err error
	if rd.cfg.noZeroCopy {
		m, err = mmap.MapFile(f)
	} else {
		m, err = mmap.MapFileShared(f, false)
	}
	if err != nil {
		return func() {}
	}
	if int64(len(m.Bytes())) < rd.dataEnd {
		m.Close()
		return func() {}
	}
	rd.mem = m.Bytes()
	if !m.Leased() {
		return func() {
			rd.mem = nil
			m.Close()
		}
	}
	rd.ref = newMapRef(m)
	return func() {
		rd.mem = nil
		rd.ref.release()
	}
}
