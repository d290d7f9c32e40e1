//go:build unix

package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/flightserve"
	"github.com/fstensor/fstensor/metadata"
)

func TestServeMaxUploadUsage(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"zero", []string{"--max-upload-mib", "0"}},
		{"negative", []string{"--max-upload-mib", "-1"}},
		{"over 1 TiB", []string{"--max-upload-mib", "2000000"}},
		{"negative endpoint size", []string{"--endpoint-mib", "-1"}},
		{"endpoint size over 1 TiB", []string{"--endpoint-mib", "2000000"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCmd(t, append([]string{"serve", dir, "--addr", "127.0.0.1:0"}, tc.args...)...)
			if code != 2 {
				t.Errorf("code %d, want 2; stderr %q", code, stderr)
			}
		})
	}
}

// zeroRows returns a reader of n rows of float32 (256,256) tensors, 256
// KiB a row.
func zeroRows(t *testing.T, n int) array.RecordReader {
	t.Helper()
	rec := zeroRecord(t, 256, n)
	defer rec.Release()
	r, err := array.NewRecordReader(rec.Schema(), []arrow.RecordBatch{rec})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// zeroRecord returns a record of rows float32 (side,side) tensors of
// zeros in its one column "x". The caller releases it.
func zeroRecord(t *testing.T, side, rows int) arrow.RecordBatch {
	t.Helper()
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{side, side}, nil, nil))
	a, err := fixedshape.FromSlice(typ, make([]float32, rows*side*side), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: typ, Nullable: true}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{a}, int64(rows))
}

// TestServeMaxUpload runs the built binary with --max-upload-mib 1: an
// upload of 512 KiB is written, one of 2 MiB refused with
// ResourceExhausted naming the limit, leaving no file.
func TestServeMaxUpload(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	addr := startServe(t, dir, "--max-upload-mib", "1").addr
	c, err := flightserve.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, tc := range []struct {
		name string
		rows int
		code codes.Code
	}{
		{"under", 2, codes.OK},
		{"over", 8, codes.ResourceExhausted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := zeroRows(t, tc.rows)
			_, err := c.Put(ctx, tc.name+".arrow", r)
			r.Release()
			if got := status.Code(err); got != tc.code {
				t.Fatalf("code %v (%v), want %v", got, err, tc.code)
			}
			_, serr := os.Stat(filepath.Join(dir, tc.name+".arrow"))
			if tc.code == codes.OK {
				if serr != nil {
					t.Error(serr)
				}
				return
			}
			if msg := status.Convert(err).Message(); !strings.Contains(msg, "(1 MiB)") {
				t.Errorf("message %q does not name the limit", msg)
			}
			if !errors.Is(serr, os.ErrNotExist) {
				t.Errorf("a refused upload left a file: %v", serr)
			}
		})
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 1 {
		t.Errorf("%d entries in the served directory, want the one upload", len(ents))
	}
}
