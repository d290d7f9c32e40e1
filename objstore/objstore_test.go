package objstore_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor"
	"github.com/fstensor/fstensor/internal/testsupport/s3server"
	"github.com/fstensor/fstensor/objstore"
)

// TestS3 runs the tests that need a server against one moto server.
func TestS3(t *testing.T) {
	srv := s3server.Start(t)
	srv.Bucket(t, "bkt")
	data := make([]byte, 1<<20+3)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	srv.Put(t, "bkt", "dir/data.bin", data)
	t.Run("ReadAt", func(t *testing.T) { testReadAt(t, data) })
	t.Run("List", func(t *testing.T) { testList(t, srv) })
	t.Run("Errors", func(t *testing.T) { testErrors(t) })
	t.Run("Put", func(t *testing.T) { testPut(t) })
	t.Run("Retries", func(t *testing.T) { testRetries(t, srv, data) })
	t.Run("Prefetch", func(t *testing.T) { testPrefetch(t, data) })
	t.Run("PrefetchRanges", func(t *testing.T) { testPrefetchRanges(t, data) })
	t.Run("Replaced", func(t *testing.T) { testReplaced(t, srv) })
	t.Run("Upload", func(t *testing.T) { testUpload(t, srv) })
	t.Run("UploadEnds", func(t *testing.T) { testUploadEnds(t, srv) })
	t.Run("UploadParallel", func(t *testing.T) { testUploadParallel(t, srv) })
}

func newClient(t *testing.T, opts ...objstore.Option) *objstore.Client {
	t.Helper()
	c, err := objstore.NewClient(context.Background(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func testReadAt(t *testing.T, data []byte) {
	c := newClient(t)
	obj, err := c.Open(context.Background(), "s3://bkt/dir/data.bin")
	if err != nil {
		t.Fatal(err)
	}
	if obj.Size() != int64(len(data)) {
		t.Fatalf("Size() = %d, want %d", obj.Size(), len(data))
	}
	size := int64(len(data))
	tests := []struct {
		name    string
		off     int64
		n       int
		want    int // bytes read
		eof     bool
		request bool // whether a GET is made
	}{
		{name: "head", off: 0, n: 100, want: 100, request: true},
		{name: "middle", off: 4093, n: 70000, want: 70000, request: true},
		{name: "to the end", off: size - 10, n: 10, want: 10, request: true},
		{name: "past the end", off: size - 10, n: 25, want: 10, eof: true, request: true},
		{name: "at the end", off: size, n: 5, want: 0, eof: true},
		{name: "beyond the end", off: size + 7, n: 5, want: 0, eof: true},
		{name: "whole", off: 0, n: len(data), want: len(data), request: true},
		{name: "empty", off: 3, n: 0, want: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := obj.Stats()
			p := make([]byte, tt.n)
			n, err := obj.ReadAt(p, tt.off)
			if n != tt.want || (err == io.EOF) != tt.eof || (err != nil && err != io.EOF) {
				t.Fatalf("ReadAt(%d bytes, %d) = %d, %v; want %d, eof %v", tt.n, tt.off, n, err, tt.want, tt.eof)
			}
			if tt.want > 0 {
				if diff := cmp.Diff(data[tt.off:tt.off+int64(tt.want)], p[:n]); diff != "" {
					t.Errorf("bytes differ (-want +got):\n%.400s", diff)
				}
			}
			var reqs int64
			if tt.request {
				reqs = 1
			}
			after := obj.Stats()
			got := objstore.Stats{Requests: after.Requests - before.Requests, BytesRead: after.BytesRead - before.BytesRead}
			if diff := cmp.Diff(objstore.Stats{Requests: reqs, BytesRead: int64(tt.want)}, got); diff != "" {
				t.Errorf("stats (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("negative offset", func(t *testing.T) {
		if _, err := obj.ReadAt(make([]byte, 1), -1); err == nil {
			t.Error("ReadAt at -1: no error")
		}
	})
	if got, want := c.Stats().BytesRead, obj.Stats().BytesRead; got != want {
		t.Errorf("client BytesRead %d, object's %d", got, want)
	}
}

func testList(t *testing.T, srv *s3server.Server) {
	srv.Bucket(t, "list")
	var all []objstore.Entry
	for i := range 7 {
		key := fmt.Sprintf("ds/part=%d/f.parquet", i)
		srv.Put(t, "list", key, make([]byte, i))
		all = append(all, objstore.Entry{Key: key, Size: int64(i)})
	}
	srv.Put(t, "list", "other/x", []byte("x"))
	restore := objstore.SetListPageSize(2) // 4 pages for ds/
	defer restore()
	c := newClient(t)
	tests := []struct {
		name  string
		url   string
		want  []objstore.Entry
		pages int64
	}{
		{name: "prefix", url: "s3://list/ds/", want: all, pages: 4},
		{name: "one partition", url: "s3://list/ds/part=3", want: all[3:4], pages: 1},
		{name: "bucket", url: "s3://list", want: append(all[:7:7], objstore.Entry{Key: "other/x", Size: 1}), pages: 4},
		{name: "nothing", url: "s3://list/none/", want: nil, pages: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := c.Stats().Requests
			got, err := c.List(context.Background(), tt.url)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("List(%s) (-want +got):\n%s", tt.url, diff)
			}
			if reqs := c.Stats().Requests - before; reqs != tt.pages {
				t.Errorf("List(%s) made %d requests, want %d pages", tt.url, reqs, tt.pages)
			}
		})
	}
}

func testErrors(t *testing.T) {
	c := newClient(t)
	tests := []struct {
		name string
		url  string
		want error
	}{
		{name: "no bucket", url: "s3:///key", want: objstore.ErrURL},
		{name: "no key", url: "s3://bkt/", want: objstore.ErrURL},
		{name: "http", url: "http://bkt/dir/data.bin", want: objstore.ErrURL},
		{name: "gs", url: "gs://bkt/dir/data.bin", want: objstore.ErrURL},
		{name: "a path", url: "bkt/dir/data.bin", want: objstore.ErrURL},
		{name: "bad bucket", url: "s3://Bkt_1/k", want: objstore.ErrURL},
		{name: "missing key", url: "s3://bkt/dir/nothing.bin", want: fs.ErrNotExist},
		{name: "missing bucket", url: "s3://nobucket/k", want: fs.ErrNotExist},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.Open(context.Background(), tt.url)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Open(%q) = %v, want an error wrapping %v", tt.url, err, tt.want)
			}
			if errors.Is(tt.want, objstore.ErrURL) && !errors.Is(err, arrow.ErrInvalid) {
				t.Errorf("Open(%q) = %v, not wrapping arrow.ErrInvalid", tt.url, err)
			}
			if pe := (*fs.PathError)(nil); errors.Is(tt.want, fs.ErrNotExist) && (!errors.As(err, &pe) || pe.Path != tt.url) {
				t.Errorf("Open(%q) = %v, want an *fs.PathError naming the URL", tt.url, err)
			}
		})
	}
	t.Run("list missing bucket", func(t *testing.T) {
		if _, err := c.List(context.Background(), "s3://nobucket/x/"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("List = %v, want an error wrapping fs.ErrNotExist", err)
		}
	})
}

