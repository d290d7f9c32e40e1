package parquetconv_test

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/parquetconv"
)

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
			alloc := testvec.Recycler{Allocator: mem, Rc: &testvec.Poisoned{Allocator: mem, Poison: 0xa5}}
			r, err := parquetconv.NewReader(bytes.NewReader(data), parquetconv.WithAllocator(alloc))
			if err != nil {
				t.Fatal(err)
			}
			checkReadAll(t, rec, r)
			r.Release()
			if alloc.Rc.Allocations() == 0 {
				t.Error("no chunk values came from the recycled allocator")
			}
		})
	}
}
