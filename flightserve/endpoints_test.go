package flightserve_test

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/flightserve"
	"github.com/fstensor/fstensor/internal/pyrun"
	"github.com/fstensor/fstensor/parquetconv"
	"github.com/fstensor/fstensor/tensorio"
)

// writeGroups writes rows [0, n) of the test data to a Parquet file of
// row groups of rg rows.
func writeGroups(t *testing.T, path string, n, rg int) {
	t.Helper()
	rec := testBatch(t, memory.DefaultAllocator, 0, n)
	defer rec.Release()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := parquetconv.NewWriter(f, rec.Schema(), parquetconv.WithRowGroupRows(rg))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// endpointRows returns the [offset, rows] of each endpoint and checks
// that its stated rows are those of its ticket.
func endpointRows(t *testing.T, in flightserve.Info) [][3]any {
	t.Helper()
	var out [][3]any
	for _, e := range in.Endpoints {
		if e.Bytes <= 0 {
			t.Errorf("endpoint %+v states no bytes", e)
		}
		if e.Ticket.Limit != 0 && e.Ticket.Limit != e.Rows {
			t.Errorf("endpoint %+v: ticket limit and rows differ", e)
		}
		out = append(out, [3]any{e.Ticket.Path, e.Ticket.Offset, e.Rows})
	}
	return out
}

// fetchIDs fetches every endpoint of in at once, one goroutine each, and
// returns the ids of their rows in endpoint order.
func fetchIDs(t *testing.T, c *flightserve.Client, in flightserve.Info) []int64 {
	t.Helper()
	parts := make([][]int64, len(in.Endpoints))
	errs := make([]error, len(in.Endpoints))
	var wg sync.WaitGroup
	for i, e := range in.Endpoints {
		wg.Go(func() {
			r, err := c.Get(testCtx(t), e.Ticket)
			if err != nil {
				errs[i] = err
				return
			}
			defer r.Release()
			for r.Next() {
				parts[i] = append(parts[i], r.RecordBatch().Column(0).(*array.Int64).Int64Values()...)
			}
			errs[i] = r.Err()
		})
	}
	wg.Wait()
	var ids []int64
	for i, p := range parts {
		if errs[i] != nil {
			t.Fatalf("endpoint %d: %v", i, errs[i])
		}
		ids = append(ids, p...)
	}
	return ids
}

func seq(lo, hi int64) []int64 {
	var s []int64
	for i := lo; i < hi; i++ {
		s = append(s, i)
	}
	return s
}

func TestEndpoints(t *testing.T) {
	dir := testDir(t) // data.arrow and data.arrows (23 rows in batches of 10), sub/data.parquet
	writeGroups(t, filepath.Join(dir, "sub", "groups.parquet"), 25, 10)
	writeTestFile(t, filepath.Join(dir, "sub", ".hidden.arrow"), 5, 5)
	writeTestFile(t, filepath.Join(dir, "sub", ".hid", "in.arrow"), 5, 5)
	if err := os.WriteFile(filepath.Join(dir, "sub", "notes.txt"), []byte("not data"), 0o644); err != nil {
		t.Fatal(err)
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	// One byte an endpoint: every batch and row group is one.
	c := dial(t, serve(t, flightserve.Config{Dir: dir, Allocator: mem, EndpointBytes: 1}))
	whole := dial(t, serve(t, flightserve.Config{Dir: dir, Allocator: mem, EndpointBytes: -1}))
	ctx := testCtx(t)
	for _, tc := range []struct {
		name   string
		client *flightserve.Client
		ticket flightserve.Ticket
		parts  [][3]any
		ids    []int64
	}{
		{"ipc file", c, flightserve.Ticket{Path: "data.arrow"},
			[][3]any{{"data.arrow", int64(0), int64(10)}, {"data.arrow", int64(10), int64(10)}, {"data.arrow", int64(20), int64(3)}}, seq(0, 23)},
		{"stream whole", c, flightserve.Ticket{Path: "data.arrows"}, [][3]any{{"data.arrows", int64(0), int64(23)}}, seq(0, 23)},
		{"parquet row groups", c, flightserve.Ticket{Path: "sub/groups.parquet", Columns: []string{"id", "x"}},
			[][3]any{{"sub/groups.parquet", int64(0), int64(10)}, {"sub/groups.parquet", int64(10), int64(10)}, {"sub/groups.parquet", int64(20), int64(5)}}, seq(0, 25)},
		{"ticket range not cut", c, flightserve.Ticket{Path: "data.arrow", Offset: 5, Limit: 12}, [][3]any{{"data.arrow", int64(5), int64(12)}}, seq(5, 17)},
		{"file whole", whole, flightserve.Ticket{Path: "data.arrow"}, [][3]any{{"data.arrow", int64(0), int64(23)}}, seq(0, 23)},
		{"directory", c, flightserve.Ticket{Path: "sub"},
			[][3]any{{"sub/data.parquet", int64(0), int64(10)}, {"sub/data.parquet", int64(10), int64(10)}, {"sub/data.parquet", int64(20), int64(3)},
				{"sub/groups.parquet", int64(0), int64(10)}, {"sub/groups.parquet", int64(10), int64(10)}, {"sub/groups.parquet", int64(20), int64(5)}},
			append(seq(0, 23), seq(0, 25)...)},
		{"served directory", whole, flightserve.Ticket{Path: "."},
			[][3]any{{"data.arrow", int64(0), int64(23)}, {"data.arrows", int64(0), int64(23)}, {"sub/data.parquet", int64(0), int64(23)}, {"sub/groups.parquet", int64(0), int64(25)}},
			append(append(seq(0, 23), seq(0, 23)...), append(seq(0, 23), seq(0, 25)...)...)},
		{"directory with an expression", whole, flightserve.Ticket{Path: "sub", Columns: []string{"id", "x"}, Expr: "x.sum(axis=-1)"},
			[][3]any{{"sub/data.parquet", int64(0), int64(23)}, {"sub/groups.parquet", int64(0), int64(25)}}, append(seq(0, 23), seq(0, 25)...)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, err := tc.client.Info(ctx, tc.ticket)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.parts, endpointRows(t, in)); diff != "" {
				t.Fatalf("endpoints (-want +got):\n%s", diff)
			}
			for _, e := range in.Endpoints {
				if e.Ticket.Expr != tc.ticket.Expr || !cmp.Equal(e.Ticket.Columns, tc.ticket.Columns) {
					t.Errorf("endpoint ticket %+v lost the columns or expression of %+v", e.Ticket, tc.ticket)
				}
			}
			if in.Rows != int64(len(tc.ids)) {
				t.Errorf("info states %d rows, want %d", in.Rows, len(tc.ids))
			}
			if diff := cmp.Diff(tc.ids, fetchIDs(t, tc.client, in)); diff != "" {
				t.Errorf("ids fetched (-want +got):\n%s", diff)
			}
		})
	}
}

