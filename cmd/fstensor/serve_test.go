//go:build unix

package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/flightserve"
	"github.com/fstensor/fstensor/tensorio"
)

func TestServeUsage(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.txt")
	if err := os.WriteFile(empty, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		code int
	}{
		{"no dir", []string{"serve"}, 2},
		{"two dirs", []string{"serve", dir, dir}, 2},
		{"cert without key", []string{"serve", dir, "--tls-cert", "c.pem"}, 2},
		{"message size 0", []string{"serve", dir, "--max-message-mib", "0"}, 2},
		{"batch over half the message", []string{"serve", dir, "--max-message-mib", "1", "--batch-kib", "1024"}, 2},
		{"log format", []string{"serve", dir, "--log-format", "xml"}, 2},
		{"log level", []string{"serve", dir, "--log-level", "loud"}, 2},
		{"missing dir", []string{"serve", filepath.Join(dir, "missing"), "--addr", "127.0.0.1:0"}, 1},
		{"file as dir", []string{"serve", empty, "--addr", "127.0.0.1:0"}, 1},
		{"empty token", []string{"serve", dir, "--addr", "127.0.0.1:0", "--token-file", empty}, 1},
		{"missing token file", []string{"serve", dir, "--addr", "127.0.0.1:0", "--token-file", filepath.Join(dir, "none")}, 1},
		{"missing cert", []string{"serve", dir, "--addr", "127.0.0.1:0", "--tls-cert", empty, "--tls-key", empty}, 1},
		{"address not loopback-parsable", []string{"serve", dir, "--addr", "127.0.0.1:99999"}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCmd(t, tc.args...)
			if code != tc.code {
				t.Errorf("code %d, want %d; stderr %q", code, tc.code, stderr)
			}
		})
	}
}

// TestServe runs the built binary on a directory and fetches, pushes
// down an expression, uploads, and is refused without the token; SIGTERM
// stops it (exit 0).
func TestServe(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	copyFile(t, sample("images.arrow"), filepath.Join(dir, "images.arrow"))
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte("s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "serve", dir, "--addr", "127.0.0.1:0", "--token-file", tokenFile)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("no address printed: %v; stderr %q", err, stderr.String())
	}
	_, addr, ok := strings.Cut(strings.TrimSpace(line), " on grpc://")
	if !ok || !strings.HasPrefix(addr, "127.0.0.1:") {
		t.Fatalf("printed %q", line)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	c, err := flightserve.Dial(addr, flightserve.WithToken("s3cret"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	const text = "x[::2, ::2].transpose(2, 0, 1)"
	got, err := c.Tensors(ctx, flightserve.Ticket{Path: "images.arrow", Expr: text}, "image")
	if err != nil {
		t.Fatal(err)
	}
	defer got.Release()
	r, err := tensorio.Open(filepath.Join(dir, "images.arrow"), tensorio.WithColumns("image"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Release()
	var rows int
	for r.Next() {
		in := r.RecordBatch().Column(0).(*fixedshape.Array)
		want, err := applyExpr(in, text)
		if err != nil {
			t.Fatal(err)
		}
		part := array.NewSlice(got, int64(rows), int64(rows+want.Len())).(*fixedshape.Array)
		if !fixedshape.Equal(want, part) {
			t.Errorf("rows %d..: got %v\nwant %v", rows, part, want)
		}
		rows += want.Len()
		part.Release()
		want.Release()
	}
	if rows != got.Len() || rows == 0 {
		t.Errorf("got %d rows, want %d", got.Len(), rows)
	}

	r2, err := tensorio.Open(filepath.Join(dir, "images.arrow"))
	if err != nil {
		t.Fatal(err)
	}
	n, err := c.Put(ctx, "copy.parquet", r2)
	r2.Release()
	if err != nil || n != int64(rows) {
		t.Fatalf("put: %d rows, %v", n, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "copy.parquet")); err != nil {
		t.Error(err)
	}

	anon, err := flightserve.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer anon.Close()
	if _, err := anon.List(ctx); status.Code(err) != codes.Unauthenticated {
		t.Errorf("without the token: %v", err)
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("after SIGTERM: %v, want exit 0", err)
	}
	if !strings.Contains(stderr.String(), `msg="rejected calls" method=ListFlights code=Unauthenticated count=1`) {
		t.Errorf("the refused call is not logged: stderr %q", stderr.String())
	}
}
