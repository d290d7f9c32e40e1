package parquetconv_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/parquetconv"
)

// BenchmarkRead reads uncompressed float32 embeddings and uint8 images
// from a file (in the page cache) written by NewWriter (images with the
// identity dictionary, the default, and PLAIN as INT32), with 1 and 2
// workers, beside a copy of the same tensor bytes; the throughput is of
// tensor bytes. mode=copy decodes into memory (WithoutZeroCopy);
// mode=view is the default, which hands out the chunks where they lie
// in the mapped file: it touches no value, so its figure is the cost of
// the footer, the levels' checks and the batches, not of moving bytes.
// -parquetconv.full selects the full sizes.
func BenchmarkRead(b *testing.B) {
	embRows, imgRows := 5_000, 100
	if *benchFull {
		embRows, imgRows = 50_000, 1_000
	}
	for _, d := range []struct {
		name  string
		rows  int
		elem  arrow.DataType
		shape []int
		opts  []parquetconv.Option
	}{
		{fmt.Sprintf("data=embeddings/shape=%dx768/dtype=float32/enc=plain", embRows), embRows, arrow.PrimitiveTypes.Float32, []int{768}, nil},
		{fmt.Sprintf("data=images/shape=%dx3x224x224/dtype=uint8/enc=plain", imgRows), imgRows, arrow.PrimitiveTypes.Uint8, []int{3, 224, 224},
			[]parquetconv.Option{parquetconv.WithoutIdentityDictionary()}},
		{fmt.Sprintf("data=images/shape=%dx3x224x224/dtype=uint8/enc=identity-dict", imgRows), imgRows, arrow.PrimitiveTypes.Uint8, []int{3, 224, 224}, nil},
	} {
		rec := benchRecord(d.rows, d.elem, d.shape, d.elem == arrow.PrimitiveTypes.Float32)
		src := rec.Column(0).(*fixedshape.Array).ValueBytes()
		var buf bytes.Buffer
		writeTo(b, &buf, rec, d.opts...)
		path := filepath.Join(b.TempDir(), "bench.parquet")
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			b.Fatal(err)
		}
		b.Run(d.name+"/impl=copy", func(b *testing.B) { benchCopy(b, src) })
		for _, m := range []struct {
			name string
			opts []parquetconv.Option
		}{{"copy", []parquetconv.Option{parquetconv.WithoutZeroCopy()}}, {"view", nil}} {
			for _, workers := range []int{1, 2} {
				b.Run(fmt.Sprintf("%s/impl=fstensor/mode=%s/workers=%d", d.name, m.name, workers), func(b *testing.B) {
					benchOpen(b, path, d.rows, int64(len(src)), append(m.opts, parquetconv.WithWorkers(workers))...)
				})
			}
		}
		rec.Release()
	}
}

// benchOpen times reads of the Parquet file at path, of rows rows and n
// tensor bytes, with opts.
func benchOpen(b *testing.B, path string, rows int, n int64, opts ...parquetconv.Option) {
	b.SetBytes(n)
	b.ReportAllocs()
	for b.Loop() {
		r, err := parquetconv.OpenFile(path, opts...)
		if err != nil {
			b.Fatal(err)
		}
		got := 0
		for r.Next() {
			got += int(r.RecordBatch().NumRows())
		}
		if err := r.Err(); err != nil {
			b.Fatal(err)
		}
		r.Release()
		if got != rows {
			b.Fatalf("read %d rows, want %d", got, rows)
		}
	}
}
