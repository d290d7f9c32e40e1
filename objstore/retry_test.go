package objstore_test

import (
	"context"
	"errors"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/internal/testsupport/s3server"
	"github.com/fstensor/fstensor/objstore"
)

// flaky is a reverse proxy in front of the S3 server that answers its
// first fail requests with 503 Service Unavailable and breaks off the
// body of its first cut GET answers after 1000 bytes.
type flaky struct {
	mu        sync.Mutex
	fail, cut int
	seen      []string // the requests, "METHOD status"
	proxy     *httputil.ReverseProxy
}

func newFlaky(t *testing.T, target string, fail, cut int) (*flaky, string) {
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	f := &flaky{fail: fail, cut: cut, proxy: httputil.NewSingleHostReverseProxy(u)}
	f.proxy.FlushInterval = -1 // the client gets the bytes before the cut
	f.proxy.ErrorLog = log.New(io.Discard, "", 0)
	f.proxy.ModifyResponse = func(resp *http.Response) error {
		f.mu.Lock()
		defer f.mu.Unlock()
		if resp.Request.Method == http.MethodGet && resp.StatusCode == http.StatusPartialContent && f.cut > 0 {
			f.cut--
			resp.Body = &cutBody{ReadCloser: resp.Body, left: 1000}
			f.seen[len(f.seen)-1] += " cut"
		}
		return nil
	}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, srv.URL
}

func (f *flaky) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	failing := len(f.seen) < f.fail
	if failing {
		f.seen = append(f.seen, r.Method+" 503")
	} else {
		f.seen = append(f.seen, r.Method+" ok")
	}
	f.mu.Unlock()
	if failing {
		w.Header().Set("Content-Type", "application/xml")
		w.WriteHeader(http.StatusServiceUnavailable)
		io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>ServiceUnavailable</Code><Message>try again</Message></Error>`)
		return
	}
	f.proxy.ServeHTTP(w, r)
}

// cutBody fails after left bytes, as a connection reset does.
type cutBody struct {
	io.ReadCloser
	left int
}

func (b *cutBody) Read(p []byte) (int, error) {
	if b.left == 0 {
		return 0, errors.New("connection reset")
	}
	p = p[:min(len(p), b.left)]
	n, err := b.ReadCloser.Read(p)
	b.left -= n
	return n, err
}

func testRetries(t *testing.T, srv *s3server.Server, data []byte) {
	const key = "s3://bkt/dir/data.bin"
	tests := []struct {
		name     string
		fail     int
		cut      int
		attempts int
		ok       bool
		want     []string
	}{
		{name: "503 then ok", fail: 3, attempts: 5, ok: true, want: []string{"HEAD 503", "HEAD 503", "HEAD 503", "HEAD ok", "GET ok"}},
		{name: "503 beyond the attempts", fail: 3, attempts: 3, want: []string{"HEAD 503", "HEAD 503", "HEAD 503"}},
		{name: "body cut", cut: 1, attempts: 3, ok: true, want: []string{"HEAD ok", "GET ok cut", "GET ok"}},
		{name: "body cut beyond the attempts", cut: 2, attempts: 2, want: []string{"HEAD ok", "GET ok cut", "GET ok cut"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, endpoint := newFlaky(t, srv.URL, tt.fail, tt.cut)
			c := newClient(t, objstore.WithEndpoint(endpoint), objstore.WithRetries(tt.attempts, 10*time.Millisecond))
			err := func() error {
				obj, err := c.Open(context.Background(), key)
				if err != nil {
					return err
				}
				p := make([]byte, 300000)
				n, err := obj.ReadAt(p, 5)
				if err == nil {
					if got := obj.Stats().BytesRead; got != int64(len(p)) {
						t.Errorf("BytesRead = %d, want %d: a broken GET is asked again for the missing bytes only", got, len(p))
					}
					if diff := cmp.Diff(data[5:5+n], p); diff != "" {
						t.Errorf("bytes differ (-want +got):\n%.300s", diff)
					}
				}
				return err
			}()
			if (err == nil) != tt.ok {
				t.Fatalf("Open and ReadAt: %v, want success %v (requests %q)", err, tt.ok, f.seen)
			}
			if diff := cmp.Diff(tt.want, f.seen); diff != "" {
				t.Errorf("requests (-want +got):\n%s", diff)
			}
		})
	}
}
