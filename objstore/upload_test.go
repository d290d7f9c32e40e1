package objstore_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"testing"

	"github.com/fstensor/fstensor/internal/testsupport/s3server"
	"github.com/fstensor/fstensor/objstore"
)

// testUpload writes objects through Upload: small ones in one PutObject,
// larger ones in parts of S3's smallest size (5 MiB), and checks what
// the bucket holds before Commit, after it and after Abort.
func testUpload(t *testing.T, srv *s3server.Server) {
	defer objstore.SetPartBase(5 << 20)()
	rng := rand.New(rand.NewPCG(3, 4))
	old := []byte("the old object")
	for _, tt := range []struct {
		name     string
		size     int
		abort    bool
		requests int64 // of the upload, counted by Stats
	}{
		{name: "empty", size: 0, requests: 1},
		{name: "small", size: 1000, requests: 1},
		{name: "one part exactly", size: 5 << 20, requests: 3},
		{name: "three parts", size: 12<<20 + 7, requests: 5},
		{name: "aborted", size: 7 << 20, abort: true, requests: 3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			url := "s3://bkt/up/" + tt.name
			srv.Put(t, "bkt", "up/"+tt.name, old)
			data := make([]byte, tt.size)
			for i := range data {
				data[i] = byte(rng.Uint32())
			}
			c := newClient(t)
			w, err := c.Create(context.Background(), url)
			if err != nil {
				t.Fatal(err)
			}
			for p := data; len(p) > 0; {
				k := min(len(p), 1+rng.IntN(3<<20))
				if n, err := w.Write(p[:k]); n != k || err != nil {
					t.Fatalf("Write = %d, %v; want %d, nil", n, err, k)
				}
				p = p[k:]
			}
			rc := newClient(t) // reads, not counted in c's Stats
			if got := read(t, rc, url); !bytes.Equal(got, old) {
				t.Fatal("the object changed before Commit")
			}
			want := data
			if tt.abort {
				err, want = w.Abort(), old
			} else {
				err = w.Commit()
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := read(t, rc, url); !bytes.Equal(got, want) {
				t.Errorf("read back %d bytes, want %d (equal: %v)", len(got), len(want), bytes.Equal(got, want))
			}
			if n := srv.Uploads(t, "bkt"); n != 0 {
				t.Errorf("%d multipart uploads left", n)
			}
			if _, err := w.Write([]byte("x")); !errors.Is(err, objstore.ErrUploadClosed) {
				t.Errorf("Write after the end = %v, want ErrUploadClosed", err)
			}
			if got := c.Stats().Requests; got != tt.requests {
				t.Errorf("%d requests, want %d", got, tt.requests)
			}
		})
	}
}

