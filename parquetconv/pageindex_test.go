package parquetconv_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/internal/pyrun"
	"github.com/fstensor/fstensor/parquetconv"
)

// pageIndexRecord returns 40 rows of an int32 "id" column, a float32
// [5] tensor column "vec" (every third row null), an int16 3-cycle
// [2,3,4] one "cyc", an int64 "key" and a string "label" (some null);
// with list, an int32 list column too, which sends the schema down the
// pqarrow path.
func pageIndexRecord(t *testing.T, mem memory.Allocator, list bool) arrow.RecordBatch {
	t.Helper()
	rec := mixedRecord(t, mem, 40,
		colSpec{"vec", arrow.PrimitiveTypes.Float32, shapeVector, everyThird},
		colSpec{"cyc", arrow.PrimitiveTypes.Int16, shapeCycle3, nil})
	if !list {
		return rec
	}
	defer rec.Release()
	return withListColumn(mem, rec)
}

// withListColumn returns rec with an int32 list column "list" added,
// which no fast path takes.
func withListColumn(mem memory.Allocator, rec arrow.RecordBatch) arrow.RecordBatch {
	lb := array.NewListBuilderWithField(mem, arrow.Field{Name: "element", Type: arrow.PrimitiveTypes.Int32, Nullable: true})
	defer lb.Release()
	vb := lb.ValueBuilder().(*array.Int32Builder)
	n := int(rec.NumRows())
	for i := range n {
		lb.Append(true)
		for j := range i % 3 {
			vb.Append(int32(i + j))
		}
	}
	l := lb.NewArray()
	defer l.Release()
	fields := append(rec.Schema().Fields(), arrow.Field{Name: "list", Type: l.DataType(), Nullable: true})
	cols := append(append([]arrow.Array{}, rec.Columns()...), l)
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(n))
}

