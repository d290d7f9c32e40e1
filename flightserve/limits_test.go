package flightserve_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/flightserve"
	"github.com/fstensor/fstensor/metadata"
)

func TestMaxUploadBytesConfig(t *testing.T) {
	_, err := flightserve.New(flightserve.Config{Dir: t.TempDir(), MaxUploadBytes: -1})
	if !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("New with MaxUploadBytes -1: %v, want arrow.ErrInvalid", err)
	}
}

// zeros returns a reader of n rows of float32 (256,256) tensors of
// zeros: 256 KiB a row, which LZ4 compresses to almost nothing.
func zeros(t *testing.T, n int) array.RecordReader {
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

// putLZ4 uploads r to path with DoPut, its bodies compressed with LZ4,
// one batch of rows rows at a time, and returns the error of the call.
func putLZ4(t *testing.T, fc flight.Client, path string, r array.RecordReader, rows int64) error {
	t.Helper()
	st, err := fc.DoPut(testCtx(t))
	if err != nil {
		return err
	}
	w := flight.NewRecordWriter(st, ipc.WithSchema(r.Schema()), ipc.WithLZ4())
	w.SetFlightDescriptor(&flight.FlightDescriptor{Type: flight.DescriptorPATH, Path: []string{path}})
	for r.Next() {
		rec := r.RecordBatch()
		for lo := int64(0); lo < rec.NumRows(); lo += rows {
			part := rec.NewSlice(lo, min(lo+rows, rec.NumRows()))
			err := w.Write(part)
			part.Release()
			if err != nil {
				break
			}
		}
	}
	w.Close()
	st.CloseSend()
	for {
		if _, err := st.Recv(); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// TestUploadLimits checks that DoPut stops at Config.MaxUploadBytes,
// counted in bytes received and in decoded bytes, and at the free space
// of the disk, with ResourceExhausted naming the limit and no file left.
func TestUploadLimits(t *testing.T) {
	dir := testDir(t)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	const limit = 1 << 20
	addr := serve(t, flightserve.Config{Dir: dir, Allocator: mem, MaxUploadBytes: limit})
	c := dial(t, addr)
	fc := rawClient(t, addr)
	for _, tc := range []struct {
		name    string
		put     func(path string) error
		minFree int64 // 0 keeps the server's
		code    codes.Code
		want    string // in the message
	}{
		{"under the limit", func(p string) error {
			r := zeros(t, 3)
			defer r.Release()
			_, err := c.Put(testCtx(t), p, r)
			return err
		}, 0, codes.OK, ""},
		{"received over the limit", func(p string) error {
			r := zeros(t, 8)
			defer r.Release()
			_, err := c.Put(testCtx(t), p, r)
			return err
		}, 0, codes.ResourceExhausted, "limit of 1048576 bytes (1 MiB) received"},
		{"decoded over the limit", func(p string) error { r := zeros(t, 8); defer r.Release(); return putLZ4(t, fc, p, r, 4) }, 0, codes.ResourceExhausted, "limit of 1048576 bytes (1 MiB) decoded"},
		{"compressed under the limit", func(p string) error { r := zeros(t, 3); defer r.Release(); return putLZ4(t, fc, p, r, 1) }, 0, codes.OK, ""},
		{"disk full", func(p string) error {
			r := zeros(t, 1)
			defer r.Release()
			_, err := c.Put(testCtx(t), p, r)
			return err
		}, 1 << 62, codes.ResourceExhausted, "MiB the server leaves free"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.minFree > 0 {
				defer flightserve.SetMinFreeBytes(tc.minFree)()
			}
			name := strings.ReplaceAll(tc.name, " ", "_") + ".arrow"
			err := tc.put(name)
			if got := status.Code(err); got != tc.code {
				t.Fatalf("code %v (%v), want %v", got, err, tc.code)
			}
			if msg := status.Convert(err).Message(); !strings.Contains(msg, tc.want) {
				t.Errorf("message %q lacks %q", msg, tc.want)
			}
			_, err = os.Stat(filepath.Join(dir, name))
			if tc.code == codes.OK && err != nil {
				t.Errorf("the file is missing: %v", err)
			}
			if tc.code != codes.OK && !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a refused upload left %s: %v", name, err)
			}
			ents, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range ents {
				if strings.HasPrefix(e.Name(), ".") {
					t.Errorf("temporary file %s left", e.Name())
				}
			}
			stillServes(t, c)
		})
	}
}