func TestEndpointsRefused(t *testing.T) {
	dir := testDir(t)
	if err := os.MkdirAll(filepath.Join(dir, "empty", "deeper"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A file whose schema differs from the others of its directory.
	writeTestFile(t, filepath.Join(dir, "mixed", "a.arrow"), 3, 3)
	writeGroups(t, filepath.Join(dir, "mixed", "b.parquet"), 3, 3)
	other := filepath.Join(dir, "mixed", "c.arrow")
	rec := testBatch(t, memory.DefaultAllocator, 0, 2)
	narrow := array.NewRecordBatch(arrow.NewSchema(rec.Schema().Fields()[1:2], nil), rec.Columns()[1:2], 2)
	rec.Release()
	defer narrow.Release()
	writeRecords(t, other, narrow)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	c := dial(t, serve(t, flightserve.Config{Dir: dir, Allocator: mem}))
	ctx := testCtx(t)
	for _, tc := range []struct {
		name string
		path string
		code codes.Code
		says string
	}{
		{"empty directory", "empty", codes.NotFound, "holds no IPC or Parquet file"},
		{"schemas differ", "mixed", codes.InvalidArgument, `"mixed/c.arrow" differs`},
		{"hidden directory", ".git", codes.PermissionDenied, "hidden"},
		{"parent", "sub/..", codes.PermissionDenied, "refused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.Info(ctx, flightserve.Ticket{Path: tc.path})
			if status.Code(err) != tc.code || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("Info: %v, want %v saying %q", err, tc.code, tc.says)
			}
		})
	}
	// DoGet of a directory names GetFlightInfo.
	_, err := c.Tensors(ctx, flightserve.Ticket{Path: "sub"}, "x")
	if status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("DoGet of a directory: %v", err)
	}
}

