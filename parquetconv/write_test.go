package parquetconv_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/parquetconv"
)

// writeFile writes recs with opts and returns the file.
func writeFile(t testing.TB, schema *arrow.Schema, recs []arrow.RecordBatch, opts ...parquetconv.Option) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := parquetconv.NewWriter(&buf, schema, opts...)
	if err != nil {
		t.Fatal(err)
	}
	testvec.WriteAll(t, w, recs...)
	return buf.Bytes()
}

// roundTrip writes rec, reads the file back through NewReader and
// compares bit for bit; it returns the file's metadata.
func roundTrip(t *testing.T, mem memory.Allocator, rec arrow.RecordBatch, opts ...parquetconv.Option) *file.Reader {
	t.Helper()
	data := writeFile(t, rec.Schema(), []arrow.RecordBatch{rec}, append([]parquetconv.Option{parquetconv.WithAllocator(mem)}, opts...)...)
	r, err := parquetconv.NewReader(bytes.NewReader(data), parquetconv.WithAllocator(mem), parquetconv.WithBatchRows(1000))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Release()
	checkReadAll(t, rec, r)
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pf.Close() })
	return pf
}

func TestParquetRoundTrip(t *testing.T) {
	tests := []struct {
		name       string
		n          int
		slice      [2]int
		rowGroup   int
		wantGroups int
		cmp        parquetconv.Compression
	}{
		{name: "one group", n: 5, rowGroup: 100, wantGroups: 1},
		{name: "multi row group", n: 10, rowGroup: 3, wantGroups: 4},
		{name: "sliced", n: 10, slice: [2]int{3, 8}, rowGroup: 100, wantGroups: 1},
		{name: "sliced multi row group zstd", n: 12, slice: [2]int{1, 12}, rowGroup: 4, wantGroups: 3, cmp: parquetconv.ZSTD},
		{name: "lz4", n: 4, rowGroup: 100, wantGroups: 1, cmp: parquetconv.LZ4},
		{name: "empty", n: 0, rowGroup: 100, wantGroups: 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem := checkedMem(t)
			rec := testRecord(t, mem, tc.n, true)
			defer rec.Release()
			if tc.slice != [2]int{} {
				s := sliceRecord(rec, tc.slice[0], tc.slice[1])
				defer s.Release()
				rec = s
			}
			pf := roundTrip(t, mem, rec, parquetconv.WithRowGroupRows(tc.rowGroup), parquetconv.WithCompression(tc.cmp))
			if got := pf.NumRowGroups(); got != tc.wantGroups {
				t.Errorf("%d row groups, want %d", got, tc.wantGroups)
			}
		})
	}
}

// TestParquetNullTensors checks that null tensors are written: every
// third, all, none, and a column sliced to start on a null.
func TestParquetNullTensors(t *testing.T) {
	tests := []struct {
		name string
		null func(int) bool
		from int
	}{
		{name: "every third", null: everyThird},
		{name: "every third sliced", null: everyThird, from: 1},
		{name: "all null", null: allNull},
		{name: "first only", null: func(r int) bool { return r == 0 }},
		{name: "last only", null: func(r int) bool { return r == 9 }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem := checkedMem(t)
			rec := buildRecord(t, mem, 10,
				colSpec{"v", arrow.PrimitiveTypes.Float64, metadata.MustNew([]int{2}, nil, nil), tc.null},
				colSpec{"c", arrow.PrimitiveTypes.Uint8, shapeCycle3, tc.null},
				colSpec{"s", arrow.PrimitiveTypes.Int16, shape0D, tc.null})
			defer rec.Release()
			s := sliceRecord(rec, tc.from, 10)
			defer s.Release()
			roundTrip(t, mem, s, parquetconv.WithRowGroupRows(4))
			roundTrip(t, mem, s, parquetconv.WithDataPageV2(), parquetconv.WithCompression(parquetconv.Snappy))
		})
	}
}

