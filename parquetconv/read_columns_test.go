package parquetconv_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/parquetconv"
)

// countingReader counts the bytes read through it.
type countingReader struct {
	*bytes.Reader
	read  atomic.Int64 // bytes
	calls atomic.Int64 // of ReadAt
}

func (r *countingReader) ReadAt(p []byte, off int64) (int, error) {
	n, err := r.Reader.ReadAt(p, off)
	r.read.Add(int64(n))
	r.calls.Add(1)
	return n, err
}

// TestWithColumns reads some fields of a file of tensor and flat columns
// in two row groups: the batches hold those fields, in the file's order,
// equal to those of a full read, and the bytes read are at most the
// footer's plus the column chunks of those fields.
func TestWithColumns(t *testing.T) {
	mem := checkedMem(t)
	rec := mixedRecord(t, mem, 400, colSpec{"cyc", arrow.PrimitiveTypes.Float32, shapeCycle3, nil},
		colSpec{"scalar", arrow.PrimitiveTypes.Int64, shape0D, nil}, colSpec{"tr", arrow.PrimitiveTypes.Uint8, shapeNonSquare, everyThird})
	defer rec.Release()
	data := writeFile(t, rec.Schema(), []arrow.RecordBatch{rec}, parquetconv.WithRowGroupRows(250))
	tests := []struct {
		name    string
		columns []string
		want    []string // the fields read
	}{
		{name: "one tensor", columns: []string{"tr"}, want: []string{"tr"}},
		{name: "file order", columns: []string{"label", "cyc"}, want: []string{"cyc", "label"}},
		{name: "flat and repeated", columns: []string{"key", "key", "scalar"}, want: []string{"scalar", "key"}},
		{name: "unknown names", columns: []string{"nope", "scalar"}, want: []string{"scalar"}},
		{name: "none known", columns: []string{"nope"}, want: []string{}},
		{name: "every field", columns: nil, want: names(rec.Schema())},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fields := make([]arrow.Field, len(tt.want))
			cols := make([]arrow.Array, len(tt.want))
			for k, name := range tt.want {
				i := rec.Schema().FieldIndices(name)[0]
				fields[k], cols[k] = rec.Schema().Field(i), rec.Column(i)
			}
			want := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, rec.NumRows())
			defer want.Release()
			src := &countingReader{Reader: bytes.NewReader(data)}
			r, err := parquetconv.NewReader(src, parquetconv.WithAllocator(mem), parquetconv.WithColumns(tt.columns...))
			if err != nil {
				t.Fatal(err)
			}
			if len(tt.want) > 0 {
				checkReadAll(t, want, r)
			} else if r.Next() && r.RecordBatch().NumCols() != 0 {
				t.Errorf("read %d columns, want none", r.RecordBatch().NumCols())
			}
			r.Release()
			if got, bound := src.read.Load(), readBound(t, data, rec.Schema(), tt.want); got > bound {
				t.Errorf("read %d bytes, more than the footer and the chunks of the fields, %d", got, bound)
			}
		})
	}
}

// TestReadSmallPagesOnce scans files of small pages through a reader
// that is not mapped: every byte of a chunk is read once, not once per
// page header (each header's read window holds the next pages).
func TestReadSmallPagesOnce(t *testing.T) {
	mem := checkedMem(t)
	rec := mixedRecord(t, mem, 600, colSpec{"f", arrow.PrimitiveTypes.Float32, shapeCycle3, nil},
		colSpec{"u", arrow.PrimitiveTypes.Uint8, shapeNonSquare, everyThird})
	defer rec.Release()
	for _, tc := range []struct {
		name string
		opts []parquetconv.Option
	}{
		{"plain", []parquetconv.Option{parquetconv.WithoutIdentityDictionary()}},
		{"identity dictionary", nil},
		{"snappy", []parquetconv.Option{parquetconv.WithCompression(parquetconv.Snappy)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := writeFile(t, rec.Schema(), []arrow.RecordBatch{rec}, append(tc.opts, parquetconv.WithPageBytes(512), parquetconv.WithRowGroupRows(300))...)
			src := &countingReader{Reader: bytes.NewReader(data)}
			r, err := parquetconv.NewReader(src, parquetconv.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			checkReadAll(t, rec, r)
			r.Release()
			if got, bound := src.read.Load(), readBound(t, data, rec.Schema(), names(rec.Schema())); got > bound {
				t.Errorf("read %d bytes in %d calls, more than the footer and the chunks, %d", got, src.calls.Load(), bound)
			}
		})
	}
}

// readBound returns the bytes of the footer (with its length and magic,
// twice) and of the column chunks of the top-level fields names of the
// file data: once for the tensor columns of the fast path, twice for the
// others, whose page headers are checked before pqarrow reads them.
func readBound(t *testing.T, data []byte, schema *arrow.Schema, names []string) int64 {
	t.Helper()
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	md := pf.MetaData()
	// The footer and its length are read once, with the file's last 8 KiB.
	n := max(int64(binary.LittleEndian.Uint32(data[len(data)-8:]))+8, min(int64(len(data)), 8<<10))
	for g := range md.NumRowGroups() {
		for j := range md.Schema.NumColumns() {
			top, _, _ := strings.Cut(md.Schema.Column(j).Path(), ".")
			if !slices.Contains(names, top) {
				continue
			}
			cc, err := md.RowGroup(g).ColumnChunk(j)
			if err != nil {
				t.Fatal(err)
			}
			times := int64(2)
			if _, ok := schema.Field(schema.FieldIndices(top)[0]).Type.(*fixedshape.Type); ok {
				times = 1
			}
			n += times * cc.TotalCompressedSize()
		}
	}
	return n
}

func names(s *arrow.Schema) []string {
	var out []string
	for _, f := range s.Fields() {
		out = append(out, f.Name)
	}
	return out
}

var _ io.ReaderAt = (*countingReader)(nil)

// TestOpenReadsFooter opens a reader of a file of 50 rows in row groups
// of 20 with 1 and 2 workers: opening reads the file once (its last
// bytes, footer included) and decodes nothing until the first Next, even
// after a wait; reading it all then gives the file's batch back.
func TestOpenReadsFooter(t *testing.T) {
	mem := checkedMem(t)
	rec := takeRecord(t, mem)
	defer rec.Release()
	data := writeFile(t, rec.Schema(), []arrow.RecordBatch{rec}, parquetconv.WithAllocator(mem), parquetconv.WithRowGroupRows(20))
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) {
			cr := &countingReader{Reader: bytes.NewReader(data)}
			r, err := parquetconv.NewReader(cr, parquetconv.WithAllocator(mem), parquetconv.WithWorkers(workers))
			if err != nil {
				t.Fatal(err)
			}
			defer r.Release()
			time.Sleep(20 * time.Millisecond) // time for decoding goroutines to read, were there any
			if got := cr.calls.Load(); got != 1 {
				t.Errorf("opening read the file %d times, want once", got)
			}
			checkReadAll(t, rec, r)
		})
	}
	t.Run("closed unread", func(t *testing.T) {
		r, err := parquetconv.NewReader(bytes.NewReader(data), parquetconv.WithAllocator(mem))
		if err != nil {
			t.Fatal(err)
		}
		r.Release()
	})
}
