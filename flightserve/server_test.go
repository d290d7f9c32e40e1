package flightserve_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/flightserve"
	"github.com/fstensor/fstensor/tensorio"
)

func TestGet(t *testing.T) {
	dir := testDir(t)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	// Batches of 3 rows: the server cuts the files' batches of 10.
	addr := serve(t, flightserve.Config{Dir: dir, Allocator: mem, BatchBytes: 3 * 96})
	c, _ := dialChecked(t, addr)
	ctx := testCtx(t)
	for _, path := range []string{"data.arrow", "data.arrows", "sub/data.parquet"} {
		for _, tc := range []struct {
			name   string
			ticket flightserve.Ticket
			column string
		}{
			{"all", flightserve.Ticket{}, "x"},
			{"permuted", flightserve.Ticket{}, "p"},
			{"rows", flightserve.Ticket{Offset: 7, Limit: 9}, "x"},
			{"rows to the end", flightserve.Ticket{Offset: 21}, "p"},
			{"columns", flightserve.Ticket{Columns: []string{"p", "id"}}, "p"},
			{"expr", flightserve.Ticket{Expr: "x[:, ::2].T"}, "x"},
			{"expr permuted", flightserve.Ticket{Expr: "x[1, ::-1]"}, "p"},
			{"expr rows", flightserve.Ticket{Expr: "x[..., 1:3]", Offset: 4, Limit: 11, Columns: []string{"x"}}, "x"},
			{"0-D result", flightserve.Ticket{Expr: "x[3, 5]", Offset: 20, Limit: 100, Columns: []string{"x"}}, "x"},
		} {
			t.Run(path+"/"+tc.name, func(t *testing.T) {
				tk := tc.ticket
				tk.Path = path
				got, err := c.Tensors(ctx, tk, tc.column)
				if err != nil {
					t.Fatal(err)
				}
				defer got.Release()
				want := localTensors(t, dir, tk, tc.column)
				defer want.Release()
				if !fixedshape.Equal(want, got) {
					t.Errorf("got %v\nwant %v", got, want)
				}
				if diff := cmp.Diff(want.TensorType().String(), got.TensorType().String()); diff != "" {
					t.Errorf("type (-want +got):\n%s", diff)
				}
			})
		}
	}
}

