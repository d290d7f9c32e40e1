package parquetconv_test

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/parquetconv"
)

// mappedCases are the files TestReadMapped reads: every value path of
// the tensor decoder (plain, narrowed, v2 compressed, byte stream split,
// dictionary), with null tensors and several row groups.
var mappedCases = []struct {
	name string
	opts []parquetconv.Option
}{
	{"plain", nil},
	{"zstd/v2", []parquetconv.Option{parquetconv.WithCompression(parquetconv.ZSTD), parquetconv.WithDataPageV2()}},
	{"snappy/bss", []parquetconv.Option{parquetconv.WithCompression(parquetconv.Snappy), parquetconv.WithByteStreamSplit()}},
	{"identity-dictionary", []parquetconv.Option{parquetconv.WithIdentityDictionary()}},
}

// TestReadMapped reads files through OpenFile, which maps them, and
// checks the batches against the source, then flips bytes all over each
// file: the mapped read and a read through ReadAt (bytes.Reader) must
// agree on every variant, the same values or both an error wrapping
// arrow.ErrInvalid.
func TestReadMapped(t *testing.T) {
	rec := testRecord(t, memory.NewGoAllocator(), 6, true)
	defer rec.Release()
	for _, c := range mappedCases {
		data := writeFile(t, rec.Schema(), []arrow.RecordBatch{rec}, append(c.opts, parquetconv.WithRowGroupRows(4))...)
		path := filepath.Join(t.TempDir(), "t.parquet")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Run(c.name+"/values", func(t *testing.T) {
			mem := checkedMem(t)
			before := parquetconv.MappedChunks()
			r, err := parquetconv.OpenFile(path, parquetconv.WithAllocator(mem), parquetconv.WithWorkers(2))
			if err != nil {
				t.Fatal(err)
			}
			defer r.Release()
			checkReadAll(t, rec, r)
			if parquetconv.MappedChunks() == before {
				t.Error("no tensor column chunk was read from the mapping")
			}
		})
		t.Run(c.name+"/flip", func(t *testing.T) {
			mem := checkedMem(t)
			f, err := os.OpenFile(path, os.O_RDWR, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			b := append([]byte(nil), data...)
			// Each variant opens a reader twice: a coarser stride than
			// TestReadCorrupt's keeps the test to seconds.
			for i := 0; i < len(b); i += 13 * corruptStride {
				for _, x := range []byte{0x01, 0x80, 0xff} {
					b[i] ^= x
					if _, err := f.WriteAt(b[i:i+1], int64(i)); err != nil {
						t.Fatal(err)
					}
					mapped, errMapped := digest(parquetconv.OpenFile(path, parquetconv.WithAllocator(mem)))
					read, errRead := digest(parquetconv.NewReader(bytes.NewReader(b), parquetconv.WithAllocator(mem)))
					if (errMapped == nil) != (errRead == nil) || mapped != read {
						t.Fatalf("byte %d ^ %#x: mapped read gives %x, %v; ReadAt gives %x, %v", i, x, mapped, errMapped, read, errRead)
					}
					if errMapped != nil && !errors.Is(errMapped, arrow.ErrInvalid) {
						t.Fatalf("byte %d ^ %#x: mapped read = %v, want an error wrapping arrow.ErrInvalid", i, x, errMapped)
					}
					b[i] ^= x
					if _, err := f.WriteAt(b[i:i+1], int64(i)); err != nil {
						t.Fatal(err)
					}
				}
			}
		})
	}
}

// digest reads every batch of r and returns a hash of their tensor
// columns' value bytes and validity, or the first error.
func digest(r array.RecordReader, err error) ([32]byte, error) {
	if err != nil {
		return [32]byte{}, err
	}
	defer r.Release()
	h := sha256.New()
	for r.Next() {
		for _, c := range r.RecordBatch().Columns() {
			if a, ok := c.(*fixedshape.Array); ok {
				h.Write(a.ValueBytes())
				for i := range a.Len() {
					if a.IsNull(i) {
						h.Write([]byte{byte(i)})
					}
				}
			}
		}
	}
	if err := r.Err(); err != nil {
		return [32]byte{}, err
	}
	return [32]byte(h.Sum(nil)), nil
}

// TestReadMappedTruncated truncates a file under a reader that mapped
// it. Without zero copy (no lease), reading the lost pages faults, and
// the fault must come back as an error wrapping arrow.ErrInvalid rather
// than kill the process. By default the mapping holds a lease: the
// truncation waits until the mapped bytes are copied, and every batch
// read, those read before the truncation included, holds the file's
// first bytes.
func TestReadMappedTruncated(t *testing.T) {
	rec := buildRecord(t, memory.NewGoAllocator(), 4096, colSpec{"f", arrow.PrimitiveTypes.Float32, shapeCycle3, nil})
	defer rec.Release()
	for _, c := range []struct {
		name string
		opts []parquetconv.Option
	}{{"copy", []parquetconv.Option{parquetconv.WithoutZeroCopy()}}, {"zero-copy", nil}} {
		t.Run(c.name, func(t *testing.T) {
			mem := checkedMem(t)
			path := filepath.Join(t.TempDir(), "t.parquet")
			if err := os.WriteFile(path, writeFile(t, rec.Schema(), []arrow.RecordBatch{rec}, parquetconv.WithRowGroupRows(1024)), 0o644); err != nil {
				t.Fatal(err)
			}
			if c.opts == nil && !testvec.Leases(t, path) {
				t.Skip("no read lease on the file")
			}
			// Only the tensor column: the others are read through ReadAt.
			r, err := parquetconv.OpenFile(path, append(c.opts, parquetconv.WithAllocator(mem), parquetconv.WithColumns("f"))...)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Release()
			var kept []arrow.RecordBatch
			defer func() {
				for _, b := range kept {
					b.Release()
				}
			}()
			if c.opts == nil && r.Next() { // a batch viewed before the truncation
				r.RecordBatch().Retain()
				kept = append(kept, r.RecordBatch())
			}
			if err := os.Truncate(path, 4096); err != nil {
				t.Fatal(err)
			}
			for r.Next() {
				r.RecordBatch().Retain()
				kept = append(kept, r.RecordBatch())
			}
			err = r.Err()
			if c.opts != nil {
				if !errors.Is(err, arrow.ErrInvalid) {
					t.Fatalf("read of a truncated file = %v, want an error wrapping arrow.ErrInvalid", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("read under a lease of a file truncated since: %v", err)
			}
			want := rec.Column(rec.Schema().FieldIndices("f")[0]).(*fixedshape.Array).ValueBytes()
			var got []byte
			for _, b := range kept {
				got = append(got, b.Column(0).(*fixedshape.Array).ValueBytes()...)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("read %d value bytes differing from the %d written", len(got), len(want))
			}
		})
	}
}

// TestReadMappedLarge reads chunks of more than 1 MiB, whose values are
// copied with non-temporal stores, through the mapping (and through
// ReadAt), with pages that do not start on a cache line (rows of 420 and
// 77 bytes), null tensors, PLAIN and identity-dictionary pages.
func TestReadMappedLarge(t *testing.T) {
	const rows = 4000
	odd := metadata.MustNew([]int{3, 5, 7}, nil, nil)
	small := metadata.MustNew([]int{7, 11}, nil, nil)
	for _, c := range []struct {
		name string
		opts []parquetconv.Option
	}{
		{"plain", nil},
		{"identity-dictionary", []parquetconv.Option{parquetconv.WithIdentityDictionary()}},
		{"v2", []parquetconv.Option{parquetconv.WithDataPageV2(), parquetconv.WithPageBytes(100_000)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			mem := checkedMem(t)
			rec := buildRecord(t, memory.NewGoAllocator(), rows,
				colSpec{"f", arrow.PrimitiveTypes.Float32, odd, everyThird},
				colSpec{"u", arrow.PrimitiveTypes.Uint8, small, nil},
				colSpec{"b", arrow.PrimitiveTypes.Uint8, metadata.MustNew([]int{64, 64}, nil, nil), nil})
			defer rec.Release()
			data := writeFile(t, rec.Schema(), []arrow.RecordBatch{rec}, c.opts...)
			path := filepath.Join(t.TempDir(), "t.parquet")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			// The default allocator's chunk buffers are new on the first
			// read (ordinary stores) and kept ones on the second
			// (non-temporal stores); a checked allocator's are written
			// with non-temporal stores.
			for _, a := range []memory.Allocator{mem, memory.DefaultAllocator, memory.DefaultAllocator} {
				r, err := parquetconv.OpenFile(path, parquetconv.WithAllocator(a), parquetconv.WithWorkers(2))
				if err != nil {
					t.Fatal(err)
				}
				checkReadAll(t, rec, r)
				r.Release()
			}
			r, err := parquetconv.NewReader(bytes.NewReader(data), parquetconv.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			checkReadAll(t, rec, r)
			r.Release()
		})
	}
}

// FuzzReadMapped reads arbitrary bytes from a file, which OpenFile maps,
// and from a bytes.Reader: both must agree (the same values, or both an
// error wrapping arrow.ErrInvalid), never panic and leave nothing
// allocated. OpenFile maps the file under a read lease where the system
// grants one, and then hands out single-page chunks where they lie (see
// TestReadZeroCopy): the seeds without null tensors take that path.
// Seeds: the small files of FuzzReader's writer options, with and
// without null tensors, plus testdata/fuzz/FuzzReadMapped (pyarrow files
// with dictionary pages).
func FuzzReadMapped(f *testing.F) {
	for _, nulls := range []bool{true, false} {
		rec := testRecord(f, memory.NewGoAllocator(), 4, nulls)
		for _, c := range mappedCases {
			f.Add(writeFile(f, rec.Schema(), []arrow.RecordBatch{rec}, append(c.opts, parquetconv.WithRowGroupRows(3))...))
		}
		f.Add(writeFile(f, rec.Schema(), []arrow.RecordBatch{rec}, parquetconv.WithDataPageV2()))
		rec.Release()
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		path := filepath.Join(dir, "f.parquet")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		opts := []parquetconv.Option{parquetconv.WithAllocator(mem), parquetconv.WithMaxPageBytes(1 << 20), parquetconv.WithMaxChunkBytes(1 << 20), parquetconv.WithWorkers(2)}
		mapped, errMapped := digest(parquetconv.OpenFile(path, opts...))
		read, errRead := digest(parquetconv.NewReader(bytes.NewReader(data), opts...))
		if (errMapped == nil) != (errRead == nil) || mapped != read {
			t.Fatalf("mapped read gives %x, %v; ReadAt gives %x, %v", mapped, errMapped, read, errRead)
		}
		if errMapped != nil && !errors.Is(errMapped, arrow.ErrInvalid) {
			t.Fatalf("error does not wrap arrow.ErrInvalid: %v", errMapped)
		}
	})
}