// TestParquetElemTypes round-trips every element type in every shape of
// the house table (0-D, non-square, 3-cycle) with null tensors.
func TestParquetElemTypes(t *testing.T) {
	for _, dt := range elemTypes {
		for _, m := range []struct {
			name string
			meta metadata.Metadata
		}{{"0d", shape0D}, {"nonsquare", shapeNonSquare}, {"cycle3", shapeCycle3}, {"vector", shapeVector}} {
			t.Run(dt.String()+"/"+m.name, func(t *testing.T) {
				mem := checkedMem(t)
				rec := buildRecord(t, mem, 7, colSpec{"x", dt, m.meta, nil}, colSpec{"n", dt, m.meta, everyThird})
				defer rec.Release()
				pf := roundTrip(t, mem, rec)
				// PLAIN, except 1-byte integers: the identity dictionary.
				identity := dt.ID() == arrow.INT8 || dt.ID() == arrow.UINT8
				for _, col := range []int{1, 2} {
					cm, err := pf.MetaData().RowGroup(0).ColumnChunk(col)
					if err != nil {
						t.Fatal(err)
					}
					if cm.HasDictionaryPage() != identity {
						t.Errorf("column %d: dictionary page %v, want %v", col, cm.HasDictionaryPage(), identity)
					}
					for _, e := range cm.Encodings() {
						if e != parquet.Encodings.Plain && e != parquet.Encodings.RLE && (!identity || e != parquet.Encodings.RLEDict) {
							t.Errorf("column %d encoding %s", col, e)
						}
					}
				}
			})
		}
	}
}

// TestParquetOptions round-trips a record under every codec, page
// version and encoding.
func TestParquetOptions(t *testing.T) {
	codecs := []parquetconv.Compression{parquetconv.Uncompressed, parquetconv.Snappy, parquetconv.Gzip, parquetconv.LZ4, parquetconv.ZSTD}
	for _, cmp := range codecs {
		for _, v2 := range []bool{false, true} {
			for _, bss := range []bool{false, true} {
				name := cmp.String()
				opts := []parquetconv.Option{parquetconv.WithCompression(cmp), parquetconv.WithRowGroupRows(5)}
				if v2 {
					name += "/v2"
					opts = append(opts, parquetconv.WithDataPageV2())
				}
				if bss {
					name += "/bss"
					opts = append(opts, parquetconv.WithByteStreamSplit())
				}
				t.Run(name, func(t *testing.T) {
					mem := checkedMem(t)
					rec := mixedRecord(t, mem, 13,
						colSpec{"f32", arrow.PrimitiveTypes.Float32, shapeCycle3, everyThird},
						colSpec{"f64", arrow.PrimitiveTypes.Float64, shapeNonSquare, nil},
						colSpec{"f16", arrow.FixedWidthTypes.Float16, shapeVector, everyThird},
						colSpec{"i8", arrow.PrimitiveTypes.Int8, shape0D, nil})
					defer rec.Release()
					s := sliceRecord(rec, 2, 13)
					defer s.Release()
					pf := roundTrip(t, mem, s, opts...)
					if got := pf.NumRowGroups(); got != 3 {
						t.Errorf("%d row groups, want 3", got)
					}
					cm, err := pf.MetaData().RowGroup(0).ColumnChunk(1)
					if err != nil {
						t.Fatal(err)
					}
					want := parquet.Encodings.Plain
					if bss {
						want = parquet.Encodings.ByteStreamSplit
					}
					if e := cm.Encodings()[0]; e != want {
						t.Errorf("float32 column encoding %s, want %s", e, want)
					}
				})
			}
		}
	}
}

