package parquetconv_test

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/parquetconv"
)

// takeRecord returns 50 rows: an int32 "id", tensor columns "vec"
// (float32 [5], every third row null), "cyc" (int16 3-cycle [2,3,4]),
// "u8" (uint8 [2,3] transposed) and "d0" (0-D float64), an int64 "key"
// and a string "label" (some null).
func takeRecord(t testing.TB, mem memory.Allocator) arrow.RecordBatch {
	t.Helper()
	return mixedRecord(t, mem, 50,
		colSpec{"vec", arrow.PrimitiveTypes.Float32, shapeVector, everyThird},
		colSpec{"cyc", arrow.PrimitiveTypes.Int16, shapeCycle3, nil},
		colSpec{"u8", arrow.PrimitiveTypes.Uint8, shapeNonSquare, nil},
		colSpec{"d0", arrow.PrimitiveTypes.Float64, metadata.MustNew([]int{}, nil, nil), nil})
}

// project returns the columns names of rec (all for none).
func project(rec arrow.RecordBatch, names []string) arrow.RecordBatch {
	if names == nil {
		rec.Retain()
		return rec
	}
	var fields []arrow.Field
	var cols []arrow.Array
	for _, n := range names {
		i := rec.Schema().FieldIndices(n)[0]
		fields = append(fields, rec.Schema().Field(i))
		cols = append(cols, rec.Column(i))
	}
	md := rec.Schema().Metadata()
	return array.NewRecordBatch(arrow.NewSchema(fields, &md), cols, rec.NumRows())
}

