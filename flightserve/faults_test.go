package flightserve_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/flightserve"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/tensorio"
)

// stillServes fails the test unless c fetches the x column of data.arrow.
func stillServes(t *testing.T, c *flightserve.Client) {
	t.Helper()
	a, err := c.Tensors(testCtx(t), flightserve.Ticket{Path: "data.arrow"}, "x")
	if err != nil {
		t.Fatalf("the server no longer serves: %v", err)
	}
	if a.Len() != 23 {
		t.Errorf("%d rows, want 23", a.Len())
	}
	a.Release()
}

// rawClient returns a Flight client without this package's checks.
func rawClient(t *testing.T, addr string) flight.Client {
	t.Helper()
	fc, err := flight.NewClientWithMiddleware(addr, nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fc.Close() })
	return fc
}

// rawGet calls DoGet with ticket and returns the error of the stream.
func rawGet(ctx context.Context, fc flight.Client, ticket []byte) error {
	st, err := fc.DoGet(ctx, &flight.Ticket{Ticket: ticket})
	if err != nil {
		return err
	}
	for {
		if _, err := st.Recv(); err != nil {
			return err
		}
	}
}

// rawPut calls DoPut, sends msgs and returns the error of the call.
func rawPut(ctx context.Context, fc flight.Client, msgs ...*flight.FlightData) error {
	st, err := fc.DoPut(ctx)
	if err != nil {
		return err
	}
	for _, m := range msgs {
		if err := st.Send(m); err != nil {
			break
		}
	}
	st.CloseSend()
	for {
		if _, err := st.Recv(); err != nil {
			return err
		}
	}
}