// TestParquetRowGroups checks that row groups are bounded by rows and
// by bytes and that each Write starts new row groups.
func TestParquetRowGroups(t *testing.T) {
	mem := checkedMem(t)
	rec := buildRecord(t, mem, 10, colSpec{"v", arrow.PrimitiveTypes.Float32, shapeVector, nil}) // 20 bytes a row
	defer rec.Release()
	tests := []struct {
		name string
		opts []parquetconv.Option
		recs int
		want []int64
	}{
		{name: "one", recs: 1, want: []int64{10}},
		{name: "rows", opts: []parquetconv.Option{parquetconv.WithRowGroupRows(4)}, recs: 1, want: []int64{4, 4, 2}},
		{name: "bytes", opts: []parquetconv.Option{parquetconv.WithRowGroupBytes(60)}, recs: 1, want: []int64{3, 3, 3, 1}},
		{name: "tiny bytes", opts: []parquetconv.Option{parquetconv.WithRowGroupBytes(1), parquetconv.WithRowGroupRows(100)}, recs: 1, want: []int64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
		{name: "two writes", recs: 2, want: []int64{10, 10}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			recs := make([]arrow.RecordBatch, tc.recs)
			for i := range recs {
				recs[i] = rec
			}
			data := writeFile(t, rec.Schema(), recs, append(tc.opts, parquetconv.WithAllocator(mem))...)
			pf, err := file.NewParquetReader(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			defer pf.Close()
			var got []int64
			for i := range pf.NumRowGroups() {
				got = append(got, pf.MetaData().RowGroup(i).NumRows())
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("row groups of %v rows, want %v", got, tc.want)
			}
		})
	}
}

// TestParquetMixedColumns writes an int64 and a string column beside the
// tensors in the same row groups.
func TestParquetMixedColumns(t *testing.T) {
	mem := checkedMem(t)
	rec := mixedRecord(t, mem, 50,
		colSpec{"emb", arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{16}, nil, nil), everyThird},
		colSpec{"img", arrow.PrimitiveTypes.Uint8, metadata.MustNew([]int{3, 4, 5}, []string{"c", "h", "w"}, nil), nil})
	defer rec.Release()
	pf := roundTrip(t, mem, rec, parquetconv.WithRowGroupRows(16), parquetconv.WithCompression(parquetconv.ZSTD))
	if got, want := pf.MetaData().Schema.NumColumns(), 5; got != want {
		t.Errorf("%d Parquet columns, want %d", got, want)
	}
	if got := pf.NumRowGroups(); got != 4 {
		t.Errorf("%d row groups, want 4", got)
	}
}

// TestParquetFallback writes a schema with a field the fast path does not
// take (a dictionary): the pqarrow path writes it, null tensors included.
func TestParquetFallback(t *testing.T) {
	mem := checkedMem(t)
	rec := testRecord(t, mem, 6, true)
	defer rec.Release()
	db := array.NewDictionaryBuilder(mem, &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}).(*array.BinaryDictionaryBuilder)
	defer db.Release()
	for i := range 6 {
		if err := db.AppendString([]string{"a", "b"}[i%2]); err != nil {
			t.Fatal(err)
		}
	}
	st := db.NewArray()
	defer st.Release()
	// A tensor column whose storage child is non-nullable, as arrow-rs
	// writes it.
	nn, err := fixedshape.NewTypeWithStorage(arrow.FixedSizeListOfNonNullable(6, arrow.PrimitiveTypes.Int16), shapeNonSquare)
	if err != nil {
		t.Fatal(err)
	}
	nonNull := seqColumn(t, mem, nn, 6, nil)
	defer nonNull.Release()
	cols := append(rec.Columns()[:4:4], st, nonNull)
	fields := append(rec.Schema().Fields()[:4:4], arrow.Field{Name: "d", Type: st.DataType(), Nullable: true}, arrow.Field{Name: "nn", Type: nn, Nullable: true})
	ok := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, 6)
	defer ok.Release()
	s := sliceRecord(ok, 1, 6)
	defer s.Release()
	roundTrip(t, mem, s, parquetconv.WithRowGroupRows(2))
	roundTrip(t, mem, s, parquetconv.WithDataPageV2(), parquetconv.WithCompression(parquetconv.ZSTD), parquetconv.WithCompressionLevel(9))

	// Null tensors beside the dictionary are written as empty null lists.
	nulls := array.NewRecordBatch(arrow.NewSchema(append(fields, rec.Schema().Field(4)), nil), append(cols, rec.Column(4)), 6)
	defer nulls.Release()
	if rec.Column(4).NullN() == 0 {
		t.Fatal("the test column has no null tensor")
	}
	roundTrip(t, mem, nulls, parquetconv.WithRowGroupRows(4))
	ns := sliceRecord(nulls, 1, 6)
	defer ns.Release()
	roundTrip(t, mem, ns)
}