// TestTake takes rows of files written under several options (one page
// a chunk, small pages with and without a page index, codecs, page v2,
// byte stream split, identity dictionaries, the pqarrow path) in row
// groups of 20 rows, and compares each row with the record written.
func TestTake(t *testing.T) {
	small := []parquetconv.Option{parquetconv.WithRowGroupRows(20), parquetconv.WithPageBytes(32)}
	files := []struct {
		name string
		list bool
		opts []parquetconv.Option
	}{
		{name: "one page a chunk", opts: []parquetconv.Option{parquetconv.WithRowGroupRows(20)}},
		{name: "small pages", opts: small},
		{name: "small pages without index", opts: append(small, parquetconv.WithoutPageIndex())},
		{name: "v2 zstd byte stream split", opts: append(small, parquetconv.WithDataPageV2(), parquetconv.WithCompression(parquetconv.ZSTD), parquetconv.WithByteStreamSplit())},
		{name: "snappy identity dictionary", opts: append(small, parquetconv.WithCompression(parquetconv.Snappy), parquetconv.WithIdentityDictionary())},
		{name: "gzip without index", opts: append(small, parquetconv.WithCompression(parquetconv.Gzip), parquetconv.WithoutPageIndex())},
		{name: "pqarrow path", list: true, opts: small},
	}
	tests := []struct {
		name    string
		rows    []int64
		columns []string
		err     error
	}{
		{name: "one row group", rows: []int64{1, 2}},
		{name: "across row groups", rows: []int64{0, 25, 49, 3}},
		{name: "reversed", rows: []int64{49, 48, 41, 40, 39, 30, 21, 20, 19, 10, 1, 0}},
		{name: "duplicated", rows: []int64{25, 25, 2, 25, 2}},
		{name: "empty", rows: []int64{}},
		{name: "first and last", rows: []int64{0, 49}},
		{name: "null rows", rows: []int64{1, 4, 7, 22, 46}},
		{name: "columns", rows: []int64{6, 1, 45}, columns: []string{"label", "cyc"}},
		{name: "0-D column", rows: []int64{9, 3, 33}, columns: []string{"d0"}},
		{name: "out of range", rows: []int64{3, 50}, err: parquetconv.ErrRowRange},
		{name: "far out of range", rows: []int64{1 << 62}, err: parquetconv.ErrRowRange},
		{name: "negative", rows: []int64{0, -1}, err: parquetconv.ErrRowRange},
		{name: "unknown column", rows: []int64{0}, columns: []string{"x"}, err: parquetconv.ErrColumn},
	}
	for _, f := range files {
		mem := checkedMem(t)
		rec := takeRecord(t, mem)
		if f.list {
			l := withListColumn(mem, rec)
			rec.Release()
			rec = l
		}
		data := writeFile(t, rec.Schema(), []arrow.RecordBatch{rec}, append(f.opts, parquetconv.WithAllocator(mem))...)
		for _, tt := range tests {
			t.Run(fmt.Sprintf("file=%s/%s", f.name, tt.name), func(t *testing.T) {
				mem := checkedMem(t)
				opts := []parquetconv.Option{parquetconv.WithAllocator(mem)}
				if tt.columns != nil {
					opts = append(opts, parquetconv.WithColumns(tt.columns...))
				}
				got, err := parquetconv.Take(bytes.NewReader(data), int64(len(data)), tt.rows, opts...)
				if tt.err != nil {
					if !errors.Is(err, tt.err) || !errors.Is(err, arrow.ErrInvalid) {
						t.Fatalf("Take = %v, want an error wrapping %v and arrow.ErrInvalid", err, tt.err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				defer got.Release()
				want := project(rec, tt.columns)
				defer want.Release()
				// pqarrow keeps an unset field id on the list's element.
				unequal := !got.Schema().Equal(want.Schema()) && !(f.list && tt.columns == nil)
				if got.NumRows() != int64(len(tt.rows)) || unequal {
					t.Fatalf("got %d rows of %v, want %d of %v", got.NumRows(), got.Schema(), len(tt.rows), want.Schema())
				}
				for i, r := range tt.rows {
					if f.list && tt.columns == nil {
						break
					}
					w, g := sliceRecord(want, int(r), int(r)+1), sliceRecord(got, i, i+1)
					checkRecordsEqual(t, w, g)
					w.Release()
					g.Release()
				}
			})
		}
		rec.Release()
	}
}

// TestTakeReadsPages counts the bytes a take of 10 rows reads of a
// 5 MB file of 20,000 float32 [64] tensors and an int64 column, in row
// groups of 2,000 rows and pages of 4 KiB: through the page index, the
// footer, the indexes and 10 pages (under 2% of the file); without it,
// the chunks of the row groups holding the rows (at most 3 of the 10
// row groups when the rows lie in 3). Written without WithPageBytes,
// each chunk is one page whose levels (about 10 KB) overrun the window
// read with its header: a take reads them, and the rows, not the page.
func TestTakeReadsPages(t *testing.T) {
	mem := checkedMem(t)
	rec := buildRecord(t, mem, 20_000, colSpec{"emb", arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{64}, nil, nil), nil})
	defer rec.Release()
	rows := []int64{19_999, 5, 17, 1_000, 1_999, 12_345, 12_000, 13_999, 5, 6}
	for _, tt := range []struct {
		name string
		opts []parquetconv.Option
		max  float64 // of the file's bytes
	}{
		{"index", []parquetconv.Option{parquetconv.WithPageBytes(4 << 10)}, 0.02},
		{"no index", []parquetconv.Option{parquetconv.WithoutPageIndex(), parquetconv.WithPageBytes(4 << 10)}, 0.31},
		{"single pages", nil, 0.02},
	} {
		t.Run(tt.name, func(t *testing.T) {
			data := writeFile(t, rec.Schema(), []arrow.RecordBatch{rec}, append(tt.opts, parquetconv.WithAllocator(mem), parquetconv.WithRowGroupRows(2_000))...)
			cr := &countingReader{Reader: bytes.NewReader(data)}
			got, err := parquetconv.Take(cr, int64(len(data)), rows, parquetconv.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			defer got.Release()
			for i, r := range rows {
				w, g := sliceRecord(rec, int(r), int(r)+1), sliceRecord(got, i, i+1)
				checkRecordsEqual(t, w, g)
				w.Release()
				g.Release()
			}
			frac := float64(cr.read.Load()) / float64(len(data))
			t.Logf("read %d of %d bytes (%.2f%%)", cr.read.Load(), len(data), 100*frac)
			if frac > tt.max {
				t.Errorf("read %.1f%% of the file, want at most %.1f%%", 100*frac, 100*tt.max)
			}
		})
	}
}

// FuzzTake feeds arbitrary bytes to Take under small limits: it must
// return errors wrapping arrow.ErrInvalid, never panic, leave nothing
// allocated, and when it succeeds return the rows asked. Seeds: small
// files of the writer with a page index over single-page chunks and
// pages of one to three rows (plain, v2 with zstd and null tensors,
// identity dictionary with snappy), plus testdata/fuzz/FuzzTake.
func FuzzTake(f *testing.F) {
	rec := testRecord(f, memory.NewGoAllocator(), 7, true)
	defer rec.Release()
	for _, opts := range [][]parquetconv.Option{
		{parquetconv.WithRowGroupRows(4)}, // single pages
		{parquetconv.WithPageBytes(1)},
		{parquetconv.WithDataPageV2(), parquetconv.WithCompression(parquetconv.ZSTD), parquetconv.WithRowGroupRows(3), parquetconv.WithPageBytes(64)},
		{parquetconv.WithIdentityDictionary(), parquetconv.WithCompression(parquetconv.Snappy), parquetconv.WithPageBytes(16)},
	} {
		f.Add(writeFile(f, rec.Schema(), []arrow.RecordBatch{rec}, opts...))
	}
	rows := []int64{6, 0, 3, 3, 1}
	f.Fuzz(func(t *testing.T, data []byte) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		got, err := parquetconv.Take(bytes.NewReader(data), int64(len(data)), rows, parquetconv.WithAllocator(mem), parquetconv.WithMaxPageBytes(1<<20), parquetconv.WithMaxChunkBytes(1<<20))
		if err != nil {
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("error does not wrap arrow.ErrInvalid: %v", err)
			}
			return
		}
		defer got.Release()
		if got.NumRows() != int64(len(rows)) {
			t.Fatalf("%d rows, want %d", got.NumRows(), len(rows))
		}
	})
}

// TestTakeCorrupt flips bytes all over files with a page index of small
// pages: every take fails with arrow.ErrInvalid or succeeds with the
// rows asked, never panics, and leaves nothing allocated.
func TestTakeCorrupt(t *testing.T) {
	rec := testRecord(t, memory.NewGoAllocator(), 6, true)
	defer rec.Release()
	rows := []int64{5, 0, 2, 2}
	for _, o := range []struct {
		name string
		opts []parquetconv.Option
	}{
		{"plain", nil},
		{"zstd/v2/identity", []parquetconv.Option{parquetconv.WithCompression(parquetconv.ZSTD), parquetconv.WithDataPageV2(), parquetconv.WithIdentityDictionary()}},
	} {
		data := writeFile(t, rec.Schema(), []arrow.RecordBatch{rec}, append(o.opts, parquetconv.WithRowGroupRows(4), parquetconv.WithPageBytes(16))...)
		t.Run(o.name, func(t *testing.T) {
			mem := checkedMem(t)
			b := append([]byte(nil), data...)
			for i := 0; i < len(b); i += corruptStride {
				for _, x := range []byte{byte(0x01) << (i % 8)} { // one flip a byte: seconds
					b[i] ^= x
					got, err := parquetconv.Take(bytes.NewReader(b), int64(len(b)), rows, parquetconv.WithAllocator(mem))
					switch {
					case err != nil && !errors.Is(err, arrow.ErrInvalid):
						t.Fatalf("byte %d ^ %#x: Take = %v, want an error wrapping arrow.ErrInvalid", i, x, err)
					case err == nil && got.NumRows() != int64(len(rows)):
						t.Fatalf("byte %d ^ %#x: %d rows, want %d", i, x, got.NumRows(), len(rows))
					case err == nil:
						got.Release()
					}
					b[i] ^= x
				}
			}
		})
	}
}

// TestRowCount reads the row count of a file's footer with one read of
// the file's end (the footer is not read again to be parsed), and fails
// on a file cut short.
func TestRowCount(t *testing.T) {
	mem := checkedMem(t)
	rec := takeRecord(t, mem)
	defer rec.Release()
	data := writeFile(t, rec.Schema(), []arrow.RecordBatch{rec}, parquetconv.WithAllocator(mem), parquetconv.WithRowGroupRows(20))
	cr := &countingReader{Reader: bytes.NewReader(data)}
	if n, err := parquetconv.RowCount(cr, int64(len(data))); n != 50 || err != nil {
		t.Errorf("RowCount = %d, %v; want 50", n, err)
	}
	if got := cr.calls.Load(); got != 1 {
		t.Errorf("RowCount read the file %d times, want once", got)
	}
	if _, err := parquetconv.RowCount(bytes.NewReader(data[:len(data)-1]), int64(len(data)-1)); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("RowCount of a cut file = %v, want an error wrapping arrow.ErrInvalid", err)
	}
}