func TestPathsOutside(t *testing.T) {
	dir := testDir(t)
	outside := t.TempDir()
	writeTestFile(t, filepath.Join(outside, "secret.arrow"), 3, 3)
	if err := os.Symlink(filepath.Join(outside, "secret.arrow"), filepath.Join(dir, "link.arrow")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "linkdir")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("sub/data.parquet", filepath.Join(dir, "inside.parquet")); err != nil {
		t.Fatal(err)
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	addr := serve(t, flightserve.Config{Dir: dir, Allocator: mem})
	c := dial(t, addr)
	ctx := testCtx(t)
	for _, tc := range []struct {
		path string
		code codes.Code
	}{
		{"../secret.arrow", codes.PermissionDenied},
		{"sub/../../secret.arrow", codes.PermissionDenied},
		{"./data.arrow", codes.PermissionDenied},
		{"sub//data.parquet", codes.PermissionDenied},
		{filepath.Join(outside, "secret.arrow"), codes.InvalidArgument},
		{"link.arrow", codes.PermissionDenied},
		{"linkdir/secret.arrow", codes.PermissionDenied},
		{"missing.arrow", codes.NotFound},
		{`sub\data.parquet`, codes.InvalidArgument},
		{"data.npy", codes.InvalidArgument},
	} {
		t.Run(tc.path, func(t *testing.T) {
			_, err := c.Tensors(ctx, flightserve.Ticket{Path: tc.path}, "x")
			if got := status.Code(err); got != tc.code {
				t.Errorf("DoGet: code %v (%v), want %v", got, err, tc.code)
			}
			_, err = c.Info(ctx, flightserve.Ticket{Path: tc.path})
			if got := status.Code(err); got != tc.code {
				t.Errorf("GetFlightInfo: code %v (%v), want %v", got, err, tc.code)
			}
		})
	}
	for _, tc := range []struct {
		path string
		code codes.Code
	}{
		{"../up.arrow", codes.PermissionDenied},
		{"linkdir/up.arrow", codes.PermissionDenied},
		{"data.arrow", codes.AlreadyExists},
		{"link.arrow", codes.AlreadyExists},
		{"nodir/up.arrow", codes.NotFound},
	} {
		t.Run("put "+tc.path, func(t *testing.T) {
			r := readerOf(t, filepath.Join(dir, "data.arrow"))
			_, err := c.Put(ctx, tc.path, r)
			r.Release()
			if got := status.Code(err); got != tc.code {
				t.Errorf("DoPut: code %v (%v), want %v", got, err, tc.code)
			}
		})
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 1 {
		t.Errorf("the directory outside holds %d entries, want 1", len(entries))
	}
	// A link that stays inside is served.
	a, err := c.Tensors(ctx, flightserve.Ticket{Path: "inside.parquet"}, "x")
	if err != nil {
		t.Fatal(err)
	}
	a.Release()
	stillServes(t, c)
}

func TestMalformed(t *testing.T) {
	dir := testDir(t)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	addr := serve(t, flightserve.Config{Dir: dir, Allocator: mem})
	c := dial(t, addr)
	fc := rawClient(t, addr)
	ctx := testCtx(t)
	desc := &flight.FlightDescriptor{Type: flight.DescriptorPATH, Path: []string{"bad.arrow"}}
	for _, tc := range []struct {
		name string
		err  func() error
		code codes.Code
	}{
		{"ticket not json", func() error { return rawGet(ctx, fc, []byte("data.arrow")) }, codes.InvalidArgument},
		{"ticket unknown key", func() error { return rawGet(ctx, fc, []byte(`{"path":"data.arrow","x":1}`)) }, codes.InvalidArgument},
		{"ticket huge", func() error { return rawGet(ctx, fc, make([]byte, 100<<10)) }, codes.InvalidArgument},
		{"ticket bad expr", func() error { return rawGet(ctx, fc, []byte(`{"path":"data.arrow","expr":"x[:, 9"}`)) }, codes.InvalidArgument},
		{"ticket expr out of range", func() error { return rawGet(ctx, fc, []byte(`{"path":"data.arrow","expr":"x[7]"}`)) }, codes.InvalidArgument},
		{"ticket unknown column", func() error { return rawGet(ctx, fc, []byte(`{"path":"data.arrow","columns":["y"]}`)) }, codes.InvalidArgument},
		{"put no descriptor", func() error { return rawPut(ctx, fc, &flight.FlightData{DataHeader: []byte{1, 2, 3, 4}}) }, codes.InvalidArgument},
		{"put garbage header", func() error {
			return rawPut(ctx, fc, &flight.FlightData{FlightDescriptor: desc, DataHeader: []byte("\x10\x00\x00\x00garbage garbage garbage")})
		}, codes.InvalidArgument},
		{"put body without header", func() error {
			return rawPut(ctx, fc, &flight.FlightData{FlightDescriptor: desc, DataBody: []byte("body")})
		}, codes.InvalidArgument},
		{"put schema only, body short", func() error {
			schema := flight.SerializeSchema(testSchema(), memory.DefaultAllocator)
			return rawPut(ctx, fc, &flight.FlightData{FlightDescriptor: desc, DataHeader: schema[8:]}, &flight.FlightData{DataHeader: schema[8:]})
		}, codes.InvalidArgument},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := status.Code(tc.err()); got != tc.code {
				t.Errorf("code %v, want %v", got, tc.code)
			}
			if _, err := os.Stat(filepath.Join(dir, "bad.arrow")); !os.IsNotExist(err) {
				t.Errorf("bad.arrow: %v", err)
			}
			stillServes(t, c)
		})
	}
}

func TestToken(t *testing.T) {
	dir := testDir(t)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	addr := serve(t, flightserve.Config{Dir: dir, Allocator: mem, Token: "s3cret"})
	ctx := testCtx(t)
	for _, tc := range []struct {
		name string
		opts []flightserve.ClientOption
		code codes.Code
	}{
		{"none", nil, codes.Unauthenticated},
		{"wrong", []flightserve.ClientOption{flightserve.WithToken("s3cre")}, codes.Unauthenticated},
		{"right", []flightserve.ClientOption{flightserve.WithToken("s3cret")}, codes.OK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := dial(t, addr, tc.opts...)
			_, err := c.List(ctx)
			if got := status.Code(err); got != tc.code {
				t.Errorf("List: code %v (%v), want %v", got, err, tc.code)
			}
			_, err = c.Tensors(ctx, flightserve.Ticket{Path: "data.arrow"}, "x")
			if got := status.Code(err); got != tc.code {
				t.Errorf("DoGet: code %v (%v), want %v", got, err, tc.code)
			}
			r := readerOf(t, filepath.Join(dir, "data.arrow"))
			_, err = c.Put(ctx, tc.name+".arrow", r)
			r.Release()
			if got := status.Code(err); got != tc.code {
				t.Errorf("DoPut: code %v (%v), want %v", got, err, tc.code)
			}
		})
	}
	stillServes(t, dial(t, addr, flightserve.WithToken("s3cret")))
}