// writeRecords writes recs to an IPC file at path.
func writeRecords(t *testing.T, path string, recs ...arrow.RecordBatch) {
	t.Helper()
	w, err := tensorio.Create(path, recs[0].Schema())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestEndpointsPyArrow has two pyarrow.flight clients fetch the endpoints
// of a directory at once, each half of them, and checks their rows.
func TestEndpointsPyArrow(t *testing.T) {
	pyrun.Python(t, "pyarrow.flight")
	dir := t.TempDir()
	writeGroups(t, filepath.Join(dir, "a.parquet"), 40, 10)
	writeTestFile(t, filepath.Join(dir, "b.arrow"), 30, 10)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	addr := serve(t, flightserve.Config{Dir: dir, Allocator: mem, EndpointBytes: 1})
	out := pyrun.Run(t, endpointsScript, nil, []string{"pyarrow.flight"}, "grpc://"+addr)
	if got := strings.TrimSpace(string(out)); got != "endpoints=7 rows=70 ok" {
		t.Fatalf("script printed %q", out)
	}
}

const endpointsScript = `
import json, sys, threading
import pyarrow as pa, pyarrow.flight as fl

loc = sys.argv[1]
info = fl.connect(loc).get_flight_info(fl.FlightDescriptor.for_path("."))
eps = info.endpoints
got = [None] * len(eps)

def worker(k):
    client = fl.connect(loc)  # each worker its own connection
    for i in range(k, len(eps), 2):
        got[i] = client.do_get(eps[i].ticket).read_all()

ts = [threading.Thread(target=worker, args=(k,)) for k in (0, 1)]
for t in ts: t.start()
for t in ts: t.join()
ids = [i for tab in got for i in tab.column("id").to_pylist()]
assert ids == list(range(40)) + list(range(30)), ids
for e, tab in zip(eps, got):
    assert json.loads(e.app_metadata)["rows"] == tab.num_rows
    assert isinstance(tab.schema.field("x").type, pa.FixedShapeTensorType), tab.schema
assert info.total_records == 70
print("endpoints=%d rows=%d ok" % (len(eps), sum(t.num_rows for t in got)))
`

// TestTicketRows takes rows by number from an IPC file and a Parquet
// file of several row groups, with columns and an expression.
func TestTicketRows(t *testing.T) {
	dir := testDir(t)
	writeGroups(t, filepath.Join(dir, "sub", "groups.parquet"), 25, 10)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	c := dial(t, serve(t, flightserve.Config{Dir: dir, Allocator: mem}))
	ctx := testCtx(t)
	for _, path := range []string{"data.arrow", "sub/groups.parquet", "data.arrows"} {
		t.Run(path, func(t *testing.T) {
			rows := []int64{22, 0, 11, 11, 5}
			tk := flightserve.Ticket{Path: path, Rows: rows, Columns: []string{"id", "x"}}
			in, err := c.Info(ctx, tk)
			if err != nil {
				t.Fatal(err)
			}
			if in.Rows != int64(len(rows)) || len(in.Endpoints) != 1 {
				t.Errorf("info: %d rows, %d endpoints", in.Rows, len(in.Endpoints))
			}
			if diff := cmp.Diff(rows, fetchIDs(t, c, in)); diff != "" {
				t.Errorf("ids (-want +got):\n%s", diff)
			}
			tk.Expr = "x.sum()"
			got, err := c.Tensors(ctx, tk, "x")
			if err == nil {
				got.Release()
				t.Fatal("the sum replaced x by a plain column; Tensors should refuse it")
			}
			tk.Expr = "x[0, :2] * 2"
			x, err := c.Tensors(ctx, tk, "x")
			if err != nil {
				t.Fatal(err)
			}
			defer x.Release()
			col, err := fixedshape.ColumnOf[float32](x)
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range rows {
				v := col.Values()[2*i : 2*i+2]
				if want := []float32{float32(r*100) * 2, float32(r*100+1) * 2}; !cmp.Equal(v, want) {
					t.Errorf("row %d: %v, want %v", r, v, want)
				}
			}
			_, err = c.Tensors(ctx, flightserve.Ticket{Path: path, Rows: []int64{3, 25}}, "x")
			if status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "row 25") {
				t.Errorf("row 25 of 23 or 25: %v", err)
			}
		})
	}
}
