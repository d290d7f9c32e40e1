package tensorio_test

import (
	"encoding/binary"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/fstensor/fstensor/arrowipc"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/tensorio"
)

// envInt returns the integer of the environment variable name, or def
// when it is unset.
func envInt(b *testing.B, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		b.Fatalf("%s=%q: want a positive integer", name, v)
	}
	return n
}

// imageBatches returns rows random uint8 224x224x3 images in batches of
// batch rows, and their bytes.
func imageBatches(b *testing.B, rows, batch int) ([]arrow.RecordBatch, int64) {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Uint8, metadata.MustNew([]int{224, 224, 3}, nil, nil))
	schema := arrow.NewSchema([]arrow.Field{{Name: "image", Type: typ, Nullable: true}}, nil)
	rng := rand.New(rand.NewPCG(1, 2))
	var recs []arrow.RecordBatch
	var size int64
	for start := 0; start < rows; start += batch {
		n := min(batch, rows-start)
		data := make([]uint8, n*224*224*3)
		for i := 0; i+8 <= len(data); i += 8 {
			binary.LittleEndian.PutUint64(data[i:], rng.Uint64())
		}
		a, err := fixedshape.FromSlice(typ, data, nil)
		if err != nil {
			b.Fatal(err)
		}
		recs = append(recs, array.NewRecordBatch(schema, []arrow.Array{a}, int64(n)))
		a.Release()
		size += int64(len(data))
	}
	return recs, size
}

// removeUntimed removes the file at path, if any, with the timer
// stopped: freeing the pages of the file written before is not part of
// a write (pyarrow's side removes it too).
func removeUntimed(b *testing.B, path string) {
	b.StopTimer()
	defer b.StartTimer()
	if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
		b.Fatal(err)
	}
}

// BenchmarkWriteImages writes uint8 224x224x3 images, in memory, to an
// IPC file: through Create (sync=yes: a temporary file, synced and
// renamed on Close) and through arrowipc's writer on a plain file
// (sync=no), beside a copy of the same bytes. It is fstensor's side of
// bench/peers/write_peers.sh, which sets FSTENSOR_WRITE_DIR (where the
// file goes; a temporary directory unless set), FSTENSOR_WRITE_ROWS
// (images, 64 unless set) and FSTENSOR_WRITE_BATCH (images a batch, 32
// unless set).
func BenchmarkWriteImages(b *testing.B) {
	rows, batch := envInt(b, "FSTENSOR_WRITE_ROWS", 64), envInt(b, "FSTENSOR_WRITE_BATCH", 32)
	dir := os.Getenv("FSTENSOR_WRITE_DIR")
	if dir == "" {
		dir = b.TempDir()
	}
	recs, size := imageBatches(b, rows, batch)
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	path := filepath.Join(dir, "fstensor_write.arrow")
	defer os.Remove(path)
	b.Run("sync=yes/impl=tensorio", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			removeUntimed(b, path)
			w, err := tensorio.Create(path, recs[0].Schema())
			if err != nil {
				b.Fatal(err)
			}
			testvec.WriteAll(b, w, recs...)
		}
	})
	b.Run("sync=no/impl=arrowipc", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			removeUntimed(b, path)
			f, err := os.Create(path)
			if err != nil {
				b.Fatal(err)
			}
			w, err := arrowipc.NewIPCFileWriter(f, recs[0].Schema())
			if err != nil {
				b.Fatal(err)
			}
			testvec.WriteAll(b, w, recs...)
			if err := f.Close(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("impl=copy", func(b *testing.B) {
		src, dst := recs[0].Column(0).(*fixedshape.Array).ValueBytes(), make([]byte, size)
		copy(dst, src)
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			for off := int64(0); off < size; off += int64(len(src)) {
				copy(dst[off:], src)
			}
		}
	})
}