func TestInfo(t *testing.T) {
	dir := testDir(t)
	if err := os.WriteFile(filepath.Join(dir, ".hidden.arrow"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	addr := serve(t, flightserve.Config{Dir: dir, Allocator: mem})
	c := dial(t, addr)
	ctx := testCtx(t)

	infos, err := c.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, in := range infos {
		paths = append(paths, in.Ticket.Path)
		if in.Rows != 23 {
			t.Errorf("%s: %d rows, want 23", in.Ticket.Path, in.Rows)
		}
		if !in.Schema.Equal(testSchema()) {
			t.Errorf("%s: schema %v", in.Ticket.Path, in.Schema)
		}
	}
	slices.Sort(paths)
	if diff := cmp.Diff([]string{"data.arrow", "data.arrows", "sub/data.parquet"}, paths); diff != "" {
		t.Errorf("listed (-want +got):\n%s", diff)
	}

	in, err := c.Info(ctx, flightserve.Ticket{Path: "sub/data.parquet", Columns: []string{"x"}, Offset: 20, Expr: "x.T"})
	if err != nil {
		t.Fatal(err)
	}
	typ, ok := fixedshape.TypeOfField(in.Schema.Field(0))
	if !ok || in.Rows != 3 || in.Schema.NumFields() != 1 {
		t.Fatalf("info: %v, %d rows", in.Schema, in.Rows)
	}
	if diff := cmp.Diff([]int{6, 4}, typ.Shape()); diff != "" {
		t.Errorf("shape (-want +got):\n%s", diff)
	}
}

func TestPut(t *testing.T) {
	dir := testDir(t)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	addr := serve(t, flightserve.Config{Dir: dir, Allocator: mem})
	c, cmem := dialChecked(t, addr)
	ctx := testCtx(t)
	for _, name := range []string{"up.arrow", "up.arrows", "sub/up.parquet"} {
		t.Run(name, func(t *testing.T) {
			r, err := tensorio.Open(filepath.Join(dir, "data.arrow"), tensorio.WithAllocator(cmem))
			if err != nil {
				t.Fatal(err)
			}
			n, err := c.Put(ctx, name, r)
			r.Release()
			if err != nil {
				t.Fatal(err)
			}
			if n != 23 {
				t.Errorf("put %d rows, want 23", n)
			}
			for _, col := range []string{"x", "p"} {
				want := localTensors(t, dir, flightserve.Ticket{Path: "data.arrow"}, col)
				got := localTensors(t, dir, flightserve.Ticket{Path: name}, col)
				if !fixedshape.Equal(want, got) {
					t.Errorf("%s: got %v\nwant %v", col, got, want)
				}
				want.Release()
				got.Release()
			}
		})
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name()[0] == '.' {
			t.Errorf("temporary file %s left", e.Name())
		}
	}
}

// readerOf returns a reader of the test file at path.
func readerOf(t *testing.T, path string) *tensorio.Reader {
	t.Helper()
	r, err := tensorio.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestTicket(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		ok   bool
	}{
		{"full", `{"path":"a.arrow","columns":["x"],"offset":1,"limit":2,"expr":"x.T"}`, true},
		{"path only", `{"path":"a/b.parquet"}`, true},
		{"not json", `a.arrow`, false},
		{"unknown key", `{"path":"a.arrow","row":[3]}`, false},
		{"rows", `{"path":"a.arrow","rows":[3,1,3]}`, true},
		{"rows not a list", `{"path":"a.arrow","rows":3}`, false},
		{"empty rows", `{"path":"a.arrow","rows":[]}`, false},
		{"rows and offset", `{"path":"a.arrow","rows":[1],"offset":2}`, false},
		{"rows and limit", `{"path":"a.arrow","rows":[1],"limit":2}`, false},
		{"trailing", `{"path":"a.arrow"} {}`, false},
		{"no path", `{"columns":["x"]}`, false},
		{"negative offset", `{"path":"a.arrow","offset":-1}`, false},
		{"empty", ``, false},
		{"key twice", `{"path":"a.arrow","path":"b.arrow"}`, false},
		{"key twice in two cases", `{"path":"a.arrow","offset":1,"Offset":2}`, false},
		{"nested keys alike", `{"path":"a.arrow","columns":["path","path"]}`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tk, err := flightserve.ParseTicket([]byte(tc.in))
			if (err == nil) != tc.ok {
				t.Fatalf("ParseTicket(%s) = %+v, %v", tc.in, tk, err)
			}
			if tc.ok {
				back, err := flightserve.ParseTicket(tk.Marshal())
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tk, back); diff != "" {
					t.Errorf("round trip (-want +got):\n%s", diff)
				}
			}
		})
	}
}

var _ = errors.Is
var _ arrow.DataType

// TestDescriptors: ListFlights describes each file by a PATH descriptor
// of its path's elements, and GetFlightInfo answers with the descriptor
// it was asked about, PATH or CMD.
func TestDescriptors(t *testing.T) {
	dir := testDir(t)
	addr := serve(t, flightserve.Config{Dir: dir})
	fc := rawClient(t, addr)
	ctx := testCtx(t)

	st, err := fc.ListFlights(ctx, &flight.Criteria{})
	if err != nil {
		t.Fatal(err)
	}
	var listed [][]string
	for {
		fi, err := st.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		d := fi.GetFlightDescriptor()
		if d.GetType() != flight.DescriptorPATH {
			t.Fatalf("listed descriptor %v, want a PATH descriptor", d)
		}
		listed = append(listed, d.GetPath())
	}
	slices.SortFunc(listed, slices.Compare)
	if diff := cmp.Diff([][]string{{"data.arrow"}, {"data.arrows"}, {"sub", "data.parquet"}}, listed); diff != "" {
		t.Errorf("listed paths (-want +got):\n%s", diff)
	}

	for _, d := range []*flight.FlightDescriptor{
		{Type: flight.DescriptorPATH, Path: []string{"sub", "data.parquet"}},
		{Type: flight.DescriptorPATH, Path: []string{"sub/data.parquet"}},
		{Type: flight.DescriptorPATH, Path: []string{"sub"}},
		{Type: flight.DescriptorCMD, Cmd: []byte(`{"path":"data.arrow","limit":3}`)},
	} {
		fi, err := fc.GetFlightInfo(ctx, d)
		if err != nil {
			t.Fatalf("%v: %v", d, err)
		}
		got := fi.GetFlightDescriptor()
		if got.GetType() != d.Type || !slices.Equal(got.GetPath(), d.Path) || string(got.GetCmd()) != string(d.Cmd) {
			t.Errorf("GetFlightInfo(%v) describes %v", d, got)
		}
	}
}
