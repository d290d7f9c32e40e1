package objstore_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"log"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/fstensor/fstensor"
	"github.com/fstensor/fstensor/internal/testsupport/s3server"
	"github.com/fstensor/fstensor/objstore"
)

// partGate is a reverse proxy in front of the S3 server that counts the
// part uploads (PUTs with a partNumber) running at once, holds each until
// wait of them have run at once (or 2 s pass), and refuses the part
// numbered deny (403, which is not retried).
type partGate struct {
	mu       sync.Mutex
	now, max int
	wait     int
	deny     string
	proxy    *httputil.ReverseProxy
}

func newPartGate(t *testing.T, target, deny string, wait int) (*partGate, string) {
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	g := &partGate{deny: deny, wait: wait, proxy: httputil.NewSingleHostReverseProxy(u)}
	g.proxy.ErrorLog = log.New(io.Discard, "", 0)
	srv := httptest.NewServer(g)
	t.Cleanup(srv.Close)
	return g, srv.URL
}

func (g *partGate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	part := r.URL.Query().Get("partNumber")
	if r.Method != http.MethodPut || part == "" {
		g.proxy.ServeHTTP(w, r)
		return
	}
	// The body read first, the server sees a client that hangs up.
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	g.mu.Lock()
	g.now++
	g.max = max(g.max, g.now)
	g.mu.Unlock()
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); {
		g.mu.Lock()
		reached := g.max >= g.wait
		g.mu.Unlock()
		if reached || r.Context().Err() != nil {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(20 * time.Millisecond) // a part that follows at once overlaps it
	g.mu.Lock()
	g.now--
	g.mu.Unlock()
	if part == g.deny {
		w.Header().Set("Content-Type", "application/xml")
		w.WriteHeader(http.StatusForbidden)
		io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>no</Message></Error>`)
		return
	}
	g.proxy.ServeHTTP(w, r)
}

// testUploadParallel: an upload sends up to the client's number of parts
// at once and the object is the bytes written, in order; a part refused
// fails the upload, which leaves no parts and the old object behind.
func testUploadParallel(t *testing.T, srv *s3server.Server) {
	defer objstore.SetPartBase(5 << 20)()
	data := make([]byte, 5*5<<20+123) // 6 parts
	for i := range data {
		data[i] = byte(i*7 + i>>13)
	}
	old := []byte("the old object")
	for _, tt := range []struct {
		name    string
		parts   int // WithUploadParts; 0 for the default
		deny    string
		wantMax int
	}{
		{name: "default", wantMax: objstore.DefaultUploadParts},
		{name: "one at a time", parts: 1, wantMax: 1},
		{name: "two", parts: 2, wantMax: 2},
		{name: "part 3 refused", deny: "3"},
		{name: "last part refused", deny: "6"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g, endpoint := newPartGate(t, srv.URL, tt.deny, tt.wantMax)
			opts := []objstore.Option{objstore.WithEndpoint(endpoint)}
			if tt.parts > 0 {
				opts = append(opts, objstore.WithUploadParts(tt.parts))
			}
			c := newClient(t, opts...)
			key := "up/parallel-" + tt.name
			srv.Put(t, "bkt", key, old)
			w, err := c.Create(context.Background(), "s3://bkt/"+key)
			if err != nil {
				t.Fatal(err)
			}
			_, err = w.Write(data)
			if err == nil {
				err = w.Commit()
			}
			want := data
			if tt.deny != "" {
				if !errors.Is(err, fs.ErrPermission) {
					t.Fatalf("an upload with part %s refused: %v, want an error wrapping fs.ErrPermission", tt.deny, err)
				}
				want = old
			} else if err != nil {
				t.Fatal(err)
			}
			if got := srv.Get(t, "bkt", key); !bytes.Equal(got, want) {
				t.Errorf("the object holds %d bytes, want %d (equal: %v)", len(got), len(want), bytes.Equal(got, want))
			}
			if n := srv.Uploads(t, "bkt"); n != 0 {
				t.Errorf("%d multipart uploads left", n)
			}
			if tt.wantMax > 0 && g.max != tt.wantMax {
				t.Errorf("%d parts sent at once at most, want %d", g.max, tt.wantMax)
			}
		})
	}
	t.Run("cancelled while sending", func(t *testing.T) {
		_, endpoint := newPartGate(t, srv.URL, "", 3)
		c := newClient(t, objstore.WithEndpoint(endpoint))
		srv.Put(t, "bkt", "up/cancelled-sending", old)
		w, err := c.Create(context.Background(), "s3://bkt/up/cancelled-sending")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(data[:3*5<<20]); err != nil { // three parts being sent
			t.Fatal(err)
		}
		if err := w.Cancel(); err != nil {
			t.Fatal(err)
		}
		if err := w.Commit(); !errors.Is(err, objstore.ErrUploadClosed) {
			t.Errorf("Commit after Cancel = %v, want ErrUploadClosed", err)
		}
		if got := srv.Get(t, "bkt", "up/cancelled-sending"); !bytes.Equal(got, old) {
			t.Errorf("the object became %d bytes", len(got))
		}
		if n := srv.Uploads(t, "bkt"); n != 0 {
			t.Errorf("%d multipart uploads left", n)
		}
	})
	if _, err := objstore.NewClient(context.Background(), objstore.WithUploadParts(0)); !errors.Is(err, fstensor.ErrOption) {
		t.Errorf("WithUploadParts(0): %v, want an error wrapping fstensor.ErrOption", err)
	}
}
