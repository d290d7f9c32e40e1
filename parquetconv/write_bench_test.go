package parquetconv_test

import (
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
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

// benchFull selects the full sizes (50,000 embeddings, 1,000 images);
// the default is a tenth, so that go test -bench stays quick.
var benchFull = flag.Bool("parquetconv.full", false, "benchmark the full sizes (50,000 x 768 float32, 1,000 x 3x224x224 uint8)")

// benchRecord returns a record of one tensor column of n tensors of elem
// and shape; gaussian fills float32 tensors with unit-norm Gaussian
// vectors (realistic embeddings), otherwise elements are pseudo-random
// bytes.
func benchRecord(n int, elem arrow.DataType, shape []int, gaussian bool) arrow.RecordBatch {
	typ := fixedshape.MustNewType(elem, metadata.MustNew(shape, nil, nil))
	size := typ.ListSize()
	buf := memory.NewResizableBuffer(memory.DefaultAllocator)
	buf.Resize(n * size * typ.ElemWidth())
	b := buf.Bytes()
	rng := rand.New(rand.NewPCG(1, 2))
	if gaussian {
		v := make([]float64, size)
		for i := range n {
			norm := 0.0
			for k := range v {
				v[k] = rng.NormFloat64()
				norm += v[k] * v[k]
			}
			norm = math.Sqrt(norm)
			for k := range v {
				binary.LittleEndian.PutUint32(b[4*(i*size+k):], math.Float32bits(float32(v[k]/norm)))
			}
		}
	} else {
		for i := 0; i+8 <= len(b); i += 8 {
			binary.LittleEndian.PutUint64(b[i:], rng.Uint64())
		}
	}
	arr, err := fixedshape.NewArrayFromBuffer(typ, n, buf)
	buf.Release()
	if err != nil {
		panic(err)
	}
	defer arr.Release()
	return array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "t", Type: typ, Nullable: true}}, nil), []arrow.Array{arr}, int64(n))
}

func benchCopy(b *testing.B, src []byte) {
	dst := make([]byte, len(src))
	copy(dst, src) // fault the pages in
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		copy(dst, src)
	}
}

// writeTo writes rec to w as one Parquet file.
func writeTo(b *testing.B, w interface{ Write([]byte) (int, error) }, rec arrow.RecordBatch, opts ...parquetconv.Option) {
	pw, err := parquetconv.NewWriter(w, rec.Schema(), opts...)
	if err != nil {
		b.Fatal(err)
	}
	testvec.WriteAll(b, pw, rec)
}

