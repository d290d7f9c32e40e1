package flightserve_test

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/flightserve"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/tensorio"
)

// Types of the test files: x float32 (4,6), p int16 logical (2,3,4)
// stored with permutation [2 0 1], q int32 logical (3,2) stored
// transposed (permutation [1 0]).
var (
	xType = fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{4, 6}, []string{"h", "w"}, nil))
	pType = fixedshape.MustNewType(arrow.PrimitiveTypes.Int16, metadata.MustNew([]int{2, 3, 4}, nil, []int{2, 0, 1}))
	qType = fixedshape.MustNewType(arrow.PrimitiveTypes.Int32, metadata.MustNew([]int{3, 2}, nil, []int{1, 0}))
)

// testSchema is the schema of the test files.
func testSchema() *arrow.Schema {
	return arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "x", Type: xType, Nullable: true},
		{Name: "p", Type: pType, Nullable: true},
		{Name: "q", Type: qType, Nullable: true},
	}, nil)
}

// testBatch returns rows [lo, hi) of the test data: id i, x elements
// i*100+j, p elements (i*7+j)%1000, q elements i*10+j (physical order).
func testBatch(t testing.TB, mem memory.Allocator, lo, hi int) arrow.RecordBatch {
	t.Helper()
	ids := array.NewInt64Builder(mem)
	defer ids.Release()
	xs := make([]float32, 0, (hi-lo)*24)
	ps := make([]int16, 0, (hi-lo)*24)
	qs := make([]int32, 0, (hi-lo)*6)
	for i := lo; i < hi; i++ {
		ids.Append(int64(i))
		for j := range 24 {
			xs = append(xs, float32(i*100+j))
			ps = append(ps, int16((i*7+j)%1000))
		}
		for j := range 6 {
			qs = append(qs, int32(i*10+j))
		}
	}
	id := ids.NewArray()
	defer id.Release()
	x, err := fixedshape.FromSlice(xType, xs, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Release()
	p, err := fixedshape.FromSlice(pType, ps, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	q, err := fixedshape.FromSlice(qType, qs, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Release()
	return array.NewRecordBatch(testSchema(), []arrow.Array{id, x, p, q}, int64(hi-lo))
}

// writeTestFile writes rows [0, n) in batches of batch rows to path.
func writeTestFile(t testing.TB, path string, n, batch int) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	w, err := tensorio.Create(path, testSchema())
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	for lo := 0; lo < n; lo += batch {
		rec := testBatch(t, memory.DefaultAllocator, lo, min(lo+batch, n))
		err := w.Write(rec)
		rec.Release()
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// testDir returns a directory with the test data (23 rows) as
// data.arrow, data.arrows and sub/data.parquet.
func testDir(t testing.TB) string {
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "data.arrow"), 23, 10)
	writeTestFile(t, filepath.Join(dir, "data.arrows"), 23, 10)
	writeTestFile(t, filepath.Join(dir, "sub", "data.parquet"), 23, 10)
	return dir
}

// serve starts a server of cfg on a loopback port and returns its
// address. The cleanup stops it gracefully, then checks that cfg's
// allocator, if checked, is back to 0.
func serve(t *testing.T, cfg flightserve.Config) string {
	t.Helper()
	if mem, ok := cfg.Allocator.(*memory.CheckedAllocator); ok {
		t.Cleanup(func() { mem.AssertSize(t, 0) })
	}
	_, addr := listenAndServe(t, cfg, (*flightserve.Server).GracefulStop)
	return addr
}

// startServer starts a server of cfg on a loopback port and returns it
// with its address; the cleanup stops it.
func startServer(t *testing.T, cfg flightserve.Config) (*flightserve.Server, string) {
	t.Helper()
	return listenAndServe(t, cfg, (*flightserve.Server).Stop)
}

// listenAndServe starts a server of cfg on a loopback port and returns it
// with its address; the cleanup stops it with stop and reports an error
// of Serve.
func listenAndServe(t *testing.T, cfg flightserve.Config, stop func(*flightserve.Server)) (*flightserve.Server, string) {
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
		stop(s)
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
		waitQueriesClosed(t, s)
	})
	return s, lis.Addr().String()
}

// dial connects a client that the cleanup closes.
func dial(t *testing.T, addr string, opts ...flightserve.ClientOption) *flightserve.Client {
	t.Helper()
	c, err := flightserve.Dial(addr, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// dialChecked dials addr with a checked allocator for the client's
// batches and returns both; when the test ends, after the client closes,
// the allocator must be back to 0.
func dialChecked(t *testing.T, addr string) (*flightserve.Client, *memory.CheckedAllocator) {
	t.Helper()
	cmem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { cmem.AssertSize(t, 0) })
	return dial(t, addr, flightserve.WithAllocator(cmem)), cmem
}

// testCtx returns a context that ends with the test or after a minute.
func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// localTensors reads column of what tk selects from the file under dir,
// evaluating tk.Expr, as the server should.
func localTensors(t *testing.T, dir string, tk flightserve.Ticket, column string) *fixedshape.Array {
	t.Helper()
	var opts []tensorio.Option
	if tk.Offset > 0 {
		opts = append(opts, tensorio.WithOffset(tk.Offset))
	}
	if tk.Limit > 0 {
		opts = append(opts, tensorio.WithLimit(tk.Limit))
	}
	opts = append(opts, tensorio.WithColumns(column))
	r, err := tensorio.Open(filepath.Join(dir, filepath.FromSlash(tk.Path)), opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Release()
	var parts []arrow.Array
	for r.Next() {
		c := r.RecordBatch().Column(0)
		c.Retain()
		parts = append(parts, c)
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	all, err := array.Concatenate(parts, memory.DefaultAllocator)
	for _, p := range parts {
		p.Release()
	}
	if err != nil {
		t.Fatal(err)
	}
	col := all.(*fixedshape.Array)
	if tk.Expr == "" {
		return col
	}
	defer col.Release()
	e, err := expr.Parse(tk.Expr, expr.Input(col.TensorType()))
	if err != nil {
		t.Fatal(err)
	}
	out, err := expr.MustCompilePlan(e).Eval(col)
	if err != nil {
		t.Fatal(err)
	}
	return out.(*fixedshape.Array)
}

// listenLoopback listens on a free port of 127.0.0.1.
func listenLoopback() (net.Listener, error) { return net.Listen("tcp", "127.0.0.1:0") }

// waitQueriesClosed waits until s holds no file open, the batches gRPC
// held released: those gRPC dropped without freeing them are released
// by the garbage collector, which it runs.
func waitQueriesClosed(t *testing.T, s *flightserve.Server) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); flightserve.OpenQueries(s) != 0; {
		if time.Now().After(deadline) {
			t.Errorf("%d queries still open after 10 s", flightserve.OpenQueries(s))
			return
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
}
