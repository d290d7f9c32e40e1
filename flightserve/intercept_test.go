package flightserve_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/memory"
	flatbuffers "github.com/google/flatbuffers/go"
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

// startServer starts a server of cfg on a loopback port and returns it
// with its address; the cleanup stops it.
func startServer(t *testing.T, cfg flightserve.Config) (*flightserve.Server, string) {
	t.Helper()
	s, err := flightserve.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- s.Serve(lis) }()
	t.Cleanup(func() {
		s.Stop()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return s, lis.Addr().String()
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

// TestUploadReproducer uploads a stream whose string column has offsets
// past its data (testdata/flight/panic_string_offsets.arrows, a bit
// flipped in a stream fstensor wrote), as its raw IPC messages: the
// writer behind DoPut panicked on it and the panic killed the server.
// The call now fails (Internal from the recovery, or InvalidArgument
// where the batch is validated first), nothing is written, and the
// server keeps serving. The allocator is not checked: arrow-go's IPC
// encoder panics on these offsets after allocating a buffer it frees in
// no deferred call (Go's collector takes it back).
func TestUploadReproducer(t *testing.T) {
	dir := testDir(t)
	_, addr := startServer(t, flightserve.Config{Dir: dir})
	b, err := os.ReadFile(filepath.Join("..", "testdata", "flight", "panic_string_offsets.arrows"))
	if err != nil {
		t.Fatal(err)
	}
	msgs := streamMessages(t, b)
	for _, name := range []string{"bad.arrow", "bad.parquet", "bad.arrows"} {
		t.Run(name, func(t *testing.T) {
			msgs[0].FlightDescriptor = &flight.FlightDescriptor{Type: flight.DescriptorPATH, Path: []string{name}}
			err := rawPut(testCtx(t), rawClient(t, addr), msgs...)
			if got := status.Code(err); got != codes.Internal && got != codes.InvalidArgument {
				t.Errorf("code %v (%v), want Internal or InvalidArgument", got, err)
			}
			if _, err := os.Stat(filepath.Join(dir, name)); !os.IsNotExist(err) {
				t.Errorf("%s: %v", name, err)
			}
			stillServes(t, dial(t, addr))
		})
	}
}

// streamMessages cuts an IPC stream into its messages: metadata
// (flatbuffer Message, bodyLength its fourth field) and body.
func streamMessages(t *testing.T, b []byte) []*flight.FlightData {
	t.Helper()
	var out []*flight.FlightData
	for len(b) >= 8 {
		n := int(binary.LittleEndian.Uint32(b[4:]))
		if binary.LittleEndian.Uint32(b) != 0xFFFFFFFF || n == 0 || n > len(b)-8 {
			break
		}
		meta := b[8 : 8+n]
		tab := flatbuffers.Table{Bytes: meta, Pos: flatbuffers.GetUOffsetT(meta)}
		var body int
		if o := flatbuffers.UOffsetT(tab.Offset(10)); o != 0 {
			body = int(tab.GetInt64(o + tab.Pos))
		}
		if body < 0 || body > len(b)-8-n {
			t.Fatalf("message body of %d bytes", body)
		}
		out = append(out, &flight.FlightData{DataHeader: meta, DataBody: b[8+n : 8+n+body]})
		b = b[8+n+body:]
	}
	if len(out) < 2 {
		t.Fatalf("%d messages", len(out))
	}
	return out
}
