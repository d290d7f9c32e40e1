package parquetconv_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/internal/mmap"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/parquetconv"
)

// TestReadZeroCopy reads files written with each layout through OpenFile
// and checks which tensor column chunks come back pointing into the
// mapping: those of the writers' uncompressed single pages (PLAIN,
// identity dictionary, data page v2), whose values start aligned, and
// no others (null tensors, codecs, small pages, BYTE_STREAM_SPLIT,
// narrowed values, WithoutZeroCopy). Every batch must hold the values
// written, also after the reader is released, and the mapping must go
// with the last batch.
func TestReadZeroCopy(t *testing.T) {
	const rows, group = 300, 128 // 3 row groups: 128, 128, 44 rows
	for _, c := range []struct {
		name   string
		elem   arrow.DataType
		null   func(int) bool
		opts   []parquetconv.Option
		viewed int64 // chunks viewed
	}{
		{"float32/plain", arrow.PrimitiveTypes.Float32, nil, nil, 3},
		{"float64/plain/v2", arrow.PrimitiveTypes.Float64, nil, []parquetconv.Option{parquetconv.WithDataPageV2()}, 3},
		{"float16/plain", arrow.FixedWidthTypes.Float16, nil, nil, 3},
		{"uint8/identity-dictionary", arrow.PrimitiveTypes.Uint8, nil, nil, 3},
		{"int16/identity-dictionary/v2", arrow.PrimitiveTypes.Int16, nil, []parquetconv.Option{parquetconv.WithIdentityDictionary(), parquetconv.WithDataPageV2()}, 3},
		{"uint8/int32-values", arrow.PrimitiveTypes.Uint8, nil, []parquetconv.Option{parquetconv.WithoutIdentityDictionary()}, 0},
		{"float32/nulls", arrow.PrimitiveTypes.Float32, everyThird, nil, 0},
		{"float32/zstd", arrow.PrimitiveTypes.Float32, nil, []parquetconv.Option{parquetconv.WithCompression(parquetconv.ZSTD)}, 0},
		{"float32/pages", arrow.PrimitiveTypes.Float32, nil, []parquetconv.Option{parquetconv.WithPageBytes(1 << 20)}, 0},
		{"float32/bss", arrow.PrimitiveTypes.Float32, nil, []parquetconv.Option{parquetconv.WithByteStreamSplit()}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec := buildRecord(t, memory.NewGoAllocator(), rows, colSpec{"x", c.elem, shapeCycle3, c.null}, colSpec{"y", arrow.PrimitiveTypes.Float32, shapeVector, nil})
			defer rec.Release()
			path := filepath.Join(t.TempDir(), "t.parquet")
			if err := os.WriteFile(path, writeFile(t, rec.Schema(), []arrow.RecordBatch{rec}, append(c.opts, parquetconv.WithRowGroupRows(group))...), 0o644); err != nil {
				t.Fatal(err)
			}
			if !testvec.Leases(t, path) {
				t.Skip("no read lease on the file")
			}
			maps, leases := mmap.Held()
			for _, copyAll := range []bool{false, true} {
				mem := checkedMem(t)
				opts := []parquetconv.Option{parquetconv.WithAllocator(mem), parquetconv.WithColumns("x"), parquetconv.WithWorkers(2)}
				if copyAll {
					opts = append(opts, parquetconv.WithoutZeroCopy())
				}
				before := parquetconv.ViewedChunks()
				r, err := parquetconv.OpenFile(path, opts...)
				if err != nil {
					t.Fatal(err)
				}
				var kept []arrow.RecordBatch
				for r.Next() {
					r.RecordBatch().Retain()
					kept = append(kept, r.RecordBatch())
				}
				if err := r.Err(); err != nil {
					t.Fatal(err)
				}
				r.Release()
				want := c.viewed
				if copyAll {
					want = 0
				}
				if got := parquetconv.ViewedChunks() - before; got != want {
					t.Errorf("WithoutZeroCopy %v: %d chunks viewed, want %d", copyAll, got, want)
				}
				// The reader is gone: the batches still read the values.
				i := rec.Schema().FieldIndices("x")[0]
				meta := rec.Schema().Metadata()
				sel := array.NewRecordBatch(arrow.NewSchema(rec.Schema().Fields()[i:i+1], &meta), rec.Columns()[i:i+1], rows)
				n := 0
				for _, b := range kept {
					w := sliceRecord(sel, n, n+int(b.NumRows()))
					checkRecordsEqual(t, w, b)
					w.Release()
					n += int(b.NumRows())
					b.Release()
				}
				sel.Release()
				if n != rows {
					t.Errorf("read %d rows, want %d", n, rows)
				}
				if m, l := mmap.Held(); m != maps || l != leases {
					t.Errorf("after the last batch: %d mappings and %d leases held, want %d and %d", m, l, maps, leases)
				}
			}
		})
	}
}
