package flightserve_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fstensor/fstensor/flightserve"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
)

// flightMessages splits an IPC stream into the FlightData messages of a
// DoPut of path: the framing gives each metadata, arrow-go's message
// reader the length of each body.
func flightMessages(t *testing.T, stream []byte, path string) []*flight.FlightData {
	t.Helper()
	mr := ipc.NewMessageReader(bytes.NewReader(stream))
	defer mr.Release()
	var out []*flight.FlightData
	for p := 0; ; {
		msg, err := mr.Message()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n := int(binary.LittleEndian.Uint32(stream[p+4:]))
		p += 8
		fd := &flight.FlightData{DataHeader: stream[p : p+n]}
		p += n
		fd.DataBody = stream[p : p+int(msg.BodyLen())]
		p += int(msg.BodyLen())
		out = append(out, fd)
	}
	out[0].FlightDescriptor = &flight.FlightDescriptor{Type: flight.DescriptorPATH, Path: []string{path}}
	return out
}

// TestPutRefusesInvalidBatch uploads streams whose string column has
// offsets past its data (the reproducer, which used to kill the server):
// DoPut answers InvalidArgument naming the column, writes nothing, and
// the server keeps serving.
func TestPutRefusesInvalidBatch(t *testing.T) {
	reproducer, err := os.ReadFile(testvec.Reproducer)
	if err != nil {
		t.Fatal(err)
	}
	rec := testvec.InvalidStrings([3]int32{0, 4194304, 3}, "abc")
	var pyarrowLike bytes.Buffer
	w := ipc.NewWriter(&pyarrowLike, ipc.WithSchema(rec.Schema()))
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	w.Close()
	rec.Release()

	dir := testDir(t)
	before := testvec.DirNames(t, dir)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	addr := serve(t, flightserve.Config{Dir: dir, Allocator: mem})
	c := dial(t, addr)
	fc := rawClient(t, addr)
	for _, tc := range []struct {
		name   string
		stream []byte
		path   string
	}{
		{"reproducer to arrow", reproducer, "bad.arrow"},
		{"reproducer to parquet", reproducer, "bad.parquet"},
		{"offsets past data to arrows", pyarrowLike.Bytes(), "bad.arrows"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := testCtx(t)
			err := rawPut(ctx, fc, flightMessages(t, tc.stream, tc.path)...)
			if got := status.Code(err); got != codes.InvalidArgument {
				t.Fatalf("DoPut: code %v (%v), want InvalidArgument", got, err)
			}
			if msg := status.Convert(err).Message(); !strings.Contains(msg, `"lbl"`) {
				t.Errorf("DoPut: %q does not name the column \"lbl\"", msg)
			}
			if _, err := c.List(ctx); err != nil {
				t.Fatalf("ListFlights after the refused upload: %v", err)
			}
			stillServes(t, c)
			if diff := cmp.Diff(before, testvec.DirNames(t, dir)); diff != "" {
				t.Errorf("files in the served directory (-before +after):\n%s", diff)
			}
		})
	}
}
