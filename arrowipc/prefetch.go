package arrowipc

// prefetchBudget is the most bytes Prefetch asks for at once beyond its
// first batch: well under what an object of package objstore holds
// (objstore.MaxPrefetch), so that no range is pushed out before it is
// read.
const prefetchBudget = 32 << 20

// prefetchBatches is the most batches Prefetch asks for at once, which
// bounds the requests made for batches a reader may not reach.
const prefetchBatches = 64

// rangesPrefetcher is a source that reads several ranges ahead at once,
// with concurrent requests (objstore.Object.PrefetchRanges).
type rangesPrefetcher interface {
	PrefetchRanges(ranges [][2]int64) error
}

// Prefetch tells the source of the reader that the record batches is
// (indexes, in the order they will be read) are about to be read: their
// metadata only (for BatchRows), or whole with body. On a source that
// reads several ranges at once (an object of package objstore, through
// tensorio: concurrent ranged GETs) it asks for the batches from is[0]
// on, as many as fit in 32 MiB and 64 batches (is[0] at least), and
// returns how many; on any other source it does nothing and returns
// len(is). Indexes out of
// range end the batches asked. Prefetch is advice: the reads that follow
// check everything and report errors as they would without it.
func (r *FileReader) Prefetch(is []int, body bool) int {
	rp, ok := r.src.(rangesPrefetcher)
	if !ok || len(is) == 0 {
		return len(is)
	}
	var ranges [][2]int64
	var total int64
	k := 0
	for ; k < len(is) && k < prefetchBatches; k++ {
		i := is[k]
		if i < 0 || i >= len(r.check.batches) {
			break
		}
		blk := r.check.batches[i]
		n := int64(blk.Meta)
		if body {
			n += blk.Body
		}
		if k > 0 && total+n > prefetchBudget {
			break
		}
		ranges, total = append(ranges, [2]int64{blk.Offset, n}), total+n
	}
	rp.PrefetchRanges(ranges)
	return max(k, 1)
}
