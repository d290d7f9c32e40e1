package tensorio_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/fstensor/fstensor/internal/testsupport/s3server"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/objstore"
	"github.com/fstensor/fstensor/parquetconv"
	"github.com/fstensor/fstensor/tensorio"
)

// objectBatches returns 8 batches of 50 rows: a float32 (16,16) tensor
// column "a" with null tensors, an int64 column "b" and a float32 (16)
// tensor column "c".
func objectBatches(t *testing.T) []arrow.RecordBatch {
	t.Helper()
	var recs []arrow.RecordBatch
	for k := range 8 {
		valid := make([]bool, 50)
		for i := range valid {
			valid[i] = (k*50+i)%7 != 3
		}
		a := tensors(t, metadata.MustNew([]int{16, 16}, nil, nil), 50, float32(k*50*256), valid)
		b := ids(k*50, 50)
		c := tensors(t, metadata.MustNew([]int{16}, nil, nil), 50, -float32(k*50*16), nil)
		recs = append(recs, batch(a, b, c))
		a.Release()
		b.Release()
		c.Release()
	}
	return recs
}

// TestS3 reads files from an S3 server (moto) and compares them with the
// same files read from disk.
func TestS3(t *testing.T) {
	srv := s3server.Start(t)
	srv.Bucket(t, "data")
	recs := objectBatches(t)
	defer release(recs)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "t.arrow"), recs)
	writeFile(t, filepath.Join(dir, "t.arrows"), recs)
	writeParquet(t, filepath.Join(dir, "t.parquet"), recs, parquetconv.WithRowGroupRows(100))
	writeParquet(t, filepath.Join(dir, "z.parquet"), recs, parquetconv.WithRowGroupRows(100), parquetconv.WithCompression(parquetconv.ZSTD))
	for _, name := range []string{"t.arrow", "t.arrows", "t.parquet", "z.parquet"} {
		srv.PutFile(t, "data", "dir/"+name, filepath.Join(dir, name))
	}
	one := []arrow.Array{recs[0].Column(2)}
	writeFile(t, filepath.Join(dir, "c.npy"), []arrow.RecordBatch{batch(one...)})
	srv.PutFile(t, "data", "dir/c.npy", filepath.Join(dir, "c.npy"))
	srv.PutFile(t, "data", "dir/wrong.arrow", filepath.Join(dir, "t.parquet"))
	t.Run("Open", func(t *testing.T) { testS3Open(t, dir) })
	t.Run("Columns", func(t *testing.T) { testS3Columns(t, dir) })
	t.Run("Take", func(t *testing.T) { testS3Take(t, dir) })
	t.Run("Errors", testS3Errors)
	t.Run("Dataset", func(t *testing.T) { testS3Dataset(t, srv, dir) })
	t.Run("Create", func(t *testing.T) { testS3Create(t, srv, recs) })
	t.Run("CreateDataset", func(t *testing.T) { testS3CreateDataset(t, srv) })
}

