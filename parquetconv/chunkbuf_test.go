package parquetconv_test

import (
	"bytes"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/parquetconv"
)

// recycler is an allocator with a recycled variant, as
// hugepage.Allocator is: both count into one checked allocator.
type recycler struct {
	*memory.CheckedAllocator
	rec *poisoning
}

func (r recycler) Recycled() memory.Allocator { return r.rec }

// poisoning hands out buffers filled with poison bytes, as a recycled
// allocator may, and counts them.
type poisoning struct {
	memory.Allocator
	n atomic.Int64
}

func (p *poisoning) Allocate(size int) []byte {
	b := p.Allocator.Allocate(size)
	for i := range b {
		b[i] = 0xa5
	}
	p.n.Add(1)
	return b
}

// TestReadRecycled reads files (plain, identity dictionary, zstd, null
// tensors) with an allocator that has a recycled variant handing out
// poisoned memory: the chunk values come from that variant, and the
// batches equal the records written.
func TestReadRecycled(t *testing.T) {
	mem := checkedMem(t)
	rec := testRecord(t, memory.NewGoAllocator(), 40, true)
	defer rec.Release()
	for _, tc := range []struct {
		name string
		opts []parquetconv.Option
	}{
		{"plain", []parquetconv.Option{parquetconv.WithoutIdentityDictionary(), parquetconv.WithRowGroupRows(15)}},
		{"identity dictionary", []parquetconv.Option{parquetconv.WithRowGroupRows(15)}},
		{"zstd v2", []parquetconv.Option{parquetconv.WithCompression(parquetconv.ZSTD), parquetconv.WithDataPageV2(), parquetconv.WithPageBytes(64)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := writeFile(t, rec.Schema(), []arrow.RecordBatch{rec}, tc.opts...)
			alloc := recycler{CheckedAllocator: mem, rec: &poisoning{Allocator: mem}}
			r, err := parquetconv.NewReader(bytes.NewReader(data), parquetconv.WithAllocator(alloc))
			if err != nil {
				t.Fatal(err)
			}
			checkReadAll(t, rec, r)
			r.Release()
			if alloc.rec.n.Load() == 0 {
				t.Error("no chunk values came from the recycled allocator")
			}
		})
	}
}
