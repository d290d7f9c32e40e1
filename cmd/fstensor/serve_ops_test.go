//go:build unix

package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/fstensor/fstensor/flightserve"
	"github.com/fstensor/fstensor/tensorio"
)

// lockedBuffer is a strings.Builder safe for concurrent use.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// served is a running fstensor serve.
type served struct {
	cmd     *exec.Cmd
	addr    string // of the Flight server
	metrics string // URL of the metrics, or ""
	stderr  *lockedBuffer
	exited  chan error // receives the result of Wait
}

// startServe runs the built binary's serve with args (after DIR) and
// reads the addresses it prints; the cleanup kills it.
func startServe(t *testing.T, dir string, args ...string) *served {
	t.Helper()
	cmd := exec.Command(buildBinary(t), append([]string{"serve", dir, "--addr", "127.0.0.1:0"}, args...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s := &served{cmd: cmd, stderr: new(lockedBuffer), exited: make(chan error, 1)}
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { s.exited <- cmd.Wait() }()
	t.Cleanup(func() { cmd.Process.Kill() })
	br := bufio.NewReader(stdout)
	line, err := br.ReadString('\n')
	if err != nil {
		t.Fatalf("no address printed: %v; stderr %q", err, s.stderr.String())
	}
	var ok bool
	if _, s.addr, ok = strings.Cut(strings.TrimSpace(line), " on grpc://"); !ok {
		t.Fatalf("printed %q", line)
	}
	for _, a := range args {
		if a == "--metrics-addr" {
			line, err := br.ReadString('\n')
			if s.metrics, ok = strings.CutPrefix(strings.TrimSpace(line), "metrics on "); err != nil || !ok {
				t.Fatalf("printed %q, %v", line, err)
			}
		}
	}
	go io.Copy(io.Discard, br)
	return s
}

// wait returns the exit code of s, failing the test after limit.
func (s *served) wait(t *testing.T, limit time.Duration) int {
	t.Helper()
	select {
	case err := <-s.exited:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(limit):
		t.Fatalf("still running after %v; stderr %q", limit, s.stderr.String())
	}
	return -1
}

// writeBig writes rows of 1.44 MB float32 (600,600) tensors to path:
// more than gRPC's flow control windows hold.
func writeBig(t *testing.T, path string, rows int) {
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

// TestServeShutdown sends SIGTERM during a DoGet of a client that reads
// slowly: the call finishes and serve exits 0, or --shutdown-timeout
// cuts it and serve exits 1, or a second SIGTERM exits at once (143).
func TestServeShutdown(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	const rows = 20
	dir := t.TempDir()
	writeBig(t, filepath.Join(dir, "big.arrow"), rows)
	for _, tc := range []struct {
		name    string
		timeout time.Duration
		read    bool // the client reads on after the signal
		again   bool // a second signal
		code    int
	}{
		{"graceful", 30 * time.Second, true, false, 0},
		{"deadline", time.Second, false, false, 1},
		{"second signal", time.Minute, false, true, 143},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := startServe(t, dir, "--shutdown-timeout", tc.timeout.String(), "--batch-kib", "1500")
			c, err := flightserve.Dial(s.addr)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			r, err := c.Get(ctx, flightserve.Ticket{Path: "big.arrow"})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Release()
			if !r.Next() {
				t.Fatal(r.Err())
			}
			got := r.RecordBatch().NumRows()
			start := time.Now()
			if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			time.Sleep(300 * time.Millisecond)
			select {
			case err := <-s.exited:
				t.Fatalf("exited (%v) before the call ended; stderr %q", err, s.stderr.String())
			default:
			}
			if tc.again {
				if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
					t.Fatal(err)
				}
			}
			if !tc.read {
				code := s.wait(t, min(tc.timeout, 10*time.Second)+10*time.Second)
				if code != tc.code {
					t.Errorf("exit %d, want %d; stderr %q", code, tc.code, s.stderr.String())
				}
				t.Logf("exited %d after %v", code, time.Since(start))
			}
			for r.Next() {
				got += r.RecordBatch().NumRows()
			}
			if tc.read {
				if err := r.Err(); err != nil || got != rows {
					t.Errorf("read %d rows of %d: %v", got, rows, err)
				}
				if code := s.wait(t, 10*time.Second); code != tc.code {
					t.Errorf("exit %d, want %d; stderr %q", code, tc.code, s.stderr.String())
				}
			} else if r.Err() == nil {
				t.Errorf("read all %d rows after the deadline", got)
			}
			if !strings.Contains(s.stderr.String(), `msg="shutting down" signal=terminated`) {
				t.Errorf("stderr %q", s.stderr.String())
			}
		})
	}
}

// TestServeOps checks the health service, the metrics and JSON logs of
// the built binary.
func TestServeOps(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	copyFile(t, sample("images.arrow"), filepath.Join(dir, "images.arrow"))
	s := startServe(t, dir, "--metrics-addr", "127.0.0.1:0", "--log-format", "json")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	conn, err := grpc.NewClient(s.addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	resp, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{Service: flightserve.FlightService})
	if err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Errorf("health: %v, %v", resp, err)
	}
	c, err := flightserve.Dial(s.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	a, err := c.Tensors(ctx, flightserve.Ticket{Path: "images.arrow"}, "image")
	if err != nil {
		t.Fatal(err)
	}
	a.Release()
	if _, err := c.Info(ctx, flightserve.Ticket{Path: "missing.arrow"}); err == nil {
		t.Error("missing.arrow found")
	}

	res, err := http.Get(s.metrics)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"\nfstensor_flight_requests_total{code=\"OK\",method=\"DoGet\"} 1\n",
		"\nfstensor_flight_requests_total{code=\"OK\",method=\"grpc.health.v1.Health/Check\"} 1\n",
		"\nfstensor_flight_requests_total{code=\"NotFound\",method=\"GetFlightInfo\"} 1\n",
		"\nfstensor_flight_rejected_total{code=\"NotFound\"} 1\n",
		"\nfstensor_flight_panics_total 0\n",
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("no %q in the metrics:\n%s", want, body)
		}
	}
	if err := s.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if code := s.wait(t, 30*time.Second); code != 0 {
		t.Errorf("exit %d after SIGINT; stderr %q", code, s.stderr.String())
	}
	want := `{"time":"T","level":"WARN","msg":"rejected calls","method":"GetFlightInfo","code":"NotFound","count":1,"error":"`
	if line, _, _ := strings.Cut(s.stderr.String(), "\n"); !strings.HasPrefix(timeless(line), want) {
		t.Errorf("first log line %q, want %s...", line, want)
	}
}

// timeless replaces the time of a JSON log line with "T".
func timeless(line string) string {
	if rest, ok := strings.CutPrefix(line, `{"time":"`); ok {
		if _, after, ok := strings.Cut(rest, `"`); ok {
			return `{"time":"T"` + after
		}
	}
	return line
}