// writeParquet writes recs to a Parquet file at path with opts.
func writeParquet(t *testing.T, path string, recs []arrow.RecordBatch, opts ...parquetconv.Option) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := parquetconv.NewWriter(f, recs[0].Schema(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	testvec.WriteAll(t, w, recs...)
}

func newStore(t *testing.T) *objstore.Client {
	t.Helper()
	c, err := objstore.NewClient(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func testS3Open(t *testing.T, dir string) {
	tests := []struct {
		name string
		opts []tensorio.Option
	}{
		{name: "t.arrow"},
		{name: "t.arrows"},
		{name: "t.parquet"},
		{name: "z.parquet", opts: []tensorio.Option{tensorio.WithWorkers(3)}},
		{name: "c.npy"},
		{name: "t.parquet", opts: []tensorio.Option{tensorio.WithColumns("c", "a"), tensorio.WithOffset(120), tensorio.WithLimit(150)}},
		{name: "t.arrow", opts: []tensorio.Option{tensorio.WithColumns("b"), tensorio.WithOffset(399)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := checked(t)
			opts := append([]tensorio.Option{tensorio.WithAllocator(mem)}, tt.opts...)
			want, wantBatches := readAll(t, filepath.Join(dir, tt.name), opts...)
			defer release(want)
			got, gotBatches := readAll(t, "s3://data/dir/"+tt.name, opts...)
			defer release(got)
			if gotBatches != wantBatches || len(got) != len(want) {
				t.Fatalf("%d batches of %d columns, want %d of %d", gotBatches, len(got), wantBatches, len(want))
			}
			for i := range want {
				if !array.Equal(want[i], got[i]) || !arrow.TypeEqual(want[i].DataType(), got[i].DataType()) {
					t.Errorf("column %d differs from the local file's:\n got %v\nwant %v", i, got[i], want[i])
				}
			}
		})
	}
}

// testS3Columns reads one column of a Parquet object: the bytes read
// are those of its footer and column chunks, far below the object's.
func testS3Columns(t *testing.T, dir string) {
	for _, name := range []string{"t.parquet", "z.parquet"} {
		t.Run(name, func(t *testing.T) {
			store := newStore(t)
			mem := checked(t)
			got, _ := readAll(t, "s3://data/dir/"+name, tensorio.WithStore(store), tensorio.WithColumns("c"), tensorio.WithAllocator(mem))
			release(got)
			data, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			n, chunks := columnBytes(t, data, "c")
			bound := tensorio.SniffLen + n
			if read := store.Stats().BytesRead; read > bound || read > int64(len(data))/4 {
				t.Errorf("read %d bytes of a %d-byte object; the footer and the chunks of column c are %d", read, len(data), bound)
			}
			// HEAD, the first bytes, the object's last 8 KiB (the footer,
			// its length and magic), then one GET a chunk (Prefetch).
			if reqs := store.Stats().Requests; reqs > 3+chunks {
				t.Errorf("%d requests for %d column chunks", reqs, chunks)
			}
		})
	}
}

// columnBytes returns the bytes of the footer of the Parquet file data
// (with its length and magic, read once with the file's last 8 KiB) and
// of the column chunks of column name, and the number of these chunks.
func columnBytes(t *testing.T, data []byte, name string) (n, chunks int64) {
	t.Helper()
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	md := pf.MetaData()
	n = max(int64(binary.LittleEndian.Uint32(data[len(data)-8:]))+8, min(int64(len(data)), 8<<10))
	for g := range md.NumRowGroups() {
		for j := range md.Schema.NumColumns() {
			if top, _, _ := strings.Cut(md.Schema.Column(j).Path(), "."); top == name {
				cc, err := md.RowGroup(g).ColumnChunk(j)
				if err != nil {
					t.Fatal(err)
				}
				n += cc.TotalCompressedSize()
				chunks++
			}
		}
	}
	return n, chunks
}

// testS3Take takes 10 rows of an IPC object: the same batch as from the
// local file, reading the metadata of its batches and the bodies of
// those that hold the rows only.
func testS3Take(t *testing.T, dir string) {
	rng := rand.New(rand.NewPCG(3, 4))
	rows := make([]int64, 10)
	for i := range rows {
		rows[i] = rng.Int64N(400)
	}
	rows[9] = 399 // the last batch too
	for _, name := range []string{"t.arrow", "t.parquet"} {
		t.Run(name, func(t *testing.T) {
			mem := checked(t)
			store := newStore(t)
			want, err := tensorio.Take(filepath.Join(dir, name), rows, tensorio.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			defer want.Release()
			got, err := tensorio.Take("s3://data/dir/"+name, rows, tensorio.WithAllocator(mem), tensorio.WithStore(store))
			if err != nil {
				t.Fatal(err)
			}
			defer got.Release()
			testvec.CheckRecordsEqual(t, want, got)
			if name != "t.arrow" {
				return
			}
			fi, err := os.Stat(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			batches := map[int64]bool{}
			for _, r := range rows {
				batches[r/50] = true
			}
			// The batches asked, of about size/8 bytes each, with the
			// 4 KiB of the body checked ahead of them and their metadata
			// read thrice, the metadata of the others, the footer.
			bound := int64(len(batches)) * (fi.Size()/8 + 6<<10)
			bound += int64(8-len(batches))*1<<10 + 4<<10
			if read := store.Stats().BytesRead; read > bound {
				t.Errorf("take of %d rows in %d batches read %d bytes of a %d-byte object, more than %d", len(rows), len(batches), read, fi.Size(), bound)
			}
		})
	}
}

func testS3Errors(t *testing.T) {
	tests := []struct {
		name string
		url  string
		want error
	}{
		{name: "no bucket", url: "s3:///dir/t.arrow", want: objstore.ErrURL},
		{name: "no key", url: "s3://data/", want: tensorio.ErrFormat},
		{name: "http", url: "http://data/dir/t.arrow", want: objstore.ErrURL},
		{name: "missing key", url: "s3://data/dir/none.arrow", want: fs.ErrNotExist},
		{name: "missing bucket", url: "s3://nobucket/t.parquet", want: fs.ErrNotExist},
		{name: "bytes of another format", url: "s3://data/dir/wrong.arrow", want: tensorio.ErrFormat},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for op, call := range map[string]func() error{
				"Open": func() error { return testvec.Releasing(tensorio.Open(tt.url)) },
				"Take": func() error { return testvec.Releasing(tensorio.Take(tt.url, []int64{0})) },
			} {
				err := call()
				if !errors.Is(err, tt.want) {
					t.Fatalf("%s(%q) = %v, want an error wrapping %v", op, tt.url, err, tt.want)
				}
				if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, arrow.ErrInvalid) {
					t.Errorf("%s(%q) = %v, not wrapping arrow.ErrInvalid", op, tt.url, err)
				}
				if !strings.Contains(err.Error(), tt.url) {
					t.Errorf("%s(%q) = %v, not naming the URL", op, tt.url, err)
				}
			}
		})
	}
}

// testS3Create writes objects with Create: each holds the bytes Create
// writes to a local file, and one aborted, or failing, leaves the key as
// it was.
func testS3Create(t *testing.T, srv *s3server.Server, recs []arrow.RecordBatch) {
	dir := t.TempDir()
	for _, name := range []string{"o.arrow", "o.arrows", "o.parquet"} {
		t.Run(name, func(t *testing.T) {
			mem := checked(t)
			local := filepath.Join(dir, name)
			writeFile(t, local, recs)
			w, err := tensorio.Create("s3://data/out/"+name, recs[0].Schema(), tensorio.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			testvec.WriteAll(t, w, recs...)
			want, err := os.ReadFile(local)
			if err != nil {
				t.Fatal(err)
			}
			if got := srv.Get(t, "data", "out/"+name); !bytes.Equal(got, want) {
				t.Errorf("the object holds %d bytes, not the %d of the local file", len(got), len(want))
			}
		})
	}
	t.Run("Abort", func(t *testing.T) {
		srv.Put(t, "data", "out/kept.arrow", []byte("old"))
		w, err := tensorio.Create("s3://data/out/kept.arrow", recs[0].Schema())
		if err != nil {
			t.Fatal(err)
		}
		for _, rec := range recs {
			if err := w.Write(rec); err != nil {
				t.Fatal(err)
			}
		}
		w.Abort()
		if got := srv.Get(t, "data", "out/kept.arrow"); string(got) != "old" {
			t.Errorf("Abort replaced the object: %d bytes", len(got))
		}
		if n := srv.Uploads(t, "data"); n != 0 {
			t.Errorf("%d multipart uploads left", n)
		}
	})
	t.Run("Errors", func(t *testing.T) {
		if _, err := tensorio.Create("s3://data/out/", recs[0].Schema(), tensorio.WithFormat(tensorio.IPCFile)); !errors.Is(err, objstore.ErrURL) {
			t.Errorf("Create of a prefix = %v, want an error wrapping objstore.ErrURL", err)
		}
		w, err := tensorio.Create("s3://nobucket/x.arrow", recs[0].Schema())
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(recs[0]); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "s3://nobucket/x.arrow") {
			t.Errorf("Close into a missing bucket = %v, want an error wrapping fs.ErrNotExist naming the URL", err)
		}
	})
}