// TestParquetSchema checks the Parquet schema: the 3-level LIST of a
// fixed_size_list as pyarrow writes it, values widened to INT32 for 1-
// and 2-byte integers, float16 as FIXED_LEN_BYTE_ARRAY(2), and the
// stored Arrow schema.
func TestParquetSchema(t *testing.T) {
	mem := checkedMem(t)
	rec := buildRecord(t, mem, 3,
		colSpec{"h", arrow.FixedWidthTypes.Float16, shapeVector, nil},
		colSpec{"u8", arrow.PrimitiveTypes.Uint8, shapeCycle3, everyThird},
		colSpec{"f", arrow.PrimitiveTypes.Float32, shape0D, nil})
	defer rec.Release()
	pf := roundTrip(t, mem, rec)
	sc := pf.MetaData().Schema
	tests := []struct {
		col      int
		path     string
		physical parquet.Type
		length   int
	}{
		{1, "h.list.element", parquet.Types.FixedLenByteArray, 2},
		{2, "u8.list.element", parquet.Types.Int32, -1},
		{3, "f.list.element", parquet.Types.Float, -1},
	}
	for _, tc := range tests {
		c := sc.Column(tc.col)
		if c.Path() != tc.path || c.PhysicalType() != tc.physical || c.TypeLength() != tc.length && tc.length > 0 {
			t.Errorf("column %d: %s %s(%d), want %s %s(%d)", tc.col, c.Path(), c.PhysicalType(), c.TypeLength(), tc.path, tc.physical, tc.length)
		}
		if c.MaxDefinitionLevel() != 3 || c.MaxRepetitionLevel() != 1 {
			t.Errorf("column %d: levels def %d rep %d, want 3 and 1", tc.col, c.MaxDefinitionLevel(), c.MaxRepetitionLevel())
		}
	}
	if v := pf.MetaData().KeyValueMetadata().FindValue("ARROW:schema"); v == nil || *v == "" {
		t.Error("no ARROW:schema in the file")
	}
}

// TestParquetWriterLeavesFileOpen checks that Close writes the footer
// but leaves the caller's file open.
func TestParquetWriterLeavesFileOpen(t *testing.T) {
	mem := checkedMem(t)
	rec := testRecord(t, mem, 2, false)
	defer rec.Release()
	f, err := os.Create(filepath.Join(t.TempDir(), "t.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := parquetconv.NewWriter(f, rec.Schema(), parquetconv.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	testvec.WriteAll(t, w, rec)
	if _, err := f.Seek(0, 0); err != nil {
		t.Fatalf("file closed by the writer: %v", err)
	}
}

// TestParquetPages writes column chunks of several data pages: many
// small tensors per page, and tensors larger than a page (one a page).
func TestParquetPages(t *testing.T) {
	tests := []struct {
		name  string
		rows  int
		elem  arrow.DataType
		shape []int
	}{
		{"small tensors", 3000, arrow.PrimitiveTypes.Float64, []int{100}},
		{"large tensors", 4, arrow.PrimitiveTypes.Int16, []int{3, 300, 400}},
	}
	for _, tc := range tests {
		for _, v2 := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/v2=%v", tc.name, v2), func(t *testing.T) {
				mem := checkedMem(t)
				rec := buildRecord(t, mem, tc.rows, colSpec{"t", tc.elem, metadata.MustNew(tc.shape, nil, nil), everyThird})
				defer rec.Release()
				s := sliceRecord(rec, 1, tc.rows)
				defer s.Release()
				opts := []parquetconv.Option{parquetconv.WithCompression(parquetconv.Snappy)}
				if v2 {
					opts = append(opts, parquetconv.WithDataPageV2())
				}
				pf := roundTrip(t, mem, s, opts...)
				pr, err := pf.RowGroup(0).GetColumnPageReader(1)
				if err != nil {
					t.Fatal(err)
				}
				pages := 0
				for pr.Next() {
					pages++
				}
				if err := pr.Err(); err != nil {
					t.Fatal(err)
				}
				if pages < 3 {
					t.Errorf("%d data pages, want several", pages)
				}
			})
		}
	}
}