// BenchmarkWrite writes float32 embeddings and uint8 images (with the
// identity dictionary, the default, and PLAIN as INT32),
// uncompressed, into a reused buffer and to a file (in the page cache),
// beside a copy of the same tensor bytes; the throughput is of tensor
// bytes.
func BenchmarkWrite(b *testing.B) {
	embRows, imgRows := 5_000, 100
	if *benchFull {
		embRows, imgRows = 50_000, 1_000
	}
	for _, d := range []struct {
		name  string
		rows  int
		elem  arrow.DataType
		shape []int
	}{
		{"embeddings", embRows, arrow.PrimitiveTypes.Float32, []int{768}},
		{"images", imgRows, arrow.PrimitiveTypes.Uint8, []int{3, 224, 224}},
	} {
		rec := benchRecord(d.rows, d.elem, d.shape, false)
		raw := rec.Column(0).(*fixedshape.Array).ValueBytes()
		size := int64(len(raw))
		prefix := fmt.Sprintf("data=%s/rows=%d", d.name, d.rows)
		b.Run(prefix+"/dest=buffer/impl=copy", func(b *testing.B) { benchCopy(b, raw) })
		for _, v := range []struct {
			name string
			opts []parquetconv.Option
		}{
			{"", nil},
			{"/index=none", []parquetconv.Option{parquetconv.WithoutPageIndex()}},
			{"/page=16KiB", []parquetconv.Option{parquetconv.WithPageBytes(16 << 10)}},
		} {
			b.Run(prefix+"/dest=buffer"+v.name+"/impl=parquetconv", func(b *testing.B) {
				var buf bytes.Buffer
				writeTo(b, &buf, rec, v.opts...) // grow the reused buffer
				b.SetBytes(size)
				b.ReportAllocs()
				for b.Loop() {
					buf.Reset()
					writeTo(b, &buf, rec, v.opts...)
				}
				b.ReportMetric(float64(size)/float64(buf.Len()), "ratio")
			})
		}
		if d.elem.ID() == arrow.UINT8 {
			b.Run(prefix+"/dest=buffer/enc=plain/impl=parquetconv", func(b *testing.B) {
				var buf bytes.Buffer
				writeTo(b, &buf, rec, parquetconv.WithoutIdentityDictionary())
				b.SetBytes(size)
				b.ReportAllocs()
				for b.Loop() {
					buf.Reset()
					writeTo(b, &buf, rec, parquetconv.WithoutIdentityDictionary())
				}
				b.ReportMetric(float64(size)/float64(buf.Len()), "ratio")
			})
			b.Run(prefix+"/dest=file/enc=plain/impl=parquetconv", func(b *testing.B) {
				path := filepath.Join(b.TempDir(), "bench.parquet")
				b.SetBytes(size)
				b.ReportAllocs()
				for b.Loop() {
					f, err := os.Create(path)
					if err != nil {
						b.Fatal(err)
					}
					writeTo(b, f, rec, parquetconv.WithoutIdentityDictionary())
					if err := f.Close(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		b.Run(prefix+"/dest=file/impl=copy", func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "bench.raw")
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				if err := os.WriteFile(path, raw, 0o644); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(prefix+"/dest=file/impl=parquetconv", func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "bench.parquet")
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				f, err := os.Create(path)
				if err != nil {
					b.Fatal(err)
				}
				writeTo(b, f, rec)
				if err := f.Close(); err != nil {
					b.Fatal(err)
				}
			}
		})
		rec.Release()
	}
}

// BenchmarkWriteCompressed writes unit-norm Gaussian float32 embeddings
// with ZSTD, PLAIN and BYTE_STREAM_SPLIT, reporting the throughput of
// tensor bytes and the compression ratio (tensor bytes / file bytes).
func BenchmarkWriteCompressed(b *testing.B) {
	rows := 5_000
	if *benchFull {
		rows = 50_000
	}
	rec := benchRecord(rows, arrow.PrimitiveTypes.Float32, []int{768}, true)
	defer rec.Release()
	raw := rec.Column(0).(*fixedshape.Array).ValueBytes()
	size := int64(len(raw))
	prefix := fmt.Sprintf("data=embeddings_gaussian/rows=%d", rows)
	b.Run(prefix+"/impl=copy", func(b *testing.B) { benchCopy(b, raw) })
	for _, c := range []struct {
		name string
		opts []parquetconv.Option
	}{
		{"codec=zstd/enc=plain", []parquetconv.Option{parquetconv.WithCompression(parquetconv.ZSTD)}},
		{"codec=zstd/enc=bss", []parquetconv.Option{parquetconv.WithCompression(parquetconv.ZSTD), parquetconv.WithByteStreamSplit()}},
		{"codec=zstd/level=1/enc=bss", []parquetconv.Option{parquetconv.WithCompression(parquetconv.ZSTD), parquetconv.WithCompressionLevel(1), parquetconv.WithByteStreamSplit()}},
		{"codec=snappy/enc=bss", []parquetconv.Option{parquetconv.WithCompression(parquetconv.Snappy), parquetconv.WithByteStreamSplit()}},
	} {
		b.Run(prefix+"/"+c.name+"/impl=parquetconv", func(b *testing.B) {
			var buf bytes.Buffer
			writeTo(b, &buf, rec, c.opts...) // grow the reused buffer
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				buf.Reset()
				writeTo(b, &buf, rec, c.opts...)
			}
			b.ReportMetric(float64(size)/float64(buf.Len()), "ratio")
		})
	}
}
