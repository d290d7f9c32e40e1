package parquetconv

import "github.com/fstensor/fstensor/parquetconv/internal/format"

// aheadBudget is the most bytes a Take asks a source that prefetches
// several ranges at once (rangesPrefetcher) to hold ahead of its reads:
// well under what an object holds (objstore.MaxPrefetch), so that no
// range is pushed out before it is read.
const aheadBudget = 32 << 20

// ahead asks a source that prefetches several ranges at once for the
// ranges a Take is about to read, group after group, so that object
// storage serves them with concurrent requests rather than one round
// trip each: byGroup[gi] are the ranges of t.groups[gi], asked from
// group next on, aheadBudget bytes at a time. Its requests are advice:
// the reads check everything and report errors as they would without
// it.
type ahead struct {
	rp      rangesPrefetcher
	byGroup [][][2]int64
	next    int
}

// upTo asks for the ranges of group gi and of the groups after it that
// fit in aheadBudget, unless asked already.
func (a *ahead) upTo(gi int) {
	if a == nil || gi < a.next {
		return
	}
	var ranges [][2]int64
	var total int64
	for a.next < len(a.byGroup) {
		var n int64
		for _, r := range a.byGroup[a.next] {
			n += r[1]
		}
		if len(ranges) > 0 && total+n > aheadBudget {
			break
		}
		ranges, total = append(ranges, a.byGroup[a.next]...), total+n
		a.next++
	}
	a.rp.PrefetchRanges(ranges)
}

// chunkAhead returns the ahead of the whole chunks of leaves in the row
// groups of the Take, or nil when its source does not prefetch several
// ranges at once.
func (t *taker) chunkAhead(leaves []int) *ahead {
	rp, ok := t.rd.r.(rangesPrefetcher)
	if !ok {
		return nil
	}
	a := &ahead{rp: rp, byGroup: make([][][2]int64, len(t.groups))}
	md := t.rd.pf.MetaData()
	for gi, gr := range t.groups {
		for _, leaf := range leaves {
			cc, err := md.RowGroup(gr.g).ColumnChunk(leaf)
			if err != nil {
				continue
			}
			if start, n, err := chunkBounds(cc, t.rd.dataEnd, t.rd.cfg.maxChunkBytes); err == nil {
				a.byGroup[gi] = append(a.byGroup[gi], [2]int64{start, n})
			}
		}
	}
	return a
}

// tensorAhead returns the ahead of the pages that hold the rows asked of
// the tensor leaf p, or nil when the source does not prefetch several
// ranges at once. It reads the chunks' OffsetIndexes, all asked at once;
// a chunk without one (or whose index is malformed) counts whole.
func (t *taker) tensorAhead(p *tensorLeaf) *ahead {
	rp, ok := t.rd.r.(rangesPrefetcher)
	if !ok {
		return nil
	}
	md := t.rd.pf.MetaData()
	var locs [][2]int64
	for _, gr := range t.groups {
		if cc, err := md.RowGroup(gr.g).ColumnChunk(p.leaf); err == nil {
			if loc := cc.GetOffsetIndexLocation(); loc != nil {
				locs = append(locs, [2]int64{loc.Offset, int64(loc.Length)})
			}
		}
	}
	rp.PrefetchRanges(locs)
	a := &ahead{rp: rp, byGroup: make([][][2]int64, len(t.groups))}
	for gi := range t.groups {
		gr := &t.groups[gi]
		cc, err := md.RowGroup(gr.g).ColumnChunk(p.leaf)
		if err != nil {
			continue
		}
		start, n, err := chunkBounds(cc, t.rd.dataEnd, t.rd.cfg.maxChunkBytes)
		if err != nil {
			continue
		}
		pages, err := t.offsetIndex(cc, start, n, gr.rows)
		if err != nil || pages == nil {
			a.byGroup[gi] = [][2]int64{{start, n}}
			continue
		}
		if pages[0].Offset > start { // the dictionary page
			a.byGroup[gi] = append(a.byGroup[gi], [2]int64{start, pages[0].Offset - start})
		}
		for _, sp := range pageSpans(pages, gr) {
			a.byGroup[gi] = append(a.byGroup[gi], spanRange(pages, sp))
		}
	}
	return a
}

// spanRange returns the bytes {off, n} of the pages of sp.
func spanRange(pages []format.PageLocation, sp pageSpan) [2]int64 {
	end := pages[sp.to].Offset + int64(pages[sp.to].Size)
	return [2]int64{pages[sp.from].Offset, end - pages[sp.from].Offset}
}
