package flightserve_test

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"

	"github.com/fstensor/fstensor/flightserve"
	"github.com/fstensor/fstensor/tensorio"
)

// healthClient returns a health client of the server at addr.
func healthClient(t *testing.T, addr string) healthpb.HealthClient {
	t.Helper()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return healthpb.NewHealthClient(conn)
}

// TestHealth checks the health service without the token, and that
// Shutdown turns a watch to NOT_SERVING and ends it.
func TestHealth(t *testing.T) {
	s, addr := startServer(t, flightserve.Config{Dir: testDir(t), Token: "s3cret"})
	hc := healthClient(t, addr)
	ctx := testCtx(t)
	for _, tc := range []struct {
		name    string
		service string
		want    healthpb.HealthCheckResponse_ServingStatus
		code    codes.Code
	}{
		{"server", "", healthpb.HealthCheckResponse_SERVING, codes.OK},
		{"flight", flightserve.FlightService, healthpb.HealthCheckResponse_SERVING, codes.OK},
		{"unknown", "nosuch.Service", healthpb.HealthCheckResponse_UNKNOWN, codes.NotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := hc.Check(ctx, &healthpb.HealthCheckRequest{Service: tc.service})
			if got := status.Code(err); got != tc.code {
				t.Fatalf("code %v (%v), want %v", got, err, tc.code)
			}
			if got := resp.GetStatus(); got != tc.want {
				t.Errorf("status %v, want %v", got, tc.want)
			}
		})
	}
	w, err := hc.Watch(ctx, &healthpb.HealthCheckRequest{Service: flightserve.FlightService})
	if err != nil {
		t.Fatal(err)
	}
	var got []healthpb.HealthCheckResponse_ServingStatus
	resp, err := w.Recv()
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, resp.GetStatus())
	sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- s.Shutdown(sctx) }()
	for {
		resp, err := w.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, resp.GetStatus())
	}
	want := []healthpb.HealthCheckResponse_ServingStatus{healthpb.HealthCheckResponse_SERVING, healthpb.HealthCheckResponse_NOT_SERVING}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("watched (-want +got):\n%s", diff)
	}
	if err := <-done; err != nil {
		t.Errorf("Shutdown with a watch: %v", err)
	}
}

// bigFile writes rows of 1.44 MB float32 (600,600) tensors to path:
// more than the flow control windows hold.
func bigFile(t *testing.T, path string, rows int) {
	t.Helper()
	rec := zeroRecord(t, 600, rows)
	defer rec.Release()
	w, err := tensorio.Create(path, rec.Schema())
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestShutdown stops a server during a DoGet of a client that reads
// slowly: the call ends, or the deadline cuts it.
func TestShutdown(t *testing.T) {
	const rows = 20
	dir := testDir(t)
	bigFile(t, filepath.Join(dir, "big.arrow"), rows)
	for _, tc := range []struct {
		name    string
		timeout time.Duration
		read    bool // the client reads on
	}{
		{"graceful", 20 * time.Second, true},
		{"deadline", 300 * time.Millisecond, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			t.Cleanup(func() { mem.AssertSize(t, 0) })
			s, addr := startServer(t, flightserve.Config{Dir: dir, Allocator: mem})
			c := dial(t, addr)
			r, err := c.Get(testCtx(t), flightserve.Ticket{Path: "big.arrow", Expr: "x * 2"})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Release()
			if !r.Next() {
				t.Fatal(r.Err())
			}
			got := r.RecordBatch().NumRows()
			ctx, cancel := context.WithTimeout(context.Background(), tc.timeout)
			defer cancel()
			start := time.Now()
			done := make(chan error, 1)
			go func() { done <- s.Shutdown(ctx) }()
			time.Sleep(100 * time.Millisecond)
			select {
			case err := <-done:
				t.Fatalf("Shutdown returned %v before the call ended", err)
			default:
			}
			if _, err := healthClient(t, addr).Check(testCtx(t), &healthpb.HealthCheckRequest{}); status.Code(err) != codes.Unavailable {
				t.Errorf("a new call after Shutdown: %v, want Unavailable", err)
			}
			if !tc.read {
				err := <-done
				if !errors.Is(err, context.DeadlineExceeded) {
					t.Errorf("Shutdown: %v, want a deadline exceeded", err)
				}
				if d := time.Since(start); d > tc.timeout+5*time.Second {
					t.Errorf("Shutdown took %v with a timeout of %v", d, tc.timeout)
				}
			}
			for r.Next() {
				got += r.RecordBatch().NumRows()
			}
			if tc.read {
				if err := r.Err(); err != nil || got != rows {
					t.Errorf("read %d rows of %d: %v", got, rows, err)
				}
				if err := <-done; err != nil {
					t.Errorf("Shutdown: %v", err)
				}
			} else if r.Err() == nil {
				t.Errorf("read %d rows of %d without an error", got, rows)
			}
		})
	}
}
