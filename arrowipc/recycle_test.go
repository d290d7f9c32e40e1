package arrowipc_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/arrowipc"
	"github.com/fstensor/fstensor/hugepage"
	"github.com/fstensor/fstensor/internal/reuse"
	"github.com/fstensor/fstensor/internal/testsupport/race"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
)

// recycleRows makes batches of about 2 MiB (a float32 column of 1.5 MiB,
// a float64 one with every third tensor null): bodies and decompressed
// buffers above reuse.MinSize.
const recycleRows = 16384

// recycleReader is a way of reading an IPC file or stream of this
// package: read calls before ahead of each batch's decode (a stream's:
// the first only, since Next releases a batch and decodes the next in
// one call) and each with every batch, which it then releases.
type recycleReader struct {
	name   string
	file   bool // the bytes are an IPC file, else a stream
	mapped bool // read by OpenMappedIPCFile: uncompressed bodies are not allocated
	read   func(t *testing.T, path string, before func(), each func(i int, rec arrow.RecordBatch), opts ...arrowipc.Option)
}

var recycleReaders = []recycleReader{
	{"file", true, false, func(t *testing.T, path string, before func(), each func(int, arrow.RecordBatch), opts ...arrowipc.Option) {
		readFileBatches(t, arrowipc.OpenIPCFile, path, before, each, opts...)
	}},
	{"mapped", true, true, func(t *testing.T, path string, before func(), each func(int, arrow.RecordBatch), opts ...arrowipc.Option) {
		readFileBatches(t, arrowipc.OpenMappedIPCFile, path, before, each, opts...)
	}},
	{"stream", false, false, readStreamBatches},
}

