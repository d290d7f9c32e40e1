package bench_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/arrowipc"
	"github.com/fstensor/fstensor/bench"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/parquetconv"
)

// ioShape is the tensor shape of the IPC, Parquet and .npy benchmarks:
// 224x224 RGB float32 images (588 KiB each).
var ioShape = []int{3, 224, 224}

// ioRecord returns a record batch with one tensor column "image" of about
// size s, and the column's byte size.
func ioRecord(b *testing.B, s bench.Size, scale int) (arrow.RecordBatch, int) {
	tensor := 4 * 3 * 224 * 224
	n := batchFor(s, tensor*scale)
	arr := column[float32](b, n, ioShape)
	defer arr.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "image", Type: arr.DataType()}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{arr}, int64(n)), n * tensor
}

func ioName(op string, rec arrow.RecordBatch) string {
	return "op=" + op + "/dtype=float32/" + shapeKey(int(rec.NumRows()), ioShape...)
}

var codecs = []arrowipc.Compression{arrowipc.Uncompressed, arrowipc.LZ4, arrowipc.ZSTD}

// BenchmarkIPC times Arrow IPC writes into memory and reads from memory or
// a file in the page cache (file, stream, memory-mapped), uncompressed,
// LZ4 and ZSTD, beside a copy() of the column's bytes. Throughput counts
// the column's bytes. A mapped read is zero-copy, so it reports ns/op
// only (open, read the batch, close).
func BenchmarkIPC(b *testing.B) {
	for _, s := range sizes(b) {
		rec, n := ioRecord(b, s, 1)
		col := rec.Column(0).(*fixedshape.Array)
		for _, format := range []string{"file", "stream"} {
			for _, cmp := range codecs {
				name := ioName("ipc-write", rec) + "/format=" + format + "/codec=" + cmp.String()
				var buf bytes.Buffer
				writeIPC(b, &buf, format, cmp, rec)
				b.Run(name+"/impl=arrowipc", func(b *testing.B) {
					b.ReportAllocs()
					b.SetBytes(int64(n))
					for b.Loop() {
						buf.Reset()
						writeIPC(b, &buf, format, cmp, rec)
					}
				})
				data := bytes.Clone(buf.Bytes())
				buf = bytes.Buffer{}
				name = ioName("ipc-read", rec) + "/format=" + format + "/codec=" + cmp.String()
				b.Run(name+"/impl=arrowipc", func(b *testing.B) {
					b.ReportAllocs()
					b.SetBytes(int64(n))
					for b.Loop() {
						readIPC(b, data, format)
					}
				})
				if format == "file" && cmp == arrowipc.Uncompressed {
					path := filepath.Join(b.TempDir(), "col.arrow")
					must(b, os.WriteFile(path, data, 0o600))
					mapped := ioName("ipc-read", rec) + "/format=mapped/codec=none/impl=arrowipc"
					b.Run(mapped, func(b *testing.B) {
						b.ReportAllocs()
						for b.Loop() {
							r, err := arrowipc.OpenMappedIPCFile(path)
							must(b, err)
							batch, err := r.RecordBatch(0)
							must(b, err)
							batch.Release()
							must(b, r.Close())
						}
					})
					disk := ioName("ipc-read", rec) + "/format=openfile/codec=none/impl=arrowipc"
					b.Run(disk, func(b *testing.B) {
						b.ReportAllocs()
						b.SetBytes(int64(n))
						for b.Loop() {
							r, err := arrowipc.OpenIPCFile(path)
							must(b, err)
							batch, err := r.RecordBatch(0)
							must(b, err)
							batch.Release()
							must(b, r.Close())
						}
					})
					must(b, os.Remove(path))
				}
			}
		}
		copyBaseline(b, ioName("ipc", rec), make([]byte, n), col.ValueBytes(), n)
		rec.Release()
	}
}

func writeIPC(b *testing.B, buf *bytes.Buffer, format string, cmp arrowipc.Compression, rec arrow.RecordBatch) {
	newWriter := arrowipc.NewIPCFileWriter
	if format == "stream" {
		newWriter = arrowipc.NewIPCStreamWriter
	}
	w, err := newWriter(buf, rec.Schema(), arrowipc.WithCompression(cmp), arrowipc.WithAllocator(memory.DefaultAllocator))
	must(b, err)
	must(b, w.Write(rec))
	must(b, w.Close())
}

func readIPC(b *testing.B, data []byte, format string) {
	if format == "stream" {
		rr, err := arrowipc.NewIPCStreamReader(bytes.NewReader(data))
		must(b, err)
		for rr.Next() {
		}
		must(b, rr.Err())
		rr.Release()
		return
	}
	r, err := arrowipc.NewIPCFileReader(bytes.NewReader(data))
	must(b, err)
	for i := range r.NumRecords() {
		batch, err := r.RecordBatch(i)
		must(b, err)
		batch.Release()
	}
	must(b, r.Close())
}

// BenchmarkParquet times Parquet writes into memory and reads from memory,
// uncompressed, LZ4 (LZ4_RAW) and ZSTD, beside a copy() of the column's
// bytes. Parquet encodes a repetition level per element, so it is far
// slower than IPC; the large size is a quarter of the others' (about
// 32 MiB) to keep the suite's time bounded.
func BenchmarkParquet(b *testing.B) {
	for _, s := range sizes(b) {
		scale := 1
		if s == bench.Large {
			scale = 4
		}
		rec, n := ioRecord(b, s, scale)
		col := rec.Column(0).(*fixedshape.Array)
		for _, cmp := range []parquetconv.Compression{parquetconv.Uncompressed, parquetconv.LZ4, parquetconv.ZSTD} {
			var buf bytes.Buffer
			writeParquet(b, &buf, cmp, rec)
			name := ioName("parquet-write", rec) + "/codec=" + cmp.String()
			b.Run(name+"/impl=parquetconv", func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(n))
				for b.Loop() {
					buf.Reset()
					writeParquet(b, &buf, cmp, rec)
				}
			})
			data := bytes.Clone(buf.Bytes())
			buf = bytes.Buffer{}
			name = ioName("parquet-read", rec) + "/codec=" + cmp.String()
			b.Run(name+"/impl=parquetconv", func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(n))
				for b.Loop() {
					rr, err := parquetconv.NewReader(bytes.NewReader(data))
					must(b, err)
					for rr.Next() {
					}
					must(b, rr.Err())
					rr.Release()
				}
			})
		}
		copyBaseline(b, ioName("parquet", rec), make([]byte, n), col.ValueBytes(), n)
		rec.Release()
	}
}

func writeParquet(b *testing.B, buf *bytes.Buffer, cmp parquetconv.Compression, rec arrow.RecordBatch) {
	w, err := parquetconv.NewWriter(buf, rec.Schema(), parquetconv.WithCompression(cmp))
	must(b, err)
	must(b, w.Write(rec))
	must(b, w.Close())
}
