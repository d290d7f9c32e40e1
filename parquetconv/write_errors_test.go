package parquetconv_test

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/parquetconv"
)

// TestParquetWriterErrors checks that a record of another schema is
// refused and that the writer is usable afterwards.
func TestParquetWriterErrors(t *testing.T) {
	mem := checkedMem(t)
	rec := testRecord(t, mem, 3, false)
	defer rec.Release()
	other := testRecord(t, mem, 3, true)
	defer other.Release()
	var buf bytes.Buffer
	w, err := parquetconv.NewWriter(&buf, rec.Schema(), parquetconv.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(other); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("err = %v, want arrow.ErrInvalid", err)
	}
	// Nulls in a non-nullable field are refused before anything is written.
	fields := other.Schema().Fields()
	fields[4].Nullable = false
	nonNull := array.NewRecordBatch(arrow.NewSchema(fields, nil), other.Columns(), other.NumRows())
	defer nonNull.Release()
	w2, err := parquetconv.NewWriter(&bytes.Buffer{}, nonNull.Schema(), parquetconv.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	if err := w2.Write(nonNull); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("nulls in a non-nullable field: err = %v, want arrow.ErrInvalid", err)
	}
	if err := w2.Close(); err != nil {
		t.Errorf("close after a refused record: %v", err)
	}
	testvec.WriteAll(t, w, rec)
	if err := w.Write(rec); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("write after close: err = %v, want arrow.ErrInvalid", err)
	}
	if _, err := parquetconv.NewWriter(&buf, rec.Schema(), parquetconv.WithCompression(parquetconv.Compression(99))); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("unknown codec: err = %v, want arrow.ErrInvalid", err)
	}
	// A tensor of 1 GiB cannot be a Parquet page (sizes are int32).
	huge := fixedshape.MustNewType(arrow.PrimitiveTypes.Float64, metadata.MustNew([]int{1 << 14, 1 << 13}, nil, nil))
	sc := arrow.NewSchema([]arrow.Field{{Name: "huge", Type: huge, Nullable: true}}, nil)
	if _, err := parquetconv.NewWriter(&buf, sc); !errors.Is(err, arrow.ErrInvalid) || !errors.Is(err, arrow.ErrNotImplemented) {
		t.Errorf("huge tensors: err = %v, want arrow.ErrInvalid and arrow.ErrNotImplemented", err)
	}
}

// failingWriter accepts n bytes, then fails every write.
type failingWriter struct{ n int }

var errDiskFull = errors.New("disk full")

func (w *failingWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		k := w.n
		w.n = 0
		return k, errDiskFull
	}
	w.n -= len(p)
	return len(p), nil
}

// TestParquetWriterIOError checks that an I/O error of the destination
// is returned by Write, with its cause, and then by every call.
func TestParquetWriterIOError(t *testing.T) {
	mem := checkedMem(t)
	rec := mixedRecord(t, mem, 20, colSpec{"v", arrow.PrimitiveTypes.Float32, shapeCycle3, everyThird})
	defer rec.Release()
	// The row groups and footer, without the page index: size-10 falls
	// after the row groups, in the page index of the files written below.
	size := len(writeFile(t, rec.Schema(), []arrow.RecordBatch{rec}, parquetconv.WithAllocator(mem), parquetconv.WithRowGroupRows(5), parquetconv.WithoutPageIndex()))
	for _, n := range []int{0, 10, 500, 1500, size - 10} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			w, err := parquetconv.NewWriter(&failingWriter{n: n}, rec.Schema(), parquetconv.WithAllocator(mem), parquetconv.WithRowGroupRows(5))
			if n == 0 {
				if !errors.Is(err, errDiskFull) || !errors.Is(err, arrow.ErrInvalid) {
					t.Fatalf("NewWriter: err = %v, want errDiskFull and arrow.ErrInvalid", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if n == size-10 { // only the page index and footer fail
				if err := w.Write(rec); err != nil {
					t.Fatal(err)
				}
				if err := w.Close(); !errors.Is(err, errDiskFull) || !errors.Is(err, arrow.ErrInvalid) {
					t.Errorf("Close: err = %v, want errDiskFull and arrow.ErrInvalid", err)
				}
				return
			}
			err = w.Write(rec)
			if !errors.Is(err, errDiskFull) || !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("Write: err = %v, want errDiskFull and arrow.ErrInvalid", err)
			}
			if err := w.Write(rec); !errors.Is(err, errDiskFull) {
				t.Errorf("second Write: err = %v, want errDiskFull", err)
			}
			if err := w.Close(); !errors.Is(err, errDiskFull) {
				t.Errorf("Close: err = %v, want errDiskFull", err)
			}
		})
	}
}