func readFileBatches(t *testing.T, open func(string, ...arrowipc.Option) (*arrowipc.FileReader, error), path string, before func(), each func(int, arrow.RecordBatch), opts ...arrowipc.Option) {
	t.Helper()
	r, err := open(path, opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for i := range r.NumRecords() {
		before()
		rec, err := r.RecordBatch(i)
		if err != nil {
			t.Fatal(err)
		}
		each(i, rec)
		rec.Release()
	}
}

func readStreamBatches(t *testing.T, path string, before func(), each func(int, arrow.RecordBatch), opts ...arrowipc.Option) {
	t.Helper()
	before()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rr, err := arrowipc.NewIPCStreamReader(f, opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	for i := 0; rr.Next(); i++ {
		each(i, rr.RecordBatch())
	}
	if err := rr.Err(); err != nil {
		t.Fatal(err)
	}
}

// recycleFile writes three batches of recycleRows rows with codec, as a
// file or a stream, into a temporary directory and returns its path.
func recycleFile(t *testing.T, file bool, codec arrowipc.Compression) string {
	t.Helper()
	mem := memory.NewGoAllocator()
	recs := make([]arrow.RecordBatch, 3)
	for i := range recs {
		recs[i] = testvec.Record(t, mem, recycleRows+i, true)
		defer recs[i].Release()
	}
	path := filepath.Join(t.TempDir(), "recycle.arrow")
	if err := os.WriteFile(path, writeIPC(t, file, recs, arrowipc.WithCompression(codec)), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// freshBatches returns the batches at path read into fresh, zeroed Go
// memory, from a checked allocator that reuse.For leaves as it is.
func freshBatches(t *testing.T, rd recycleReader, path string) []arrow.RecordBatch {
	t.Helper()
	mem := checkedMem(t)
	var want []arrow.RecordBatch
	rd.read(t, path, func() {}, func(_ int, rec arrow.RecordBatch) {
		want = append(want, copyRecord(t, rec))
	}, arrowipc.WithAllocator(mem))
	return want
}

// copyRecord returns a copy of rec in Go memory, independent of the
// reader's.
func copyRecord(t *testing.T, rec arrow.RecordBatch) arrow.RecordBatch {
	t.Helper()
	var buf bytes.Buffer
	w, err := arrowipc.NewIPCStreamWriter(&buf, rec.Schema())
	if err != nil {
		t.Fatal(err)
	}
	testvec.WriteAll(t, w, rec)
	rr, err := arrowipc.NewIPCStreamReader(&buf, arrowipc.WithAllocator(memory.NewCheckedAllocator(memory.NewGoAllocator())))
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	if !rr.Next() {
		t.Fatal(rr.Err())
	}
	out := rr.RecordBatch()
	out.Retain()
	return out
}

var recycleCodecs = []struct {
	name  string
	codec arrowipc.Compression
}{{"none", arrowipc.Uncompressed}, {"lz4", arrowipc.LZ4}, {"zstd", arrowipc.ZSTD}}

// TestRecycledReads reads files and streams, uncompressed and compressed,
// with null bitmaps, into memory that held poison bytes, and checks the
// batches equal those read into fresh memory: every buffer the readers
// take from recycled memory is written whole. The huge-page allocator's
// recycled mappings (from 1 KiB on, so that bitmaps and small value
// buffers get them too) are checked to be used; those of reuse.Buffers
// (the default allocator's) wait in a sync.Pool, so the test runs on
// one P with the garbage collector off. The batches after a stream's
// first get the memory of the batch before, which Next releases: the
// batches differ in length, so that it holds other bytes at each place.
func TestRecycledReads(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	for _, rd := range recycleReaders {
		for _, c := range recycleCodecs {
			t.Run("reader="+rd.name+"/codec="+c.name, func(t *testing.T) {
				path := recycleFile(t, rd.file, c.codec)
				want := freshBatches(t, rd, path)
				defer func() {
					for _, r := range want {
						r.Release()
					}
				}()
				for _, poison := range []byte{0xff, 0xa5} {
					t.Run(fmt.Sprintf("poison=%#x/alloc=reuse", poison), func(t *testing.T) {
						if race.Enabled {
							t.Skip("sync.Pool drops items at random under the race detector")
						}
						rd.read(t, path, func() { poisonReuse(poison) }, func(i int, rec arrow.RecordBatch) {
							testvec.CheckRecordsEqual(t, want[i], rec)
						})
					})
					t.Run(fmt.Sprintf("poison=%#x/alloc=hugepage", poison), func(t *testing.T) {
						hp, err := hugepage.NewAllocator(hugepage.WithMinSize(1024))
						if err != nil {
							t.Fatal(err)
						}
						defer hp.Trim()
						rd.read(t, path, func() { poisonHuge(t, hp, poison) }, func(i int, rec arrow.RecordBatch) {
							if n, _ := hp.Kept(); runtimeMaps() && n == hugepage.MaxKept && !(rd.mapped && c.codec == arrowipc.Uncompressed) {
								t.Errorf("batch %d: no recycled mapping was used (%d kept)", i, n)
							}
							testvec.CheckRecordsEqual(t, want[i], rec)
						}, arrowipc.WithAllocator(hp))
						if n, _ := hp.Mapped(); n != 0 {
							t.Errorf("%d buffers still mapped after every batch was released", n)
						}
					})
				}
			})
		}
	}
}

// poisonReuse fills two buffers of reuse.Buffers of every size class
// from reuse.MinSize to 4 MiB with b (those of the batch released last
// among them) and frees them, so that the next allocations of each class
// get them.
func poisonReuse(b byte) {
	for size := reuse.MinSize; size <= 4<<20; size += size / 8 {
		testvec.FillFreed(reuse.Buffers, b, size, size)
	}
}

// poisonHuge fills hugepage.MaxKept recycled mappings of hp (2 and 4
// MiB; those of the batch released last among them) with b and frees
// them, so that hp keeps them for its next recycled allocations.
func poisonHuge(t *testing.T, hp *hugepage.Allocator, b byte) {
	t.Helper()
	sizes := make([]int, hugepage.MaxKept)
	for k := range sizes {
		sizes[k] = (k%2 + 1) << 21
	}
	testvec.FillFreed(hp.Recycled(), b, sizes...)
	if n, _ := hp.Kept(); runtimeMaps() && n != hugepage.MaxKept {
		t.Fatalf("after poisoning, %d mappings kept, want %d", n, hugepage.MaxKept)
	}
}

// runtimeMaps reports whether hugepage maps buffers here (Linux).
func runtimeMaps() bool { return runtime.GOOS == "linux" }

// TestRecycledDictionaries checks that a reader of a schema with a
// dictionary-encoded column takes no recycled memory: arrow-go
// concatenates delta dictionaries into buffers it does not write whole.
func TestRecycledDictionaries(t *testing.T) {
	if !runtimeMaps() {
		t.Skip("hugepage maps buffers on Linux only")
	}
	mem := memory.NewGoAllocator()
	b := array.NewDictionaryBuilder(mem, &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String})
	defer b.Release()
	sb := b.(*array.BinaryDictionaryBuilder)
	for i := range 4096 {
		if err := sb.AppendString(string(rune('a' + i%26))); err != nil {
			t.Fatal(err)
		}
	}
	col := b.NewArray()
	defer col.Release()
	rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "d", Type: col.DataType()}}, nil), []arrow.Array{col}, int64(col.Len()))
	defer rec.Release()
	for _, rd := range recycleReaders {
		if rd.mapped {
			continue // arrow-go's mapped reader cannot read dictionaries
		}
		t.Run("reader="+rd.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "dict.arrow")
			if err := os.WriteFile(path, writeIPC(t, rd.file, []arrow.RecordBatch{rec}), 0o644); err != nil {
				t.Fatal(err)
			}
			hp, err := hugepage.NewAllocator(hugepage.WithMinSize(1024))
			if err != nil {
				t.Fatal(err)
			}
			defer hp.Trim()
			rd.read(t, path, func() { poisonHuge(t, hp, 0xff) }, func(_ int, got arrow.RecordBatch) {
				if n, _ := hp.Kept(); n != hugepage.MaxKept {
					t.Errorf("%d mappings kept after the read, want %d: the reader took recycled memory", n, hugepage.MaxKept)
				}
				testvec.CheckRecordsEqual(t, rec, got)
			}, arrowipc.WithAllocator(hp))
		})
	}
}
