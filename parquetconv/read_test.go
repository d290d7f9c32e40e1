package parquetconv_test

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/race"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/parquetconv"
)

// readFast reads data with opts, compares with want bit for bit and
// checks that no tensor column chunk left the fast path.
func readFast(t *testing.T, mem memory.Allocator, want arrow.RecordBatch, data []byte, opts ...parquetconv.Option) {
	t.Helper()
	before := parquetconv.TensorFallbacks()
	r, err := parquetconv.NewReader(bytes.NewReader(data), append([]parquetconv.Option{parquetconv.WithAllocator(mem)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Release()
	checkReadAll(t, want, r)
	if n := parquetconv.TensorFallbacks() - before; n != 0 {
		t.Errorf("%d tensor column chunks read by pqarrow", n)
	}
}

func TestReadElemTypes(t *testing.T) {
	for _, dt := range elemTypes {
		for _, sh := range []struct {
			name string
			m    metadata.Metadata
		}{{"0d", shape0D}, {"nonsquare", shapeNonSquare}, {"cycle3", shapeCycle3}, {"vector", shapeVector}} {
			for _, nulls := range []struct {
				name string
				f    func(int) bool
			}{{"none", nil}, {"third", everyThird}, {"all", allNull}} {
				t.Run(fmt.Sprintf("%v/%s/nulls=%s", dt, sh.name, nulls.name), func(t *testing.T) {
					mem := checkedMem(t)
					rec := buildRecord(t, mem, 7, colSpec{"x", dt, sh.m, nulls.f})
					defer rec.Release()
					readFast(t, mem, rec, writeFile(t, rec.Schema(), []arrow.RecordBatch{rec}))
				})
			}
		}
	}
}

func TestReadWriterOptions(t *testing.T) {
	opts := []struct {
		name string
		opts []parquetconv.Option
	}{
		{"default", nil},
		{"v2", []parquetconv.Option{parquetconv.WithDataPageV2()}},
		{"bss", []parquetconv.Option{parquetconv.WithByteStreamSplit()}},
		{"v2/bss", []parquetconv.Option{parquetconv.WithDataPageV2(), parquetconv.WithByteStreamSplit()}},
		{"rowgroups=4", []parquetconv.Option{parquetconv.WithRowGroupRows(4)}},
		{"identity-dictionary", []parquetconv.Option{parquetconv.WithIdentityDictionary()}},
		{"identity-dictionary/v2/zstd", []parquetconv.Option{parquetconv.WithIdentityDictionary(), parquetconv.WithDataPageV2(), parquetconv.WithCompression(parquetconv.ZSTD)}},
	}
	for _, c := range []parquetconv.Compression{parquetconv.Uncompressed, parquetconv.Snappy, parquetconv.Gzip, parquetconv.LZ4, parquetconv.ZSTD} {
		opts = append(opts, struct {
			name string
			opts []parquetconv.Option
		}{c.String(), []parquetconv.Option{parquetconv.WithCompression(c)}}, struct {
			name string
			opts []parquetconv.Option
		}{c.String() + "/v2", []parquetconv.Option{parquetconv.WithCompression(c), parquetconv.WithDataPageV2()}})
	}
	for _, o := range opts {
		t.Run(o.name, func(t *testing.T) {
			mem := checkedMem(t)
			rec := mixedRecord(t, mem, 23,
				colSpec{"f", arrow.PrimitiveTypes.Float32, shapeCycle3, everyThird},
				colSpec{"u", arrow.PrimitiveTypes.Uint8, shapeNonSquare, nil},
				colSpec{"i8", arrow.PrimitiveTypes.Int8, shapeVector, everyThird},
				colSpec{"i16", arrow.PrimitiveTypes.Int16, shapeCycle3, nil},
				colSpec{"u16", arrow.PrimitiveTypes.Uint16, shape0D, nil},
				colSpec{"h", arrow.FixedWidthTypes.Float16, shapeVector, nil},
				colSpec{"d", arrow.PrimitiveTypes.Float64, shape0D, allNull})
			defer rec.Release()
			readFast(t, mem, rec, writeFile(t, rec.Schema(), []arrow.RecordBatch{rec}, o.opts...))
		})
	}
}

func TestReadWorkersAndBatches(t *testing.T) {
	mem0 := memory.NewGoAllocator()
	rec := mixedRecord(t, mem0, 101,
		colSpec{"f", arrow.PrimitiveTypes.Float32, shapeCycle3, everyThird},
		colSpec{"i", arrow.PrimitiveTypes.Int16, shapeVector, nil})
	defer rec.Release()
	data := writeFile(t, rec.Schema(), []arrow.RecordBatch{rec}, parquetconv.WithRowGroupRows(10))
	for _, workers := range []int{1, 2, 5} {
		for _, batch := range []int{1, 3, 10, 64, 1000} {
			t.Run(fmt.Sprintf("workers=%d/batch=%d", workers, batch), func(t *testing.T) {
				mem := checkedMem(t)
				r, err := parquetconv.NewReader(bytes.NewReader(data), parquetconv.WithAllocator(mem),
					parquetconv.WithWorkers(workers), parquetconv.WithBatchRows(batch))
				if err != nil {
					t.Fatal(err)
				}
				defer r.Release()
				// Batches never span row groups: at most batch rows, and
				// never across a multiple of 10.
				start := 0
				for r.Next() {
					n := int(r.RecordBatch().NumRows())
					if n > batch || (start/10 != (start+n-1)/10) {
						t.Fatalf("batch of %d rows at row %d", n, start)
					}
					start += n
				}
				if err := r.Err(); err != nil {
					t.Fatal(err)
				}
				r2, err := parquetconv.NewReader(bytes.NewReader(data), parquetconv.WithAllocator(mem),
					parquetconv.WithWorkers(workers), parquetconv.WithBatchRows(batch))
				if err != nil {
					t.Fatal(err)
				}
				defer r2.Release()
				checkReadAll(t, rec, r2)
			})
		}
	}
}

// TestReadReleaseEarly releases readers after 0 or 1 batches: what was
// decoded ahead is released too.
func TestReadReleaseEarly(t *testing.T) {
	rec := testRecord(t, memory.NewGoAllocator(), 50, true)
	defer rec.Release()
	data := writeFile(t, rec.Schema(), []arrow.RecordBatch{rec}, parquetconv.WithRowGroupRows(5))
	for _, batches := range []int{0, 1, 3} {
		t.Run(fmt.Sprint(batches), func(t *testing.T) {
			mem := checkedMem(t)
			r, err := parquetconv.NewReader(bytes.NewReader(data), parquetconv.WithAllocator(mem), parquetconv.WithWorkers(2))
			if err != nil {
				t.Fatal(err)
			}
			for range batches {
				if !r.Next() {
					t.Fatal(r.Err())
				}
			}
			r.Release()
		})
	}
}

func TestReadOpenFile(t *testing.T) {
	mem := checkedMem(t)
	rec := testRecord(t, mem, 9, true)
	defer rec.Release()
	path := filepath.Join(t.TempDir(), "t.parquet")
	if err := os.WriteFile(path, writeFile(t, rec.Schema(), []arrow.RecordBatch{rec}), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := parquetconv.OpenFile(path, parquetconv.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Release()
	checkReadAll(t, rec, r)
	if _, err := parquetconv.OpenFile(filepath.Join(t.TempDir(), "missing.parquet")); err == nil {
		t.Error("OpenFile of a missing file succeeded")
	}
}

// TestReadLimits reads a valid file under limits it exceeds.
func TestReadLimits(t *testing.T) {
	rec := testRecord(t, memory.NewGoAllocator(), 30, true)
	defer rec.Release()
	data := writeFile(t, rec.Schema(), []arrow.RecordBatch{rec})
	for _, o := range []struct {
		name string
		opt  parquetconv.Option
	}{
		{"page", parquetconv.WithMaxPageBytes(16)},
		{"chunk", parquetconv.WithMaxChunkBytes(64)},
	} {
		t.Run(o.name, func(t *testing.T) {
			mem := checkedMem(t)
			err := readAll(mem, data, o.opt)
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("read = %v, want an error wrapping arrow.ErrInvalid", err)
			}
		})
	}
}

// TestReadReproducerOOM reads a 2 KB file whose stored Arrow schema
// claims a 4.3 GB vector: an error, not an allocation.
func TestReadReproducerOOM(t *testing.T) {
	mem := checkedMem(t)
	data, err := os.ReadFile("testdata/oom_parquet_arrow_schema_2159B.parquet")
	if err != nil {
		t.Fatal(err)
	}
	if err := readAll(mem, data); !errors.Is(err, arrow.ErrInvalid) {
		t.Fatalf("read = %v, want an error wrapping arrow.ErrInvalid", err)
	}
	if os.Getenv("FSTENSOR_CHILD") != "" {
		return
	}
	// Again in a child process limited to 4 GiB of address space.
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash for ulimit")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	cmd := exec.Command("bash", "-c", `ulimit -v 4194304 && exec "$0" -test.run '^TestReadReproducerOOM$' -test.count=1`, exe)
	cmd.Env = append(os.Environ(), "FSTENSOR_CHILD=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child under ulimit -v 4194304: %v\n%s", err, out)
	}
}

// readAll reads every batch of data and returns the first error.
func readAll(mem memory.Allocator, data []byte, opts ...parquetconv.Option) error {
	r, err := parquetconv.NewReader(bytes.NewReader(data), append([]parquetconv.Option{parquetconv.WithAllocator(mem)}, opts...)...)
	if err != nil {
		return err
	}
	defer r.Release()
	for r.Next() {
		for _, c := range r.RecordBatch().Columns() {
			if a, ok := c.(*fixedshape.Array); ok {
				if err := a.Validate(); err != nil {
					return err
				}
				_ = a.ValueBytes()
			}
		}
	}
	return r.Err()
}

// TestReadCorrupt truncates a valid file at every length and flips bytes
// all over it: every read fails with arrow.ErrInvalid or succeeds, never
// panics, and leaves nothing allocated.
// corruptStride is the step between the bytes the corruption tests
// change: under the race detector, which runs them 5-10x slower and
// checks concurrency rather than coverage, every 29th byte; on 32-bit
// systems, whose run checks size arithmetic, every seventh; the plain
// 64-bit run changes every byte.
var corruptStride = func() int {
	switch {
	case race.Enabled:
		return 29
	case strconv.IntSize == 32:
		return 7
	}
	return 1
}()

func TestReadCorrupt(t *testing.T) {
	rec := testRecord(t, memory.NewGoAllocator(), 6, true)
	defer rec.Release()
	for _, o := range []struct {
		name string
		opts []parquetconv.Option
	}{
		{"plain", nil},
		{"zstd/v2", []parquetconv.Option{parquetconv.WithCompression(parquetconv.ZSTD), parquetconv.WithDataPageV2()}},
		{"snappy/bss", []parquetconv.Option{parquetconv.WithCompression(parquetconv.Snappy), parquetconv.WithByteStreamSplit()}},
	} {
		data := writeFile(t, rec.Schema(), []arrow.RecordBatch{rec}, append(o.opts, parquetconv.WithRowGroupRows(4))...)
		t.Run(o.name+"/truncate", func(t *testing.T) {
			mem := checkedMem(t)
			for n := 0; n < len(data); n += corruptStride {
				if err := readAll(mem, data[:n]); !errors.Is(err, arrow.ErrInvalid) {
					t.Fatalf("%d of %d bytes: read = %v, want an error wrapping arrow.ErrInvalid", n, len(data), err)
				}
			}
		})
		t.Run(o.name+"/flip", func(t *testing.T) {
			mem := checkedMem(t)
			b := append([]byte(nil), data...)
			for i := 0; i < len(b); i += corruptStride {
				for _, x := range []byte{0x01, 0x80, 0xff} {
					b[i] ^= x
					if err := readAll(mem, b); err != nil && !errors.Is(err, arrow.ErrInvalid) {
						t.Fatalf("byte %d ^ %#x: read = %v, want an error wrapping arrow.ErrInvalid", i, x, err)
					}
					b[i] ^= x
				}
			}
		})
	}
}

// TestReadNullSlotsZeroed checks that null tensors come back as null
// slots whose elements are zero, on every value path.
func TestReadNullSlotsZeroed(t *testing.T) {
	for _, o := range []struct {
		name string
		opts []parquetconv.Option
	}{
		{"plain", nil},
		{"v2/zstd", []parquetconv.Option{parquetconv.WithDataPageV2(), parquetconv.WithCompression(parquetconv.ZSTD)}},
		{"bss", []parquetconv.Option{parquetconv.WithByteStreamSplit()}},
		{"identity-dictionary", []parquetconv.Option{parquetconv.WithIdentityDictionary()}},
	} {
		t.Run(o.name, func(t *testing.T) {
			mem := checkedMem(t)
			rec := buildRecord(t, mem, 10,
				colSpec{"f", arrow.PrimitiveTypes.Float32, shapeCycle3, everyThird},
				colSpec{"u", arrow.PrimitiveTypes.Uint8, shapeNonSquare, everyThird})
			defer rec.Release()
			r, err := parquetconv.NewReader(bytes.NewReader(writeFile(t, rec.Schema(), []arrow.RecordBatch{rec}, o.opts...)), parquetconv.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			defer r.Release()
			for r.Next() {
				for _, c := range r.RecordBatch().Columns()[1:] {
					a := c.(*fixedshape.Array)
					size := a.TensorType().ListSize() * a.TensorType().ElemWidth()
					b := a.ValueBytes()
					for row := range a.Len() {
						if a.IsNull(row) && !bytes.Equal(b[row*size:(row+1)*size], make([]byte, size)) {
							t.Errorf("null row %d holds % x", row, b[row*size:(row+1)*size])
						}
					}
				}
			}
			if err := r.Err(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestReadRowLimit reads a file of flat columns only: the rows a row
// group states, times what a row of each column takes decoded, must stay
// within WithMaxChunkBytes before arrow-go reserves memory for them.
func TestReadRowLimit(t *testing.T) {
	mem := checkedMem(t)
	rec := mixedRecord(t, mem, 100)
	defer rec.Release()
	data := writeFile(t, rec.Schema(), []arrow.RecordBatch{rec})
	if err := readAll(mem, data, parquetconv.WithMaxChunkBytes(500)); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("under a 500-byte limit: read = %v, want an error wrapping arrow.ErrInvalid", err)
	}
	r, err := parquetconv.NewReader(bytes.NewReader(data), parquetconv.WithAllocator(mem), parquetconv.WithMaxChunkBytes(4096))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Release()
	checkReadAll(t, rec, r)
}

// TestNewReaderLeavesFileOpen checks that releasing a reader from
// NewReader leaves the caller's file open, and that OpenFile's error for
// a missing file names the path once.
func TestNewReaderLeavesFileOpen(t *testing.T) {
	mem := checkedMem(t)
	rec := testRecord(t, mem, 3, false)
	defer rec.Release()
	path := filepath.Join(t.TempDir(), "t.parquet")
	if err := os.WriteFile(path, writeFile(t, rec.Schema(), []arrow.RecordBatch{rec}, parquetconv.WithAllocator(mem)), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := parquetconv.NewReader(f, parquetconv.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	for r.Next() {
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	r.Release()
	if _, err := f.Seek(0, 0); err != nil {
		t.Fatalf("file closed by the reader: %v", err)
	}

	missing := filepath.Join(t.TempDir(), "nope.parquet")
	_, err = parquetconv.OpenFile(missing)
	if !errors.Is(err, fs.ErrNotExist) || !errors.Is(err, arrow.ErrInvalid) {
		t.Fatalf("err = %v, want fs.ErrNotExist and arrow.ErrInvalid", err)
	}
	if n := strings.Count(err.Error(), missing); n != 1 {
		t.Errorf("%q names the path %d times, want 1", err, n)
	}
}
