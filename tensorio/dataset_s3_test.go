package tensorio_test

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/internal/testsupport/s3server"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/tensorio"
)

// testS3Dataset reads a prefix of Hive directories as a dataset, beside
// the same files in a local directory: the same rows, partition columns
// and takes; names starting with "." or "_" and unknown extensions are
// skipped.
func testS3Dataset(t *testing.T, srv *s3server.Server, dir string) {
	local := t.TempDir()
	for _, f := range []struct{ key, src string }{
		{"k=1/a.arrow", "t.arrow"},
		{"k=2/b.parquet", "t.parquet"},
		{"k=2/c.parquet", "z.parquet"},
		{"_SUCCESS", "t.arrow"},
		{".hidden/d.arrow", "t.arrow"},
		{"k=3/_tmp.arrow", "t.arrow"},
		{"notes.txt", "c.npy"},
	} {
		srv.PutFile(t, "data", "ds/"+f.key, filepath.Join(dir, f.src))
		b, err := os.ReadFile(filepath.Join(dir, f.src))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(local, filepath.FromSlash(f.key))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if !tensorio.IsDatasetPath("s3://data/ds/") || tensorio.IsDatasetPath("s3://data/ds/k=1/a.arrow") {
		t.Error("IsDatasetPath: a prefix is a dataset, an object is not")
	}
	store := newStore(t)
	d, err := tensorio.NewDataset([]string{"s3://data/ds/"}, tensorio.WithStore(store))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"s3://data/ds/k=1/a.arrow", "s3://data/ds/k=2/b.parquet", "s3://data/ds/k=2/c.parquet"}
	if diff := cmp.Diff(want, d.Files()); diff != "" {
		t.Fatalf("files (-want +got):\n%s", diff)
	}
	for _, opts := range [][]tensorio.Option{
		nil,
		{tensorio.WithColumns("k", "b"), tensorio.WithOffset(390), tensorio.WithLimit(420)},
		{tensorio.WithWorkers(3)},
	} {
		mem := checked(t)
		opts = append(opts, tensorio.WithAllocator(mem))
		w := readColumns(t, local, opts...)
		g := readColumns(t, "s3://data/ds/", append(opts, tensorio.WithStore(store))...)
		if len(w) != len(g) {
			t.Fatalf("%d columns, want %d", len(g), len(w))
		}
		for i := range w {
			if !array.Equal(w[i], g[i]) {
				t.Errorf("column %d differs from the local dataset's:\n got %v\nwant %v", i, g[i], w[i])
			}
		}
		release(w)
		release(g)
	}
	globs := []struct {
		pattern string
		want    []string
		err     error
	}{
		{"ds/k=2/*.parquet", []string{"s3://data/ds/k=2/b.parquet", "s3://data/ds/k=2/c.parquet"}, nil},
		{"ds/*/[ab].*", []string{"s3://data/ds/k=1/a.arrow", "s3://data/ds/k=2/b.parquet"}, nil},
		{"ds/**/*.arrow", []string{"s3://data/ds/k=1/a.arrow"}, nil},
		{"ds/k=?/c.parquet", []string{"s3://data/ds/k=2/c.parquet"}, nil},
		{"*s/k=1/*", []string{"s3://data/ds/k=1/a.arrow"}, nil},
		{"ds/*.txt", nil, tensorio.ErrFormat},
		{"ds/k=9/*", nil, tensorio.ErrNoFiles},
	}
	for _, g := range globs {
		t.Run("glob "+g.pattern, func(t *testing.T) {
			url := "s3://data/" + g.pattern
			if !tensorio.IsDatasetPath(url) {
				t.Errorf("IsDatasetPath(%q) = false, want true", url)
			}
			d, err := tensorio.NewDataset([]string{url}, tensorio.WithStore(store))
			if g.err != nil {
				if !errors.Is(err, g.err) {
					t.Fatalf("NewDataset = %v, want an error wrapping %v", err, g.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(g.want, d.Files()); diff != "" {
				t.Errorf("files (-want +got):\n%s", diff)
			}
			l, err := tensorio.NewDataset([]string{filepath.Join(local, filepath.FromSlash(strings.TrimPrefix(g.pattern, "ds/")))})
			if strings.HasPrefix(g.pattern, "ds/") && err == nil && len(l.Files()) != len(d.Files()) {
				t.Errorf("the local glob matches %d files, the URL %d", len(l.Files()), len(d.Files()))
			}
		})
	}
	if _, err := tensorio.NewDataset([]string{"s3://data/ds/[a"}, tensorio.WithStore(store)); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("NewDataset of a malformed glob = %v, want an error wrapping arrow.ErrInvalid", err)
	}
	rows := []int64{1199, 0, 400, 399, 800, 5}
	mem := checked(t)
	ld, err := tensorio.NewDataset([]string{local})
	if err != nil {
		t.Fatal(err)
	}
	wt, err := ld.Take(rows, tensorio.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	defer wt.Release()
	gt, err := d.Take(rows, tensorio.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	defer gt.Release()
	if !array.RecordEqual(wt, gt) {
		t.Errorf("take differs from the local dataset's:\n got %v\nwant %v", gt, wt)
	}
}

// readColumns reads the dataset src whole, one array per column.
func readColumns(t *testing.T, src string, opts ...tensorio.Option) []arrow.Array {
	t.Helper()
	r, err := tensorio.OpenDataset([]string{src}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Release()
	var recs []arrow.RecordBatch
	for r.Next() {
		rec := r.RecordBatch()
		rec.Retain()
		recs = append(recs, rec)
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	defer release(recs)
	out := make([]arrow.Array, r.Schema().NumFields())
	for i := range out {
		var cols []arrow.Array
		for _, rec := range recs {
			cols = append(cols, rec.Column(i))
		}
		c, err := array.Concatenate(cols, memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = c
	}
	return out
}

// testS3CreateDataset writes datasets under a prefix beside the same
// datasets in a local directory: the same files, byte for byte; a prefix
// that holds objects is refused without WithAddFiles, and numbered after
// with it; Abort deletes what was written.
func testS3CreateDataset(t *testing.T, srv *s3server.Server) {
	mem := checked(t)
	a, b := labeled(t, mem, 0, 17), labeled(t, mem, 17, 13)
	defer a.Release()
	defer b.Release()
	store := newStore(t)
	local := filepath.Join(t.TempDir(), "out")
	opts := []tensorio.Option{tensorio.WithPartitionBy("label"), tensorio.WithTargetFileSize(160), tensorio.WithFormat(tensorio.IPCFile), tensorio.WithAllocator(mem)}
	for round, extra := range [][]tensorio.Option{nil, {tensorio.WithAddFiles()}} {
		var files [2][]string
		for i, root := range []string{local, "s3://data/dsw/"} {
			w, err := tensorio.CreateDataset(root, a.Schema(), append(append(opts, extra...), tensorio.WithStore(store))...)
			if err != nil {
				t.Fatalf("round %d, %s: %v", round, root, err)
			}
			testvec.WriteAll(t, w, a, b)
			files[i] = w.Files()
		}
		if diff := cmp.Diff(files[0], files[1]); diff != "" {
			t.Fatalf("round %d: files (-local +s3):\n%s", round, diff)
		}
		for _, f := range files[0] {
			want, err := os.ReadFile(filepath.Join(local, filepath.FromSlash(f)))
			if err != nil {
				t.Fatal(err)
			}
			if got := srv.Get(t, "data", "dsw/"+f); !bytes.Equal(got, want) {
				t.Errorf("round %d: %s holds %d bytes, the local file %d: they differ", round, f, len(got), len(want))
			}
		}
	}
	if _, err := tensorio.CreateDataset("s3://data/dsw", a.Schema(), tensorio.WithStore(store)); !errors.Is(err, fs.ErrExist) {
		t.Errorf("CreateDataset of a prefix holding objects = %v, want an error wrapping fs.ErrExist", err)
	}
	// Two writers adding files at once pick the same name: the second to
	// close fails, and the first's object stays.
	var ws [2]*tensorio.DatasetWriter
	for i, rec := range []arrow.RecordBatch{a, b} {
		w, err := tensorio.CreateDataset("s3://data/race/", a.Schema(), tensorio.WithAddFiles(), tensorio.WithFormat(tensorio.IPCFile), tensorio.WithStore(store), tensorio.WithAllocator(mem))
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
		ws[i] = w
	}
	if err := ws[0].Close(); err != nil {
		t.Fatal(err)
	}
	if err := ws[1].Close(); !errors.Is(err, fs.ErrExist) {
		t.Errorf("the second writer's Close = %v, want an error wrapping fs.ErrExist", err)
	}
	if ents, err := store.List(context.Background(), "s3://data/race/"); err != nil || len(ents) != 1 {
		t.Errorf("the prefix holds %v (%v), want the first writer's one file", ents, err)
	}
	w, err := tensorio.CreateDataset("s3://data/dsa/", a.Schema(), append(opts, tensorio.WithStore(store))...)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(a); err != nil {
		t.Fatal(err)
	}
	w.Abort()
	if ents, err := store.List(context.Background(), "s3://data/dsa/"); err != nil || len(ents) != 0 {
		t.Errorf("after Abort the prefix holds %v (%v)", ents, err)
	}
	if n := srv.Uploads(t, "data"); n != 0 {
		t.Errorf("%d multipart uploads left", n)
	}
}
