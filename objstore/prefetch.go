package objstore

import "sync"

// MaxPrefetch is the most bytes an Object holds from Prefetch, over its
// ranges; a larger range is not prefetched.
const MaxPrefetch = 64 << 20

// maxPrefetch is MaxPrefetch; tests lower it.
var maxPrefetch int64 = MaxPrefetch

// held is what an Object keeps from Prefetch: the ranges read last,
// oldest first.
type held struct {
	mu     sync.Mutex
	ranges []heldRange
	bytes  int64
}

type heldRange struct {
	off  int64
	data []byte
}

// Prefetch reads bytes [off, off+n) of the object (as far as it goes)
// with one ranged GET and keeps them, so that the ReadAt calls that fall
// inside the range cost no request: a reader that walks a Parquet column
// chunk page by page, or checks an IPC record batch before it decodes
// it, calls it with the range it is about to read (packages parquetconv
// and arrowipc do, on a source that has the method). The object keeps
// the ranges prefetched last, MaxPrefetch bytes at most; a range larger
// than that, empty, or inside one held already is not read. The bytes
// are held until later ranges push them out or the Object is dropped.
//
// Prefetch is advice: its errors are ReadAt's, and after one the reads
// ask the server as they would without it.
func (o *Object) Prefetch(off, n int64) error {
	if off < 0 || off >= o.size || n <= 0 || n > maxPrefetch {
		return nil
	}
	n = min(n, o.size-off)
	if _, ok := o.held.lookup(off, n); ok {
		return nil
	}
	data := make([]byte, n)
	if _, err := o.ReadAt(data, off); err != nil {
		return err
	}
	o.held.add(off, data)
	return nil
}

// lookup returns the held bytes [off, off+n), if a range holds them
// all.
func (h *held) lookup(off, n int64) ([]byte, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i := len(h.ranges) - 1; i >= 0; i-- {
		r := h.ranges[i]
		if off >= r.off && off-r.off <= int64(len(r.data)) && n <= int64(len(r.data))-(off-r.off) {
			return r.data[off-r.off : off-r.off+n], true
		}
	}
	return nil, false
}

// add holds data, the bytes at off, dropping the oldest ranges beyond
// MaxPrefetch bytes.
func (h *held) add(off int64, data []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.ranges = append(h.ranges, heldRange{off, data})
	h.bytes += int64(len(data))
	for h.bytes > maxPrefetch {
		h.bytes -= int64(len(h.ranges[0].data))
		h.ranges[0] = heldRange{}
		h.ranges = h.ranges[1:]
	}
}
