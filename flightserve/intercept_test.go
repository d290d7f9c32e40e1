package flightserve_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/fstensor/fstensor/flightserve"
)

// panicAllocator panics in its next Allocate once armed, as a bug deep in
// a handler would.
type panicAllocator struct {
	*memory.CheckedAllocator
	armed atomic.Bool
}

func (a *panicAllocator) Allocate(n int) []byte {
	if a.armed.CompareAndSwap(true, false) {
		panic("planted panic")
	}
	return a.CheckedAllocator.Allocate(n)
}

// syncBuffer is a bytes.Buffer safe for concurrent use.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestPanicRecovered(t *testing.T) {
	dir := testDir(t)
	mem := &panicAllocator{CheckedAllocator: memory.NewCheckedAllocator(memory.NewGoAllocator())}
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	var logs syncBuffer
	_, addr := startServer(t, flightserve.Config{Dir: dir, Allocator: mem, Logger: newJSONLogger(&logs, 0)})
	c := dial(t, addr)
	ctx := testCtx(t)
	for _, tc := range []struct {
		name string
		call func() error
	}{
		{"GetFlightInfo", func() error {
			_, err := c.Info(ctx, flightserve.Ticket{Path: "data.arrow"})
			return err
		}},
		{"DoGet", func() error {
			return rawGet(ctx, rawClient(t, addr), flightserve.Ticket{Path: "data.arrow", Expr: "x.T"}.Marshal())
		}},
		{"DoPut", func() error {
			r := readerOf(t, filepath.Join(dir, "data.arrow"))
			defer r.Release()
			_, err := c.Put(ctx, "up.parquet", r)
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mem.armed.Store(true)
			err := tc.call()
			if mem.armed.Load() {
				mem.armed.Store(false)
				t.Fatalf("the call allocated nothing: %v", err)
			}
			if got := status.Code(err); got != codes.Internal {
				t.Fatalf("code %v (%v), want Internal", got, err)
			}
			if diff := cmp.Diff("flightserve: internal error", status.Convert(err).Message()); diff != "" {
				t.Errorf("message (-want +got):\n%s", diff)
			}
			stillServes(t, c)
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "up.parquet")); !os.IsNotExist(err) {
		t.Errorf("up.parquet: %v", err)
	}
	var panics int
	for _, r := range records(t, logs.String()) {
		if r["msg"] == "panic" {
			panics++
			if !strings.Contains(fmt.Sprint(r["stack"]), "panicAllocator") {
				t.Errorf("no stack in %v", r)
			}
		}
	}
	if panics != 3 {
		t.Errorf("%d panics logged, want 3:\n%s", panics, logs.String())
	}
}

func TestAuthorizationHeaders(t *testing.T) {
	dir := testDir(t)
	_, addr := startServer(t, flightserve.Config{Dir: dir, Token: "s3cret"})
	fc := rawClient(t, addr)
	many := make([]string, 0, 5001)
	for i := range 5000 {
		many = append(many, fmt.Sprintf("Bearer w%d", i))
	}
	many = append(many, "Bearer s3cret")
	for _, tc := range []struct {
		name string
		auth []string
		code codes.Code
	}{
		{"right", []string{"Bearer s3cret"}, codes.OK},
		{"none", nil, codes.Unauthenticated},
		{"wrong", []string{"Bearer s3cre"}, codes.Unauthenticated},
		{"no scheme", []string{"s3cret"}, codes.Unauthenticated},
		{"right twice", []string{"Bearer s3cret", "Bearer s3cret"}, codes.Unauthenticated},
		{"wrong then right", []string{"Bearer x", "Bearer s3cret"}, codes.Unauthenticated},
		{"5000 wrong then right", many, codes.Unauthenticated},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := metadata.NewOutgoingContext(testCtx(t), metadata.MD{"authorization": tc.auth})
			_, err := fc.GetFlightInfo(ctx, &flight.FlightDescriptor{Type: flight.DescriptorPATH, Path: []string{"data.arrow"}})
			if got := status.Code(err); got != tc.code {
				t.Errorf("GetFlightInfo: code %v (%v), want %v", got, err, tc.code)
			}
			err = rawGet(ctx, fc, flightserve.Ticket{Path: "data.arrow"}.Marshal())
			if errors.Is(err, io.EOF) {
				err = nil
			}
			if got := status.Code(err); got != tc.code {
				t.Errorf("DoGet: code %v (%v), want %v", got, err, tc.code)
			}
		})
	}
}