// TestParquetIdentityDictionary checks the identity dictionary: by
// default 1-byte integer columns are dictionary-encoded with the
// elements' bytes as indexes, under WithIdentityDictionary 2-byte ones
// too, under WithoutIdentityDictionary none; other columns never are, and
// values round-trip.
func TestParquetIdentityDictionary(t *testing.T) {
	const i8, u8, i16, u16, f32, none8 = 1, 2, 3, 4, 5, 6
	for _, mode := range []struct {
		name string
		opts []parquetconv.Option
		dict []int // the columns with a dictionary page
	}{
		{"default", nil, []int{i8, u8, none8}},
		{"16-bit too", []parquetconv.Option{parquetconv.WithIdentityDictionary()}, []int{i8, u8, i16, u16, none8}},
		{"none", []parquetconv.Option{parquetconv.WithoutIdentityDictionary()}, nil},
	} {
		for _, tc := range []struct {
			name string
			opts []parquetconv.Option
		}{
			{"v1", nil},
			{"v2 zstd", []parquetconv.Option{parquetconv.WithDataPageV2(), parquetconv.WithCompression(parquetconv.ZSTD)}},
			{"small groups snappy", []parquetconv.Option{parquetconv.WithRowGroupRows(3), parquetconv.WithCompression(parquetconv.Snappy)}},
		} {
			t.Run(mode.name+"/"+tc.name, func(t *testing.T) {
				mem := checkedMem(t)
				rec := mixedRecord(t, mem, 300,
					colSpec{"i8", arrow.PrimitiveTypes.Int8, shapeCycle3, everyThird},
					colSpec{"u8", arrow.PrimitiveTypes.Uint8, metadata.MustNew([]int{3, 5, 7}, nil, nil), nil},
					colSpec{"i16", arrow.PrimitiveTypes.Int16, shapeNonSquare, everyThird},
					colSpec{"u16", arrow.PrimitiveTypes.Uint16, shape0D, nil},
					colSpec{"f32", arrow.PrimitiveTypes.Float32, shapeVector, nil},
					colSpec{"none8", arrow.PrimitiveTypes.Int8, shapeVector, allNull})
				defer rec.Release()
				s := sliceRecord(rec, 7, 300)
				defer s.Release()
				pf := roundTrip(t, mem, s, append(tc.opts, mode.opts...)...)
				for col := i8; col <= none8; col++ {
					cm, err := pf.MetaData().RowGroup(0).ColumnChunk(col)
					if err != nil {
						t.Fatal(err)
					}
					if got, want := cm.HasDictionaryPage(), slices.Contains(mode.dict, col); got != want {
						t.Errorf("column %d: dictionary page %v, want %v", col, got, want)
					}
				}
			})
		}
	}
}

// TestParquetNonNullableChild writes a tensor column whose storage child
// is non-nullable (as arrow-rs writes it), with null tensors: the file
// declares the child nullable and the column reads back equal.
func TestParquetNonNullableChild(t *testing.T) {
	mem := checkedMem(t)
	nn, err := fixedshape.NewTypeWithStorage(arrow.FixedSizeListOfNonNullable(24, arrow.PrimitiveTypes.Float32), shapeCycle3)
	if err != nil {
		t.Fatal(err)
	}
	valid := []bool{true, false, true, true, false}
	arr := seqColumn(t, mem, nn, 5, valid)
	defer arr.Release()
	rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "nn", Type: nn, Nullable: true}}, nil), []arrow.Array{arr}, 5)
	defer rec.Release()
	s := sliceRecord(rec, 1, 5)
	defer s.Release()
	pf := roundTrip(t, mem, s)
	if c := pf.MetaData().Schema.Column(0); c.SchemaNode().RepetitionType() != parquet.Repetitions.Optional {
		t.Errorf("element %s is %s, want optional", c.Path(), c.SchemaNode().RepetitionType())
	}
}
