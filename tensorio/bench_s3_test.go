package tensorio_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/fstensor/fstensor/internal/testsupport/s3server"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/objstore"
	"github.com/fstensor/fstensor/parquetconv"
	"github.com/fstensor/fstensor/tensorio"
)

// BenchmarkS3 reads objects of an S3 server (moto, on this machine) of
// 5,000 rows of two float32 tensor columns, "emb" (768 elements) and
// "img" (16x16x3), and an int64 column: 30 MiB, as Parquet (row groups
// of 500 rows) and as an IPC file (batches of 100 rows). It reads one
// column of the Parquet object, and takes 1,000 random rows of each,
// reporting the object's size (B-object) and the bytes read from the
// server (B-read/op) beside the time; the copy baselines copy the bytes
// returned once.
func BenchmarkS3(b *testing.B) {
	const rows, batchRows, take = 5000, 100, 1000
	emb, img := metadata.MustNew([]int{768}, nil, nil), metadata.MustNew([]int{16, 16, 3}, nil, nil)
	rowBytes := 4*(emb.Size()+img.Size()) + 8
	srv := s3server.Start(b)
	srv.Bucket(b, "bench")
	dir := b.TempDir()
	var recs []arrow.RecordBatch
	for k := range rows / batchRows {
		t := &testing.T{}
		e, i, id := tensors(t, emb, batchRows, float32(k), nil), tensors(t, img, batchRows, -float32(k), nil), ids(k*batchRows, batchRows)
		schema := arrow.NewSchema([]arrow.Field{
			{Name: "emb", Type: e.DataType(), Nullable: true},
			{Name: "img", Type: i.DataType(), Nullable: true},
			{Name: "id", Type: id.DataType(), Nullable: true},
		}, nil)
		recs = append(recs, array.NewRecordBatch(schema, []arrow.Array{e, i, id}, batchRows))
		e.Release()
		i.Release()
		id.Release()
	}
	defer release(recs)
	writeFile(&testing.T{}, filepath.Join(dir, "x.arrow"), recs)
	f, err := os.Create(filepath.Join(dir, "x.parquet"))
	if err != nil {
		b.Fatal(err)
	}
	w, err := parquetconv.NewWriter(f, recs[0].Schema(), parquetconv.WithRowGroupRows(500))
	if err != nil {
		b.Fatal(err)
	}
	testvec.WriteAll(b, w, recs...)
	f.Close()
	sizes := map[string]int64{}
	for _, name := range []string{"x.arrow", "x.parquet"} {
		srv.PutFile(b, "bench", name, filepath.Join(dir, name))
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			b.Fatal(err)
		}
		sizes[name] = fi.Size()
	}
	rng := rand.New(rand.NewPCG(1, 2))
	picked := make([]int64, take)
	for i := range picked {
		picked[i] = rng.Int64N(rows)
	}
	read := func(b *testing.B, name string, bytes int64, op func(store *objstore.Client) error) {
		store, err := objstore.NewClient(b.Context())
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(bytes)
		b.ReportAllocs()
		for b.Loop() {
			if err := op(store); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(store.Stats().BytesRead)/float64(b.N), "B-read/op")
		b.ReportMetric(float64(store.Stats().Requests)/float64(b.N), "requests/op")
		b.ReportMetric(float64(sizes[name]), "B-object")
	}
	b.Run("format=parquet/op=column/column=emb", func(b *testing.B) {
		read(b, "x.parquet", rows*int64(emb.Size())*4, func(store *objstore.Client) error {
			return testvec.Drain(tensorio.Open("s3://bench/x.parquet", tensorio.WithStore(store), tensorio.WithColumns("emb")))
		})
	})
	b.Run("format=parquet/op=read", func(b *testing.B) {
		read(b, "x.parquet", rows*int64(rowBytes), func(store *objstore.Client) error {
			return testvec.Drain(tensorio.Open("s3://bench/x.parquet", tensorio.WithStore(store)))
		})
	})
	for _, name := range []string{"x.arrow", "x.parquet"} {
		b.Run("format="+filepath.Ext(name)[1:]+"/op=take/rows=1000", func(b *testing.B) {
			read(b, name, take*int64(rowBytes), func(store *objstore.Client) error {
				return testvec.Releasing(tensorio.Take("s3://bench/"+name, picked, tensorio.WithStore(store)))
			})
		})
	}
	for _, n := range []int64{rows * int64(emb.Size()) * 4, take * int64(rowBytes)} {
		b.Run("impl=copy/bytes="+strconv.FormatInt(n, 10), func(b *testing.B) {
			src, dst := make([]byte, n), make([]byte, n)
			b.SetBytes(n)
			b.ReportAllocs()
			for b.Loop() {
				copy(dst, src)
			}
		})
	}
}
