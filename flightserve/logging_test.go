package flightserve_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fstensor/fstensor/flightserve"
)

// newJSONLogger returns a logger writing JSON lines of level and above
// to w.
func newJSONLogger(w io.Writer, level slog.Level) *slog.Logger {
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: level}))
}

// records decodes JSON log lines.
func records(t *testing.T, text string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for line := range strings.Lines(text) {
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		out = append(out, r)
	}
	return out
}

// TestRejectedLogBounded floods the server with calls without the token:
// each kind of rejected call writes at most one line a second, and the
// lines count every call.
func TestRejectedLogBounded(t *testing.T) {
	const calls, workers = 20000, 4
	dir := testDir(t)
	var logs syncBuffer
	s, addr := startServer(t, flightserve.Config{Dir: dir, Token: "s3cret", Logger: newJSONLogger(&logs, slog.LevelInfo)})
	fc := rawClient(t, addr)
	ctx := testCtx(t)
	start := time.Now()
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for range calls / workers {
				_, err := fc.GetFlightInfo(ctx, &flight.FlightDescriptor{Type: flight.DescriptorPATH, Path: []string{"data.arrow"}})
				if status.Code(err) != codes.Unauthenticated {
					t.Errorf("code %v (%v), want Unauthenticated", status.Code(err), err)
					return
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	s.Stop() // writes the counts left
	var lines, counted int
	for _, r := range records(t, logs.String()) {
		if diff := cmp.Diff(map[string]any{"msg": "rejected calls", "level": "WARN", "method": "GetFlightInfo", "code": "Unauthenticated"},
			map[string]any{"msg": r["msg"], "level": r["level"], "method": r["method"], "code": r["code"]}); diff != "" {
			t.Errorf("record (-want +got):\n%s", diff)
		}
		lines++
		counted += int(r["count"].(float64))
	}
	if most := 2 + int(elapsed/time.Second); lines > most || lines == 0 {
		t.Errorf("%d calls in %v wrote %d lines, want 1 to %d", calls, elapsed, lines, most)
	}
	if counted != calls {
		t.Errorf("the lines count %d calls, want %d", counted, calls)
	}
	t.Logf("%d rejected calls in %v: %d lines", calls, elapsed, lines)
}

// TestCallLog checks that successful calls write nothing at Info and one
// record each at Debug.
func TestCallLog(t *testing.T) {
	dir := testDir(t)
	for _, tc := range []struct {
		name  string
		level slog.Level
		want  int
	}{
		{"info", slog.LevelInfo, 0},
		{"debug", slog.LevelDebug, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var logs syncBuffer
			s, addr := startServer(t, flightserve.Config{Dir: dir, Logger: newJSONLogger(&logs, tc.level)})
			c := dial(t, addr)
			for range 3 {
				stillServes(t, c)
			}
			s.Stop()
			var got int
			for _, r := range records(t, logs.String()) {
				if r["msg"] == flightserve.MsgUnmapped {
					continue // a file system without leases: see TestUnmappedLog
				}
				if r["msg"] != "call" || r["method"] != "DoGet" || r["code"] != "OK" || r["bytes_sent"].(float64) <= 0 {
					t.Errorf("record %v", r)
				}
				got++
			}
			if got != tc.want {
				t.Errorf("%d records, want %d:\n%s", got, tc.want, logs.String())
			}
		})
	}
}

// TestUnmappedLog serves a file that a process holds open for writing,
// which gets no lease: the call works, reading the file, and one info
// line names it.
func TestUnmappedLog(t *testing.T) {
	dir := testDir(t)
	w, err := os.OpenFile(filepath.Join(dir, "data.arrow"), os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var logs syncBuffer
	s, addr := startServer(t, flightserve.Config{Dir: dir, Logger: newJSONLogger(&logs, slog.LevelInfo)})
	stillServes(t, dial(t, addr))
	s.Stop()
	rs := records(t, logs.String())
	if len(rs) != 1 || rs[0]["msg"] != flightserve.MsgUnmapped || rs[0]["path"] != "data.arrow" || rs[0]["level"] != "INFO" {
		t.Errorf("records %v, want one of the file read for lack of a lease", rs)
	}
}