// TestPageIndex writes files with and without a page index and checks,
// through arrow-go's page index reader, that every column chunk has an
// OffsetIndex whose pages tile the chunk (first at its first data page,
// each ending where the next starts, the last at the chunk's end) with
// first rows rising from 0, that flat columns have a ColumnIndex and
// tensor columns none, and that the file reads back unchanged.
func TestPageIndex(t *testing.T) {
	small := []parquetconv.Option{parquetconv.WithRowGroupRows(16), parquetconv.WithPageBytes(64)}
	tests := []struct {
		name     string
		list     bool
		opts     []parquetconv.Option
		noIndex  bool
		vecPages int // pages of the "vec" chunk of row group 0, 0 for no check
	}{
		{name: "v1", opts: small, vecPages: 6}, // 3 tensors of 20 bytes a page
		{name: "v1 one page", opts: []parquetconv.Option{parquetconv.WithRowGroupRows(16)}, vecPages: 1},
		{name: "v2 zstd byte stream split", opts: append(small, parquetconv.WithDataPageV2(), parquetconv.WithCompression(parquetconv.ZSTD), parquetconv.WithByteStreamSplit()), vecPages: 6},
		{name: "identity dictionary snappy", opts: append(small, parquetconv.WithIdentityDictionary(), parquetconv.WithCompression(parquetconv.Snappy))},
		{name: "pqarrow path", list: true, opts: small},
		{name: "without", opts: append(small, parquetconv.WithoutPageIndex()), noIndex: true},
		{name: "pqarrow path without", list: true, opts: append(small, parquetconv.WithoutPageIndex()), noIndex: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := checkedMem(t)
			rec := pageIndexRecord(t, mem, tt.list)
			defer rec.Release()
			data := writeFile(t, rec.Schema(), []arrow.RecordBatch{rec}, append(tt.opts, parquetconv.WithAllocator(mem))...)
			pf, err := file.NewParquetReader(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			defer pf.Close()
			md := pf.MetaData()
			if md.NumRowGroups() != 3 {
				t.Fatalf("%d row groups, want 3", md.NumRowGroups())
			}
			for g := range md.NumRowGroups() {
				pir, err := pf.GetPageIndexReader().RowGroup(g)
				if err != nil {
					t.Fatal(err)
				}
				if tt.noIndex {
					if pir != nil {
						t.Errorf("row group %d has a page index", g)
					}
					continue
				}
				if pir == nil {
					t.Fatalf("row group %d has no page index", g)
				}
				for j := range md.Schema.NumColumns() {
					checkChunkIndex(t, pf, pir, g, j, tt.vecPages, !tt.list)
				}
			}
			r, err := parquetconv.NewReader(bytes.NewReader(data), parquetconv.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			defer r.Release()
			if tt.list {
				// pqarrow keeps an unset field id on the list's element.
				return
			}
			checkReadAll(t, rec, r)
		})
	}
}

// checkChunkIndex checks the page index of leaf column j of row group
// g; vecPages, when not 0, is the page count of column 1 ("vec"); fast
// tells the file was written by the fast path, whose tensor columns
// have no statistics, so no ColumnIndex (pqarrow's have both).
func checkChunkIndex(t *testing.T, pf *file.Reader, pir *metadata.RowGroupPageIndexReader, g, j, vecPages int, fast bool) {
	t.Helper()
	rg := pf.MetaData().RowGroup(g)
	cc, err := rg.ColumnChunk(j)
	if err != nil {
		t.Fatal(err)
	}
	oi, err := pir.GetOffsetIndex(j)
	if err != nil || oi == nil {
		t.Fatalf("row group %d, column %d: offset index %v, %v", g, j, oi, err)
	}
	pages := oi.GetPageLocations()
	if len(pages) == 0 || pages[0].Offset != cc.DataPageOffset() || pages[0].FirstRowIndex != 0 {
		t.Fatalf("row group %d, column %d: pages %v, want the first at %d, row 0", g, j, pages, cc.DataPageOffset())
	}
	start := cc.DataPageOffset()
	if cc.HasDictionaryPage() && cc.DictionaryPageOffset() > 0 {
		start = cc.DictionaryPageOffset()
	}
	for k, p := range pages {
		end := start + cc.TotalCompressedSize()
		if k+1 < len(pages) {
			end = pages[k+1].Offset
			if pages[k+1].FirstRowIndex <= p.FirstRowIndex || pages[k+1].FirstRowIndex >= rg.NumRows() {
				t.Errorf("row group %d, column %d: page %d starts at row %d, page %d at row %d", g, j, k, p.FirstRowIndex, k+1, pages[k+1].FirstRowIndex)
			}
		}
		if p.Offset+int64(p.CompressedPageSize) != end {
			t.Errorf("row group %d, column %d: page %d at %d of %d bytes ends before %d", g, j, k, p.Offset, p.CompressedPageSize, end)
		}
	}
	if j == 1 && vecPages > 0 && g == 0 && len(pages) != vecPages {
		t.Errorf("row group 0: %d pages of vec, want %d", len(pages), vecPages)
	}
	ci, err := pir.GetColumnIndex(j)
	if err != nil {
		t.Fatal(err)
	}
	tensor := j == 1 || j == 2
	if fast && tensor != (ci == nil) {
		t.Errorf("row group %d, column %d: column index %v, want one only for flat columns", g, j, ci)
	}
	if !fast && ci == nil {
		t.Errorf("row group %d, column %d: no column index", g, j)
	}
}

// TestPageIndexPyarrow checks that pyarrow sees the page index of a file
// written with it (has_offset_index, has_column_index of each column
// chunk) and none in a file written WithoutPageIndex, and reads both.
func TestPageIndexPyarrow(t *testing.T) {
	const script = `
import json, sys
import pyarrow.parquet as pq
out = {}
for path in sys.argv[1:]:
    f = pq.ParquetFile(path)
    f.read()
    m = f.metadata.row_group(0)
    out[path] = [[m.column(j).path_in_schema, m.column(j).has_offset_index, m.column(j).has_column_index] for j in range(m.num_columns)]
print(json.dumps(out))
`
	pyrun.Python(t, "pyarrow")
	mem := checkedMem(t)
	rec := pageIndexRecord(t, mem, false)
	defer rec.Release()
	dir := t.TempDir()
	with, without := filepath.Join(dir, "with.parquet"), filepath.Join(dir, "without.parquet")
	for path, opts := range map[string][]parquetconv.Option{
		with:    {parquetconv.WithPageBytes(64)},
		without: {parquetconv.WithoutPageIndex()},
	} {
		if err := os.WriteFile(path, writeFile(t, rec.Schema(), []arrow.RecordBatch{rec}, append(opts, parquetconv.WithAllocator(mem))...), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var got map[string][][]any
	if err := json.Unmarshal(pyrun.Run(t, script, nil, []string{"pyarrow"}, with, without), &got); err != nil {
		t.Fatal(err)
	}
	paths := []string{"id", "vec.list.element", "cyc.list.element", "key", "label"}
	want := map[string][][]any{with: {}, without: {}}
	for j, p := range paths {
		want[with] = append(want[with], []any{p, true, j != 1 && j != 2})
		want[without] = append(want[without], []any{p, false, false})
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("pyarrow's view of the page index (-want +got):\n%s", d)
	}
}
