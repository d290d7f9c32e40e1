package parquetconv

import (
	"io"

	"github.com/apache/arrow-go/v18/parquet"

	"github.com/fstensor/fstensor/parquetconv/internal/format"
)

// prefetchSection is an io.SectionReader that keeps the Prefetch of the
// source it reads.
type prefetchSection struct {
	*io.SectionReader
	p prefetcher
}

func (s prefetchSection) Prefetch(off, n int64) error { return s.p.Prefetch(off, n) }

// rangesSection is a prefetchSection whose source also reads several
// ranges at once, and keeps that method too.
type rangesSection struct {
	prefetchSection
	rp rangesPrefetcher
}

func (s rangesSection) PrefetchRanges(ranges [][2]int64) error { return s.rp.PrefetchRanges(ranges) }

// rangesPrefetcher is a source that reads several ranges ahead at once,
// with concurrent requests (objstore.Object.PrefetchRanges).
type rangesPrefetcher interface {
	PrefetchRanges(ranges [][2]int64) error
}

// section returns bytes [0, size) of r as a parquet.ReaderAtSeeker, with
// r's Prefetch and PrefetchRanges when it has them.
func section(r io.ReaderAt, size int64) parquet.ReaderAtSeeker {
	sr := io.NewSectionReader(r, 0, size)
	p, ok := r.(prefetcher)
	if !ok {
		return sr
	}
	if rp, ok := r.(rangesPrefetcher); ok {
		return rangesSection{prefetchSection{sr, p}, rp}
	}
	return prefetchSection{sr, p}
}

// spanGap is the largest gap of pages not needed inside one span of
// pageSpans: reading it costs less than another request to object
// storage.
const spanGap = 1 << 20

// pageSpan is a run of pages [from, to] (indexes into a chunk's pages)
// read at once.
type pageSpan struct{ from, to int }

// pageSpans returns the runs of pages that hold the rows of gr, pages
// closer than spanGap joined.
func pageSpans(pages []format.PageLocation, gr *groupRows) []pageSpan {
	var spans []pageSpan
	k := 0
	for j := 0; j < len(pages) && k < len(gr.local); j++ {
		end := gr.rows
		if j+1 < len(pages) {
			end = pages[j+1].FirstRow
		}
		if gr.local[k] >= end {
			continue
		}
		for k < len(gr.local) && gr.local[k] < end {
			k++
		}
		if n := len(spans) - 1; n >= 0 {
			last := pages[spans[n].to]
			if pages[j].Offset-(last.Offset+int64(last.Size)) <= spanGap {
				spans[n].to = j
				continue
			}
		}
		spans = append(spans, pageSpan{j, j})
	}
	return spans
}