// bigRows returns a reader of 3 rows of 1.44 MB float32 (600,600)
// tensors.
func bigRows(t *testing.T) array.RecordReader {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{600, 600}, nil, nil))
	a, err := fixedshape.FromSlice(typ, make([]float32, 3*600*600), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: typ, Nullable: true}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{a}, 3)
	defer rec.Release()
	r, err := array.NewRecordReader(schema, []arrow.RecordBatch{rec})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestOversized(t *testing.T) {
	dir := testDir(t)
	w, err := tensorio.Create(filepath.Join(dir, "big.arrow"), bigRows(t).Schema())
	if err != nil {
		t.Fatal(err)
	}
	r := bigRows(t)
	for r.Next() {
		if err := w.Write(r.RecordBatch()); err != nil {
			t.Fatal(err)
		}
	}
	r.Release()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	addr := serve(t, flightserve.Config{Dir: dir, Allocator: mem, MaxMessageBytes: 1 << 20})
	c := dial(t, addr)
	ctx := testCtx(t)

	r = bigRows(t)
	_, err = c.Put(ctx, "up.arrow", r)
	r.Release()
	if got := status.Code(err); got != codes.ResourceExhausted {
		t.Errorf("DoPut: code %v (%v), want ResourceExhausted", got, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "up.arrow")); !os.IsNotExist(err) {
		t.Errorf("up.arrow: %v", err)
	}
	_, err = c.Tensors(ctx, flightserve.Ticket{Path: "big.arrow"}, "x")
	if got := status.Code(err); got != codes.ResourceExhausted {
		t.Errorf("DoGet: code %v (%v), want ResourceExhausted", got, err)
	}
	// The client's own limit.
	small := dial(t, addr, flightserve.WithMaxMessageBytes(1<<20))
	_, err = small.Tensors(ctx, flightserve.Ticket{Path: "big.arrow", Expr: "x[:300]"}, "x")
	if got := status.Code(err); got != codes.OK {
		t.Errorf("DoGet of a half: code %v (%v), want OK", got, err)
	}
	stillServes(t, c)
}

func TestDisconnect(t *testing.T) {
	dir := testDir(t)
	writeTestFile(t, filepath.Join(dir, "long.arrow"), 5000, 1000)
	writeTestFile(t, filepath.Join(dir, "long.parquet"), 5000, 1000)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	addr := serve(t, flightserve.Config{Dir: dir, Allocator: mem, BatchBytes: 10 * 144})
	c, _ := dialChecked(t, addr)
	for _, tc := range []struct {
		name string
		path string
	}{
		{"ipc file", "long.arrow"},
		{"parquet", "long.parquet"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(testCtx(t))
			r, err := c.Get(ctx, flightserve.Ticket{Path: tc.path, Expr: "x.T"})
			if err != nil {
				t.Fatal(err)
			}
			if !r.Next() {
				t.Fatal(r.Err())
			}
			cancel() // mid-stream
			for r.Next() {
			}
			if got := status.Code(r.Err()); got != codes.Canceled {
				t.Errorf("code %v (%v), want Canceled", got, r.Err())
			}
			r.Release()
			// Released early: the call ends too.
			r, err = c.Get(testCtx(t), flightserve.Ticket{Path: tc.path})
			if err != nil {
				t.Fatal(err)
			}
			r.Next()
			r.Release()
			stillServes(t, c)
		})
	}
	// A put cut off mid-stream leaves no file.
	ctx, cancel := context.WithCancel(testCtx(t))
	fc := rawClient(t, addr)
	st, err := fc.DoPut(ctx)
	if err != nil {
		t.Fatal(err)
	}
	schema := flight.SerializeSchema(testSchema(), memory.DefaultAllocator)
	if err := st.Send(&flight.FlightData{FlightDescriptor: &flight.FlightDescriptor{Type: flight.DescriptorPATH, Path: []string{"cut.arrow"}}, DataHeader: schema[8:]}); err != nil {
		t.Fatal(err)
	}
	cancel()
	stillServes(t, c)
	if _, err := os.Stat(filepath.Join(dir, "cut.arrow")); !os.IsNotExist(err) {
		t.Errorf("cut.arrow: %v", err)
	}
}
