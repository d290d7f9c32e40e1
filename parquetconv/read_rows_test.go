package parquetconv_test

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor"
	"github.com/fstensor/fstensor/parquetconv"
)

// TestReadRows reads row ranges of a file of 10 row groups of 10 rows:
// the rows asked, in order, and only the bytes of the row groups that
// hold them (with the footer).
func TestReadRows(t *testing.T) {
	mem0 := memory.NewGoAllocator()
	rec := mixedRecord(t, mem0, 100,
		colSpec{"f", arrow.PrimitiveTypes.Float32, shapeCycle3, everyThird},
		colSpec{"i", arrow.PrimitiveTypes.Int16, shapeVector, nil})
	defer rec.Release()
	data := writeFile(t, rec.Schema(), []arrow.RecordBatch{rec}, parquetconv.WithRowGroupRows(10))
	whole := int64(len(data))
	for _, c := range []struct {
		offset, limit int64
		lo, hi        int   // the rows expected
		maxGroups     int64 // row groups whose bytes may be read
	}{
		{0, -1, 0, 100, 10},
		{0, 0, 0, 0, 0},
		{0, 10, 0, 10, 1},
		{5, 3, 5, 8, 1},
		{9, 2, 9, 11, 2},
		{95, -1, 95, 100, 1},
		{95, 1000, 95, 100, 1},
		{100, -1, 100, 100, 0},
		{250, 4, 100, 100, 0},
		{37, 30, 37, 67, 4},
		{10, 1 << 62, 10, 100, 9},
	} {
		for _, workers := range []int{1, 3} {
			t.Run(fmt.Sprintf("offset=%d/limit=%d/workers=%d", c.offset, c.limit, workers), func(t *testing.T) {
				mem := checkedMem(t)
				src := &countingReader{Reader: bytes.NewReader(data)}
				r, err := parquetconv.NewReader(src, parquetconv.WithAllocator(mem), parquetconv.WithWorkers(workers),
					parquetconv.WithBatchRows(4), parquetconv.WithRows(c.offset, c.limit))
				if err != nil {
					t.Fatal(err)
				}
				opened := src.read.Load()
				want := sliceRecord(rec, c.lo, c.hi)
				defer want.Release()
				checkReadAll(t, want, r)
				r.Release()
				// Each row group holds a tenth of the data bytes.
				if got, bound := src.read.Load()-opened, (whole/10+1)*c.maxGroups; got > bound {
					t.Errorf("read %d bytes of row groups, want at most %d (%d groups of a %d-byte file)", got, bound, c.maxGroups, whole)
				}
			})
		}
	}
}

func TestReadRowsInvalid(t *testing.T) {
	_, err := parquetconv.NewReader(bytes.NewReader(nil), parquetconv.WithRows(-1, 5))
	if !errors.Is(err, fstensor.ErrOption) || !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("WithRows(-1, 5): %v, want ErrOption", err)
	}
}

func TestRowGroups(t *testing.T) {
	mem0 := memory.NewGoAllocator()
	rec := mixedRecord(t, mem0, 95, colSpec{"f", arrow.PrimitiveTypes.Float32, shapeCycle3, everyThird})
	defer rec.Release()
	data := writeFile(t, rec.Schema(), []arrow.RecordBatch{rec}, parquetconv.WithRowGroupRows(10))
	src := &countingReader{Reader: bytes.NewReader(data)}
	groups, err := parquetconv.RowGroups(src)
	if err != nil {
		t.Fatal(err)
	}
	var rows, size int64
	for i, g := range groups {
		if want := int64(min(10, 95-10*i)); g.Rows != want || g.Bytes <= 0 {
			t.Errorf("row group %d: %+v, want %d rows and some bytes", i, g, want)
		}
		rows += g.Rows
		size += g.Bytes
	}
	if len(groups) != 10 || rows != 95 || size >= int64(len(data)) {
		t.Errorf("%d row groups of %d rows and %d bytes in a file of %d bytes", len(groups), rows, size, len(data))
	}
	if src.read.Load() >= size {
		t.Errorf("read %d bytes for the footer of a file of %d data bytes", src.read.Load(), size)
	}
	for _, bad := range [][]byte{nil, []byte("PAR1"), data[:len(data)-3]} {
		if _, err := parquetconv.RowGroups(bytes.NewReader(bad)); !errors.Is(err, arrow.ErrInvalid) {
			t.Errorf("RowGroups of %d bytes: %v, want ErrInvalid", len(bad), err)
		}
	}
}