// testUploadEnds cancels uploads, deletes objects and checks the errors
// of Upload, Delete and Create.
func testUploadEnds(t *testing.T, srv *s3server.Server) {
	defer objstore.SetPartBase(5 << 20)()
	t.Run("cancel", func(t *testing.T) {
		c := newClient(t)
		w, err := c.Create(context.Background(), "s3://bkt/up/cancelled")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(make([]byte, 6<<20)); err != nil {
			t.Fatal(err)
		}
		if n := srv.Uploads(t, "bkt"); n != 1 {
			t.Fatalf("%d multipart uploads under way, want 1", n)
		}
		if err := w.Cancel(); err != nil {
			t.Fatal(err)
		}
		if n := srv.Uploads(t, "bkt"); n != 0 {
			t.Errorf("%d multipart uploads left after Cancel", n)
		}
		if _, err := w.Write(make([]byte, 5<<20)); !errors.Is(err, objstore.ErrUploadClosed) {
			t.Errorf("Write of a part after Cancel = %v, want ErrUploadClosed", err)
		}
		if err := w.Commit(); err == nil {
			t.Error("Commit after Cancel succeeded")
		}
		if _, err := c.Open(context.Background(), "s3://bkt/up/cancelled"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Open of a cancelled upload's key = %v, want fs.ErrNotExist", err)
		}
	})
	t.Run("IfAbsent", func(t *testing.T) {
		c := newClient(t)
		for _, size := range []int{10, 6 << 20} { // PutObject, multipart
			srv.Put(t, "bkt", "up/taken", []byte("old"))
			w, err := c.Create(context.Background(), "s3://bkt/up/taken", objstore.IfAbsent())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := w.Write(make([]byte, size)); err != nil {
				t.Fatal(err)
			}
			if err := w.Commit(); !errors.Is(err, fs.ErrExist) {
				t.Errorf("%d bytes: Commit over an object = %v, want an error wrapping fs.ErrExist", size, err)
			}
			if got := srv.Get(t, "bkt", "up/taken"); string(got) != "old" {
				t.Errorf("%d bytes: the object became %d bytes", size, len(got))
			}
			w, err = c.Create(context.Background(), "s3://bkt/up/free", objstore.IfAbsent())
			if err != nil {
				t.Fatal(err)
			}
			w.Write(make([]byte, size))
			if err := w.Commit(); err != nil {
				t.Errorf("%d bytes: Commit of a new key: %v", size, err)
			}
			if err := c.Delete(context.Background(), "s3://bkt/up/free"); err != nil {
				t.Fatal(err)
			}
		}
		if n := srv.Uploads(t, "bkt"); n != 0 {
			t.Errorf("%d multipart uploads left", n)
		}
	})
	t.Run("delete", func(t *testing.T) {
		c := newClient(t)
		srv.Put(t, "bkt", "up/gone", []byte("x"))
		for range 2 { // the second time, the key holds nothing
			if err := c.Delete(context.Background(), "s3://bkt/up/gone"); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := c.Open(context.Background(), "s3://bkt/up/gone"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Open of a deleted key = %v, want fs.ErrNotExist", err)
		}
		if err := c.Delete(context.Background(), "s3://bkt"); !errors.Is(err, objstore.ErrURL) {
			t.Errorf("Delete of a bucket = %v, want ErrURL", err)
		}
	})
	t.Run("errors", func(t *testing.T) {
		c := newClient(t)
		w, err := c.Create(context.Background(), "s3://nobucket/x")
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Commit(); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Commit to a missing bucket = %v, want an error wrapping fs.ErrNotExist", err)
		}
		w, err = c.Create(context.Background(), "s3://nobucket/y")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(make([]byte, 6<<20)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Write of a part to a missing bucket = %v, want an error wrapping fs.ErrNotExist", err)
		}
		for _, url := range []string{"s3://bkt", "s3://bkt/dir/", "gs://bkt/x"} {
			if _, err := c.Create(context.Background(), url); !errors.Is(err, objstore.ErrURL) {
				t.Errorf("Create(%q) = %v, want an error wrapping ErrURL", url, err)
			}
		}
	})
}

// read returns the whole object at url.
func read(t *testing.T, c *objstore.Client, url string) []byte {
	t.Helper()
	obj, err := c.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(io.NewSectionReader(obj, 0, obj.Size()))
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestPartSizes: parts start at PartSize, double every 1,000 parts, and
// S3's 10,000 parts reach past its 5 TB object limit.
func TestPartSizes(t *testing.T) {
	if got := objstore.PartSizeAfter(0); got != objstore.PartSize {
		t.Errorf("first part %d bytes, want %d", got, objstore.PartSize)
	}
	if got := objstore.PartSizeAfter(1000); got != 2*objstore.PartSize {
		t.Errorf("part 1,001 is %d bytes, want %d", got, 2*objstore.PartSize)
	}
	var total int64
	for n := 0; n < 10_000; n += 1000 { // a size holds for 1,000 parts
		size := objstore.PartSizeAfter(n)
		if size < objstore.PartSize || size > 1<<31-1 || objstore.PartSizeAfter(n+999) != size {
			t.Fatalf("parts %d-%d are %d bytes", n+1, n+1000, size)
		}
		total += 1000 * int64(size)
	}
	if total < 5e12 {
		t.Errorf("10,000 parts hold %d bytes, under S3's 5 TB", total)
	}
}
