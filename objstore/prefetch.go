package objstore

import (
	"errors"
	"sync"
)

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

// MaxConcurrentGets is the most ranged GETs PrefetchRanges has in
// flight at once.
const MaxConcurrentGets = 8

// PrefetchRanges is Prefetch of several ranges, each given as {off, n},
// read with concurrent ranged GETs (MaxConcurrentGets at most at once),
// so that a reader that knows every range it is about to read (the pages
// holding the rows of a take) waits for one round trip rather than one
// per range. The ranges are held as Prefetch holds them; ranges beyond
// MaxPrefetch bytes in all (counted in order) are not read, so that none
// pushes out another before it is used, nor are ranges that Prefetch
// would not read.
//
// PrefetchRanges is advice, as Prefetch is: it returns the first error of
// its GETs, and the ranges read without error are held all the same.
func (o *Object) PrefetchRanges(ranges [][2]int64) error {
	var todo [][2]int64
	var total int64
	for _, r := range ranges {
		off, n := r[0], r[1]
		if off < 0 || off >= o.size || n <= 0 || n > maxPrefetch {
			continue
		}
		n = min(n, o.size-off)
		if _, ok := o.held.lookup(off, n); ok {
			continue
		}
		if total += n; total > maxPrefetch {
			break
		}
		todo = append(todo, [2]int64{off, n})
	}
	data := make([][]byte, len(todo))
	errs := make([]error, len(todo))
	sem := make(chan struct{}, MaxConcurrentGets)
	var wg sync.WaitGroup
	for i, r := range todo {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			b := make([]byte, r[1])
			if _, err := o.ReadAt(b, r[0]); err != nil {
				errs[i] = err
				return
			}
			data[i] = b
		}()
	}
	wg.Wait()
	for i, b := range data {
		if b != nil {
			o.held.add(todo[i][0], b)
		}
	}
	return errors.Join(errs...)
}