func testPut(t *testing.T) {
	c := newClient(t)
	data := []byte("a small object")
	if err := c.Put(context.Background(), "s3://bkt/put/x", bytes.NewReader(data), int64(len(data))); err != nil {
		t.Fatal(err)
	}
	obj, err := c.Open(context.Background(), "s3://bkt/put/x")
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(io.NewSectionReader(obj, 0, obj.Size()))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(data, got); diff != "" {
		t.Errorf("read back (-want +got):\n%s", diff)
	}
	if err := c.Put(context.Background(), "s3://nobucket/x", bytes.NewReader(data), int64(len(data))); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Put to a missing bucket = %v, want an error wrapping fs.ErrNotExist", err)
	}
}

func TestWithRetriesInvalid(t *testing.T) {
	tests := []struct {
		name     string
		attempts int
		backoff  int64
	}{
		{name: "no attempt", attempts: 0, backoff: 1},
		{name: "no backoff", attempts: 2, backoff: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := objstore.NewClient(context.Background(), objstore.WithRetries(tt.attempts, time.Duration(tt.backoff)))
			if !errors.Is(err, fstensor.ErrOption) {
				t.Errorf("NewClient = %v, want an error wrapping fstensor.ErrOption", err)
			}
		})
	}
}

// testReplaced checks that an object replaced after Open fails the
// reads rather than mixing two versions.
func testReplaced(t *testing.T, srv *s3server.Server) {
	srv.Put(t, "bkt", "replaced", []byte("version one"))
	c := newClient(t)
	obj, err := c.Open(context.Background(), "s3://bkt/replaced")
	if err != nil {
		t.Fatal(err)
	}
	p := make([]byte, 7)
	if _, err := obj.ReadAt(p, 0); err != nil {
		t.Fatal(err)
	}
	srv.Put(t, "bkt", "replaced", []byte("version two"))
	if n, err := obj.ReadAt(p, 0); err == nil {
		t.Errorf("ReadAt after the object was replaced = %q, no error", p[:n])
	}
}
